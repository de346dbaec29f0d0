"""Maintenance jobs (SPEC §6): prune, hygiene snapshot, message retention, backup and digest.

Each job is a plain function doing one unit of work and returning a frozen dataclass of what it did.
``recorded`` keeps a ``JobRun`` of every run (start, end, outcome, the result's counts or the error);
``governance.schedules`` points django-q2 at them.
"""

import functools
import time
from dataclasses import asdict, dataclass
from datetime import timedelta

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from governance import hygiene as store_hygiene
from governance.models import HygieneSnapshot, JobRun
from memories import lifecycle
from memories.models import Memory, MemorySettings, Message, Policy

SUPERSEDED_KEEP_DAYS = 180
JOB_ACTOR = "system:jobs"

# Prune and retention delete in batches whose size adapts so one batch (one write transaction) takes
# about TARGET seconds: a concurrent writer then waits well under a second for its turn, even behind a
# batch three times as slow as the one before it (at 1M rows a 0.5 s target let a writer wait 1.25 s
# once), and a kill loses at most the batch in flight, which rolls back as a whole. Between batches the
# job pauses long enough for the writers waiting meanwhile to take their turn: the app's transactions
# look for the lock every 2 ms (``bestie_site.sqlite_backend``) and each takes a millisecond or two.
BATCH_TARGET_SECONDS = 0.3
BATCH_PAUSE_SECONDS = 0.02
BATCH_MIN, BATCH_START, BATCH_MAX = 20, 200, 5000


def recorded(job):
    """Keep a ``JobRun`` for every call of the decorated job: its result's fields, or its error."""

    def decorate(function):
        @functools.wraps(function)
        def wrapper(*args, **kwargs):
            run = JobRun.objects.create(job=job, started_at=timezone.now())
            try:
                result = function(*args, **kwargs)
            except Exception as error:
                JobRun.objects.filter(pk=run.pk).update(**_ending(error=error))
                raise
            JobRun.objects.filter(pk=run.pk).update(**_ending(result=result))
            return result

        return wrapper

    return decorate


def record_run(job, *, started_at, result=None, error=None):
    """Keep a ``JobRun`` of a run that could not be recorded as it went (a restore replaces the very
    table it would have been written to): its result's fields, or its error."""
    return JobRun.objects.create(job=job, started_at=started_at, **_ending(result=result, error=error))


def _ending(*, result=None, error=None):
    """A run's last fields: when it finished and how, with its result's counts or its error."""
    if error is not None:
        return {"finished_at": timezone.now(), "outcome": JobRun.Outcome.FAILED,
                "error": f"{type(error).__name__}: {error}"}
    return {"finished_at": timezone.now(), "outcome": JobRun.Outcome.OK, "counts": _plain(asdict(result))}


def _plain(value):
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return value


