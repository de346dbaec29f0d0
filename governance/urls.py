from django.urls import path

from governance import views

app_name = "governance"

urlpatterns = [
    path("settings/", views.settings_page, name="settings"),
    path("settings/policies/", views.set_policies, name="policies"),
    path("settings/pause/", views.pause_or_resume, name="pause"),
    path("settings/tokens/", views.create_token, name="token-create"),
    path("settings/tokens/revoke/", views.revoke_token, name="token-revoke"),
    path("doctor/", views.doctor_page, name="doctor"),
    path("doctor/merge/", views.merge_page, name="merge"),
    path("doctor/resolve/", views.resolve_conflict, name="resolve"),
    path("doctor/recompute/", views.recompute, name="recompute"),
    path("doctor/cleanup/", views.cleanup_page, name="cleanup"),
    path("doctor/cleanup/applying/", views.cleanup_progress, name="cleanup-progress"),
    path("jobs/", views.jobs_page, name="jobs"),
    path("jobs/schedule/", views.set_schedule, name="schedule"),
    path("channels/", views.channels_page, name="channels"),
    path("channels/add/", views.channel_add, name="channel-add"),
    path("channels/<int:channel_id>/edit/", views.channel_edit, name="channel-edit"),
    path("channels/<int:channel_id>/remove/", views.channel_remove, name="channel-remove"),
    path("channels/<int:channel_id>/test/", views.channel_test, name="channel-test"),
    path("channels/digest/", views.digest_now, name="digest-now"),
    path("backups/", views.backups_page, name="backups"),
    path("backups/now/", views.backup_now, name="backup-now"),
    path("backups/<str:name>/download/", views.backup_download, name="backup-download"),
    path("backups/<str:name>/restore/", views.backup_restore, name="backup-restore"),
    path("import/", views.import_page, name="import"),
    path("import/apply/", views.import_apply, name="import-apply"),
]
