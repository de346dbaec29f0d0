"""The Django admin, made to stay quick at 100k+ rows and to change memories only through the write path.

Memories are read-only here except through actions that call ``memories.lifecycle``; deleting one is
forgetting it, after Django's own confirmation page, and the delete policy decides as everywhere else
(under ``deny`` the admin offers no deletion). Counts are capped instead of counting whole tables, and
search uses the full-text index.
"""

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.shortcuts import redirect
from django.utils.functional import cached_property

from memories import lifecycle, search
from memories.lifecycle import actors, policies, proposals
from memories.models import AgentToken, AuditEvent, Memory, MemorySettings, Message


class CappedPaginator(Paginator):
    """Counts at most ``CAP`` rows: the last pages of a huge table are reached by filtering, not paging."""

    CAP = 10_000

    @cached_property
    def count(self):
        return self.object_list.order_by().values("pk")[: self.CAP].count()


class LargeTableAdmin(admin.ModelAdmin):
    paginator = CappedPaginator
    show_full_result_count = False
    list_per_page = 50


class ReadOnlyAdmin(admin.ModelAdmin):
    """For records only the write path changes: the admin shows them and nothing else."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class FullTextSearchAdmin(LargeTableAdmin):
    def get_search_results(self, request, queryset, search_term):
        if not search_term.strip():
            return queryset, False
        return search.matching(queryset, search_term), False


def _lifecycle_action(function, description, plural=False):
    def action(modeladmin, request, queryset):
        ids = list(queryset.values_list("pk", flat=True))
        try:
            if plural:
                function(ids, actor=actors.owner(request.user))
            else:
                for memory_id in ids:
                    function(memory_id, actor=actors.owner(request.user))
        except lifecycle.LifecycleError as error:
            modeladmin.message_user(request, str(error), messages.ERROR)
        else:
            modeladmin.message_user(request, f"{description}: {len(ids)} memories.", messages.SUCCESS)

    action.__name__ = function.__name__
    action.short_description = description
    return action


def approve_unflagged(ids, *, actor):
    """The admin's Approve: a bulk approval, so the flagged proposals are left out (the console approves
    them after their second step, ``proposals.needing_second_step``). Returns how many were left out."""
    flagged = proposals.needing_second_step(ids)
    unflagged = [memory_id for memory_id in ids if memory_id not in flagged]
    if unflagged:
        lifecycle.approve(unflagged, actor=actor)
    return len(ids) - len(unflagged)


def approve_action(modeladmin, request, queryset):
    ids = list(queryset.values_list("pk", flat=True))
    try:
        left_out = approve_unflagged(ids, actor=actors.owner(request.user))
    except lifecycle.LifecycleError as error:
        modeladmin.message_user(request, str(error), messages.ERROR)
        return
    modeladmin.message_user(request, f"Approve: {len(ids) - left_out} memories.", messages.SUCCESS)
    if left_out:
        modeladmin.message_user(
            request,
            f"{left_out} flagged proposals were left out: approve them in the console's pending queue, "
            "where their flags are shown first.",
            messages.WARNING,
        )


approve_action.__name__ = "approve"
approve_action.short_description = "Approve (flagged proposals are left out)"


@admin.register(Memory)
class MemoryAdmin(FullTextSearchAdmin):
    list_display = ("id", "text", "kind", "subject", "scope", "layer", "status", "pinned", "stale", "confirmed_at")
    list_filter = ("status", "layer", "scope", "pinned", "stale", "source_kind")
    list_select_related = ("superseded_by",)
    search_fields = ("text",)
    raw_id_fields = ("superseded_by", "message")
    ordering = ("-id",)
    actions = [
        approve_action,
        _lifecycle_action(lifecycle.reject, "Reject", plural=True),
        _lifecycle_action(lifecycle.pin, "Pin"),
        _lifecycle_action(lifecycle.unpin, "Unpin"),
        _lifecycle_action(lifecycle.confirm, "Confirm as still true"),
    ]

    def has_add_permission(self, request):
        return False

    def get_readonly_fields(self, request, obj=None):
        return [field.name for field in Memory._meta.fields]

    def has_delete_permission(self, request, obj=None):
        return super().has_delete_permission(request, obj) and lifecycle.delete_refusal(confirmed=True) is None

    # Django asks for the confirmation before it calls these: the owner has confirmed the deletion.
    def delete_model(self, request, obj):
        try:
            lifecycle.forget(obj.pk, actor=actors.owner(request.user), confirmed=True)
        except lifecycle.LifecycleError as error:
            raise PermissionDenied(str(error)) from None

    def delete_queryset(self, request, queryset):
        try:
            lifecycle.erase(
                list(queryset.values_list("pk", flat=True)), actor=actors.owner(request.user), confirmed=True
            )
        except lifecycle.LifecycleError as error:
            raise PermissionDenied(str(error)) from None


@admin.register(AuditEvent)
class AuditEventAdmin(ReadOnlyAdmin, LargeTableAdmin):
    list_display = ("id", "at", "event", "memory_id", "actor", "note")
    list_filter = ("event",)
    search_fields = ("actor",)
    ordering = ("-id",)


@admin.register(Message)
class MessageAdmin(FullTextSearchAdmin):
    list_display = ("id", "created_at", "role", "user", "channel", "project", "text")
    list_filter = ("role",)
    search_fields = ("text",)
    ordering = ("-id",)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(MemorySettings)
class MemorySettingsAdmin(admin.ModelAdmin):
    """Changes go through ``memories.lifecycle.policies`` so each one is checked and lands in the history."""

    fields = (
        "write_policy",
        "delete_policy",
        "governance_policy",
        "paused",
        "core_budget_tokens",
        "working_budget_tokens",
    )
    list_display = ("__str__", "write_policy", "delete_policy", "governance_policy", "paused")

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def changelist_view(self, request, extra_context=None):
        return redirect("admin:memories_memorysettings_change", MemorySettings.load().pk)

    def save_model(self, request, obj, form, change):
        who = actors.owner(request.user)
        data = form.cleaned_data
        policies.set_write_policy(data["write_policy"], actor=who)
        policies.set_delete_policy(data["delete_policy"], actor=who)
        policies.set_governance_policy(data["governance_policy"], actor=who)
        (policies.pause if data["paused"] else policies.resume)(actor=who)
        policies.set_budgets(core=data["core_budget_tokens"], working=data["working_budget_tokens"], actor=who)


@admin.register(AgentToken)
class AgentTokenAdmin(ReadOnlyAdmin):
    """Read-only: tokens are made and revoked by ``memories.agent_tokens`` (the settings page, ``bestie token``),
    which show the plaintext once and audit both; the hash is never shown."""

    list_display = ("name", "created_at", "last_used_at", "revoked_at")
    fields = ("name", "created_at", "last_used_at", "revoked_at")
    list_filter = (("revoked_at", admin.EmptyFieldListFilter),)
    search_fields = ("name",)
