"""The job history, hygiene snapshots, the doctor's checkup and digest channels in the admin (the console has
its Jobs, Doctor and Channels pages).

Job runs, snapshots and checkups are records of what happened: read-only. A checkup's report and plan
(every finding's ids, megabytes on a large store) are left out: the console's Doctor and Cleanup pages
show them a page at a time. Schedules themselves are django-q2's admin (Django Q › Scheduled tasks), where
their cron can be edited.
"""

from django.contrib import admin

from governance.models import Checkup, DigestChannel, HygieneSnapshot, JobRun


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


@admin.register(Checkup)
class CheckupAdmin(ReadOnly):
    list_display = ["computed_at", "last_event_id"]
    fields = ["computed_at", "last_event_id", "score"]
    date_hierarchy = "computed_at"


@admin.register(DigestChannel)
class DigestChannelAdmin(admin.ModelAdmin):
    list_display = ["kind", "target", "created_at"]
    fields = ["kind", "target"]
