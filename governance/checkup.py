"""The doctor's checkup (SPEC §5, §8): the doctor's report, the hygiene score and the cleanup plan,
computed together by the job cluster and kept in the database for the console.

A full analysis takes seconds on a large store (``analyze`` and the plan, about 3 s at 20,000 memories),
too long for a page load, so the console's doctor and cleanup pages only read the newest ``Checkup``
and say how old it is; their Recompute queues ``compute`` for the cluster, and the pages follow the
run's progress until the new checkup is there. A nightly schedule keeps it from getting old. Only the
newest checkup is kept: it holds every finding's ids, which the pages read a page at a time.
"""

from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from governance import cleanup, doctor, hygiene
from governance.jobs import recorded
from governance.models import Checkup
from memories import lifecycle
from memories.models import AuditEvent, Memory
from memories.rows import among
from memories.times import json_ready

# What ``compute`` does, in order: its progress names these steps.
STEPS = (*doctor.PARTS, "score", "plan")


@dataclass(frozen=True)
class Computed:
    checkup_id: int
    score: int
    duplicate_groups: int
    conflicts: int
    stale: int
    noise: int
    plan_actions: int


def _last_event_id():
    return AuditEvent.objects.aggregate(last=Max("id"))["last"]


@recorded("doctor", reports_progress=True)
def compute(now=None, *, progress):
    """The job: analyze the store, score it and plan its cleanup; keep the result as the newest
    checkup. ``progress(step, done, total)`` counts the steps of ``STEPS``."""
    now = now or timezone.now()
    # Read before the store is: a change made while the job runs shows the checkup as older than it.
    last_event_id = _last_event_id()
    report = doctor.analyze(now=now, progress=lambda step, done, total: progress(step, done, len(STEPS)))
    progress("score", STEPS.index("score"), len(STEPS))
    score = hygiene.score(now, report=report)
    progress("plan", STEPS.index("plan"), len(STEPS))
    plan = cleanup.plan(now, report=report)
    with transaction.atomic():
        row = Checkup.objects.create(
            computed_at=now,
            last_event_id=last_event_id,
            report=json_ready(report.as_dict()),
            score={"score": score.score, "parts": score.parts},
            plan=plan.as_dict(),
        )
        Checkup.objects.filter(computed_at__lt=now).delete()
    return Computed(
        checkup_id=row.pk,
        score=score.score,
        duplicate_groups=len(report.duplicates),
        conflicts=len(report.conflicts),
        stale=len(report.stale),
        noise=len(report.noise),
        plan_actions=len(plan.actions),
    )


@dataclass(frozen=True)
class Latest:
    """The newest checkup as the console shows it."""

    id: int
    computed_at: datetime
    report: doctor.Report | None  # None unless asked for, as the score
    score: dict | None  # {"score": 0..100, "parts": {name: {"value", "weight", "points"}}}
    plan: dict | None  # ``CleanupPlan.as_dict()``: delete_policy, fingerprint, counts, actions
    store_changed: bool  # the history has an event newer than the checkup


def latest(*, report=True, plan=True):
    """The newest checkup, or None before the first one; with its report and score, its plan, or both
    (each holds every finding's ids: megabytes on a large store, read only when a page shows them)."""
    rows = Checkup.objects.order_by("-computed_at", "-id")
    if not report:
        rows = rows.defer("report", "score")
    if not plan:
        rows = rows.defer("plan")
    row = rows.first()
    if row is None:
        return None
    newest = _last_event_id() or 0
    return Latest(
        id=row.pk,
        computed_at=row.computed_at,
        report=doctor.Report(**row.report) if report else None,
        score=row.score if report else None,
        plan=row.plan if plan else None,
        store_changed=newest > (row.last_event_id or 0),
    )


def duplicate_group(checkup_id, number):
    """The members of duplicate group ``number`` (from 1) of checkup ``checkup_id`` that are still live, in
    the report's order. The console names a group this way rather than by its ids: a group of hundreds
    of memories would not fit in a link. Raises ``LifecycleError`` when that checkup has been replaced
    or has no such group."""
    if number < 1:
        raise lifecycle.LifecycleError(_("That report has no duplicate group %(number)s.") % {"number": number})
    # Only that group is read from the report, which holds every finding's ids (megabytes on a large store).
    found = Checkup.objects.filter(pk=checkup_id).values_list(f"report__duplicates__{number - 1}", flat=True)
    if not found:
        raise lifecycle.LifecycleError(_("The doctor has run again since that report: look at the new one."))
    group = found[0]
    if not isinstance(group, list):
        raise lifecycle.LifecycleError(_("That report has no duplicate group %(number)s.") % {"number": number})
    live = set(Memory.objects.live().filter(pk__in=among(group)).values_list("pk", flat=True))
    return [memory_id for memory_id in group if memory_id in live]


def check_apply(*, confirmed, fingerprint):
    """Before the cluster is asked to apply a plan: the delete policy allows it and ``fingerprint`` is
    the newest checkup's plan's. The job checks again against the store as it is then
    (``cleanup.checked_plan``)."""
    lifecycle.check_delete_allowed(confirmed=confirmed)
    current = latest(report=False)
    if current is None or fingerprint != current.plan.get("fingerprint"):
        raise cleanup.plan_changed()
