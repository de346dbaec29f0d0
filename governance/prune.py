"""Prune (SPEC §6): erase expired memories and those superseded long ago, as the delete policy allows.

Erasing goes through ``lifecycle.erase`` (only a hash of each text stays in the history), in batches
whose size adapts so one batch, one write transaction, stays short (``governance.jobs.Batches``).
"""

import time
from dataclasses import dataclass
from datetime import timedelta

from django.db import connection, transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from governance.jobs import JOB_ACTOR, Batches, recorded
from memories import lifecycle
from memories.models import Memory, MemorySettings, Policy

SUPERSEDED_KEEP_DAYS = 180


@dataclass(frozen=True)
class PruneResult:
    policy: str
    expired: int  # candidates found: expired rows
    superseded: int  # candidates found: superseded rows older than SUPERSEDED_KEEP_DAYS
    deleted: int  # memories erased, older versions they replaced included
    awaiting_confirmation: int  # with delete policy ask and no confirmation
    would_delete: int  # with delete policy deny, or a dry run
    batches: int = 0
    longest_batch_seconds: float = 0.0


def candidates(now=None):
    """Expired rows and rows superseded more than ``SUPERSEDED_KEEP_DAYS`` ago; pinned ones never, nor a
    row whose erasure would take a pinned older version with it."""
    now = now or timezone.now()
    pinned_predecessor = Memory.objects.filter(superseded_by=OuterRef("pk"), pinned=True)
    return (
        Memory.objects.filter(
            Q(expires_at__lte=now)
            | Q(superseded_by__isnull=False, created_at__lt=now - timedelta(days=SUPERSEDED_KEEP_DAYS))
        )
        .filter(pinned=False)
        .exclude(Exists(pinned_predecessor))
    )


def plan(now=None):
    """What prune would erase, without erasing anything."""
    now = now or timezone.now()
    found = candidates(now)
    expired = found.filter(expires_at__lte=now).count()
    total = found.count()
    policy = str(MemorySettings.load().delete_policy)
    return PruneResult(
        policy=policy,
        expired=expired,
        superseded=total - expired,
        deleted=0,
        awaiting_confirmation=total if policy == Policy.ASK else 0,
        would_delete=total,
    )


@recorded("prune")
def prune(*, confirmed=False, now=None):
    """Erase what ``candidates`` finds, as the delete policy allows (``confirmed``: the owner confirmed it,
    with ``bestie memory prune --yes``; the scheduled job never has). Returns the plan when the policy
    refuses."""
    now = now or timezone.now()
    current = plan(now)
    if lifecycle.delete_refusal(confirmed=confirmed):
        return current
    batches, deleted, last_id, count = Batches(), 0, 0, 0
    while True:
        started = time.monotonic()
        with transaction.atomic():
            # Chosen inside the write transaction, so a row pinned or edited a moment ago, or a policy
            # changed, is judged as it is now.
            if lifecycle.delete_refusal(confirmed=confirmed):
                break
            ids = list(
                candidates(now).filter(pk__gt=last_id).order_by("pk").values_list("pk", flat=True)[: batches.size]
            )
            if not ids:
                break
            deleted += len(lifecycle.erase(ids, actor=JOB_ACTOR, confirmed=confirmed, note="prune"))
        batches.took(time.monotonic() - started)
        last_id, count = ids[-1], count + 1
    refresh_planner_statistics()
    return PruneResult(
        policy=current.policy,
        expired=current.expired,
        superseded=current.superseded,
        deleted=deleted,
        awaiting_confirmation=0,
        would_delete=0,
        batches=count,
        longest_batch_seconds=round(batches.longest, 3),
    )


# SQLite's ANALYZE reads this many index entries per index at most: a sample, so refreshing the
# statistics of a 100k store takes ~30 ms and holds the write lock no longer.
ANALYSIS_LIMIT = 1000


def refresh_planner_statistics():
    """Tell SQLite's query planner how large the tables and how selective the indexes are now
    (``ANALYZE``, sampled): ``sqlite_stat1`` only. Run after every prune, which changes the tables most.
    PostgreSQL's autovacuum does this by itself.

    The sample also keeps ``sqlite_stat4`` empty, and that matters as much. This SQLite is built with
    STAT4: while an index has stat4 samples, every statement comparing one of its columns to a bound
    value is compiled again each time it runs with a new value (SQLite checks whether the value changes
    the best plan), which cost a proposal's two duplicate lookups ~85 and ~130 µs more than the lookup
    itself. A full ``ANALYZE`` (run by hand, say) writes such samples; this one removes them."""
    if connection.vendor != "sqlite":
        return
    with connection.cursor() as cursor:
        cursor.execute(f"PRAGMA analysis_limit = {ANALYSIS_LIMIT}")
        cursor.execute("ANALYZE")
