"""Read-only reports on the store: ``status``, ``tiers`` and ``summary`` (CLI, console and API alike)."""

from django.conf import settings as django_settings
from django.db import connection
from django.db.models import Count, Min, Q
from django.utils import timezone

from memories.models import Layer, Memory, MemorySettings, Status
from memories.retrieval.prompt import core_report
from memories.times import iso


def _database():
    info = {"engine": connection.vendor}
    if connection.vendor == "sqlite":
        path = django_settings.DATABASES["default"]["NAME"]
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA journal_mode")
            info["journal_mode"] = cursor.fetchone()[0]
            cursor.execute("PRAGMA page_count")
            pages = cursor.fetchone()[0]
            cursor.execute("PRAGMA page_size")
            info["size_bytes"] = pages * cursor.fetchone()[0]
        info["path"] = str(path)
    else:
        info["name"] = connection.settings_dict["NAME"]
    return info


def counts(now=None):
    """How many memories stand where, in one query."""
    now = now or timezone.now()
    expired = Q(expires_at__lte=now)
    return Memory.objects.aggregate(
        total=Count("pk"),
        live=Count("pk", filter=Q(pk__in=Memory.objects.live(now).values("pk"))),
        pending=Count("pk", filter=Q(pk__in=Memory.objects.pending(now).values("pk"))),
        rejected=Count("pk", filter=Q(status=Status.REJECTED)),
        superseded=Count("pk", filter=Q(superseded_by__isnull=False)),
        expired=Count("pk", filter=expired),
        deleted=Count("pk", filter=Q(deleted_at__isnull=False)),
        stale=Count("pk", filter=Q(stale=True)),
        pinned=Count("pk", filter=Q(pinned=True)),
    )


def status():
    memory_settings = MemorySettings.load()
    return {
        "paused": memory_settings.paused,
        "write_policy": memory_settings.write_policy,
        "delete_policy": memory_settings.delete_policy,
        "governance_policy": memory_settings.governance_policy,
        "core_budget_tokens": memory_settings.core_budget_tokens,
        "working_budget_tokens": memory_settings.working_budget_tokens,
        "erasure_pending_since": iso(memory_settings.erasure_pending_since),
        "memories": counts(),
        "database": _database(),
    }


def tiers(now=None):
    """Live memories per layer, what of them can be injected, and the core tier against its budget."""
    now = now or timezone.now()
    live = Memory.objects.live(now)
    per_layer = dict(live.values_list("layer").annotate(n=Count("pk")).values_list("layer", "n"))
    injectable = dict(
        Memory.objects.injectable(now).values_list("layer").annotate(n=Count("pk")).values_list("layer", "n")
    )
    core = core_report(MemorySettings.load(), now)
    return {
        "layers": {
            layer: {"live": per_layer.get(layer, 0), "injectable": injectable.get(layer, 0)} for layer in Layer.values
        },
        "core": {
            "tokens": core.tokens,
            "budget_tokens": core.budget_tokens,
            "over_budget": core.over_budget,
            "pinned": live.filter(layer=Layer.CORE, pinned=True).count(),
        },
    }


def _grouped(queryset, field):
    return dict(queryset.values_list(field).annotate(n=Count("pk")).order_by("-n", field).values_list(field, "n"))


def summary(now=None):
    """What the store holds: counts by kind, scope, layer and status, and the ages that need attention."""
    now = now or timezone.now()
    live = Memory.objects.live(now)
    oldest_pending = Memory.objects.pending(now).aggregate(at=Min("created_at"))["at"]
    oldest_confirmed = live.aggregate(at=Min("confirmed_at"))["at"]
    return {
        "counts": counts(now),
        "live_by_kind": _grouped(live, "kind"),
        "live_by_scope": _grouped(live, "scope"),
        "live_by_layer": _grouped(live, "layer"),
        "by_status": _grouped(Memory.objects.all(), "status"),
        "oldest_pending_at": iso(oldest_pending),
        "oldest_confirmed_at": iso(oldest_confirmed),
        "needs_review": Memory.objects.due_for_review(now).count(),
    }