class _Batches:
    """Batch sizes that follow how long the last batch took."""

    def __init__(self):
        self.size = BATCH_START
        self.longest = 0.0

    def took(self, seconds):
        """Record a finished batch, adapt the size of the next one and give waiting writers their turn."""
        self.longest = max(self.longest, seconds)
        time.sleep(BATCH_PAUSE_SECONDS)
        if seconds < BATCH_TARGET_SECONDS / 2:
            self.size = min(self.size * 3 // 2, BATCH_MAX)
        elif seconds > BATCH_TARGET_SECONDS:
            # At once to the size that would have taken the target: a batch can take several times as long
            # as the one before it (the full-text index merging its segments), and a writer waits for it.
            self.size = max(int(self.size * BATCH_TARGET_SECONDS / seconds), BATCH_MIN)


# ---------------------------------------------------------------------------------------------------
# Prune


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


def prune_candidates(now=None):
    """Expired rows and rows superseded more than 180 days ago; pinned ones never, nor a row whose
    erasure would take a pinned older version with it."""
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


def prune_plan(now=None):
    """What prune would erase, without erasing anything."""
    now = now or timezone.now()
    candidates = prune_candidates(now)
    expired = candidates.filter(expires_at__lte=now).count()
    total = candidates.count()
    policy = str(MemorySettings.load().delete_policy)
    return PruneResult(
        policy=policy, expired=expired, superseded=total - expired, deleted=0,
        awaiting_confirmation=total if policy == Policy.ASK else 0, would_delete=total,
    )


@recorded("prune")
def prune(*, confirmed=False, now=None):
    """Erase what ``prune_candidates`` finds, as the delete policy allows: ``allow`` erases, ``ask``
    erases only when the owner confirmed (``bestie memory prune --yes``), ``deny`` never does.

    Erasing goes through ``lifecycle.erase`` (only a hash of each text stays in the history), one
    batch per transaction."""
    now = now or timezone.now()
    plan = prune_plan(now)
    if plan.policy == Policy.DENY or (plan.policy == Policy.ASK and not confirmed):
        return plan
    batches, deleted, last_id, count = _Batches(), 0, 0, 0
    while True:
        started = time.monotonic()
        with transaction.atomic():
            # Chosen inside the write transaction, so a row pinned or edited a moment ago is judged as it is now.
            if MemorySettings.load().delete_policy == Policy.DENY:
                break
            ids = list(
                prune_candidates(now).filter(pk__gt=last_id).order_by("pk").values_list("pk", flat=True)[: batches.size]
            )
            if not ids:
                break
            deleted += len(lifecycle.erase(ids, actor=JOB_ACTOR, note="prune"))
        batches.took(time.monotonic() - started)
        last_id, count = ids[-1], count + 1
    refresh_planner_statistics()
    return PruneResult(
        policy=plan.policy, expired=plan.expired, superseded=plan.superseded, deleted=deleted,
        awaiting_confirmation=0, would_delete=0, batches=count, longest_batch_seconds=round(batches.longest, 3),
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


# ---------------------------------------------------------------------------------------------------
# Hygiene snapshot


@dataclass(frozen=True)
class Hygiene:
    score: int
    counts: dict
    oldest_pending_at: object  # datetime or None
    live_share: float
    expired_backlog: int
    pending_age_days: float


def hygiene(now=None):
    """The store's counts and its hygiene score (``governance.hygiene.score``: the doctor's findings
    and the counts, weighted into 0-100)."""
    now = now or timezone.now()
    current = store_hygiene.score(now)
    counts = current.counts
    total = counts["total"]
    oldest_pending = current.oldest_pending_at
    return Hygiene(
        score=current.score, counts=counts, oldest_pending_at=oldest_pending,
        live_share=round(counts["live"] / total if total else 1.0, 4), expired_backlog=counts["expired"],
        pending_age_days=round((now - oldest_pending).total_seconds() / 86400 if oldest_pending else 0.0, 2),
    )


@dataclass(frozen=True)
class SnapshotResult:
    snapshot_id: int
    score: int
    counts: dict


@recorded("hygiene")
def hygiene_snapshot(now=None):
    now = now or timezone.now()
    current = hygiene(now)
    snapshot = HygieneSnapshot.objects.create(
        taken_at=now, counts=current.counts, oldest_pending_at=current.oldest_pending_at, score=current.score
    )
    return SnapshotResult(snapshot_id=snapshot.pk, score=snapshot.score, counts=current.counts)


# ---------------------------------------------------------------------------------------------------
# Message retention


@dataclass(frozen=True)
class RetentionResult:
    retention_days: int
    deleted: int
    batches: int = 0


@recorded("message_retention")
def message_retention(now=None, days=None):
    """Delete raw messages older than ``BESTIE_MESSAGE_RETENTION_DAYS`` (0 keeps them forever).
    Memories that came from them keep their text and source; only the link goes."""
    days = settings.BESTIE_MESSAGE_RETENTION_DAYS if days is None else days
    if not days:
        return RetentionResult(retention_days=0, deleted=0)
    cutoff = (now or timezone.now()) - timedelta(days=days)
    batches, deleted, count = _Batches(), 0, 0
    while True:
        started = time.monotonic()
        with transaction.atomic():
            ids = list(Message.objects.filter(created_at__lt=cutoff).order_by("pk").values_list("pk", flat=True)[: batches.size])
            if not ids:
                break
            deleted += Message.objects.filter(pk__in=ids).delete()[1].get("memories.Message", 0)
        batches.took(time.monotonic() - started)
        count += 1
    if deleted:
        # Raw messages may hold what the owner wanted gone: out of the WAL too, as forgetting does.
        transaction.on_commit(lifecycle.checkpoint_wal)
    return RetentionResult(retention_days=days, deleted=deleted, batches=count)
