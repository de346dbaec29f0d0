"""The job history, hygiene snapshots and digest channels in the admin (the console has its Jobs and Channels pages).

Job runs and snapshots are records of what happened: read-only. Schedules themselves are django-q2's
admin (Django Q › Scheduled tasks), where their cron can be edited.
"""

from django.contrib import admin

from governance.models import DigestChannel, HygieneSnapshot, JobRun


class ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(JobRun)
class JobRunAdmin(ReadOnly):
    list_display = ["job", "started_at", "finished_at", "outcome", "counts", "error", "step", "done", "total"]
    list_filter = ["job", "outcome"]
    date_hierarchy = "started_at"


@admin.register(HygieneSnapshot)
class HygieneSnapshotAdmin(ReadOnly):
    list_display = ["taken_at", "score", "counts", "oldest_pending_at"]
    date_hierarchy = "taken_at"


@admin.register(DigestChannel)
class DigestChannelAdmin(admin.ModelAdmin):
    list_display = ["kind", "target", "created_at"]
    fields = ["kind", "target"]
