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
    path("doctor/cleanup/", views.cleanup_page, name="cleanup"),
    path("jobs/", views.jobs_page, name="jobs"),
    path("jobs/schedule/", views.set_schedule, name="schedule"),
    path("import/", views.import_page, name="import"),
    path("import/apply/", views.import_apply, name="import-apply"),
]
