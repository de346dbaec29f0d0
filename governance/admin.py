"""The job history, hygiene snapshots, the doctor's checkup and digest channels in the admin (the console has
its Jobs, Doctor and Channels pages).

Job runs, snapshots and checkups are records of what happened: read-only. A checkup's report and plan
(every finding's ids, megabytes on a large store) are left out: the console's Doctor and Cleanup pages
show them a page at a time. Schedules themselves are django-q2's admin (Django Q › Scheduled tasks), where
their cron can be edited. Channels change through the same functions as on the Channels page.
"""

from django.contrib import admin

from governance import channels
from governance.models import Checkup, DigestChannel, HygieneSnapshot, JobRun
from memories.lifecycle import actors


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
    """Channels are added, changed and removed through ``governance.channels``, as on the Channels page, so
    that the history records each change (the form has checked the target for its kind already)."""

    list_display = ["kind", "target", "created_at"]
    fields = ["kind", "target"]

    def save_model(self, request, obj, form, change):
        actor = actors.owner(request.user)
        if change:
            channels.change(obj.pk, obj.kind, obj.target, actor=actor)
        else:
            obj.pk = channels.add(obj.kind, obj.target, actor=actor).pk

    def delete_model(self, request, obj):
        channels.remove([str(obj)], actor=actors.owner(request.user))

    def delete_queryset(self, request, queryset):
        channels.remove([str(channel) for channel in queryset], actor=actors.owner(request.user))
