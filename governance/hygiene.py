"""Store hygiene (SPEC §5): a 0–100 score with its parts, a doctor with safe fixes, and the trend.

The score is the sum of weighted parts, each from 0 (as bad as it gets) to 1 (clean), read from the
doctor's report and the store's counts; ``snapshot`` (the daily job) keeps it for the trend. The safe
fixes change nothing a person decided: they recompute a missing ``text_key``, cut a supersede link that
points at nothing or goes round in a loop (``lifecycle.restore``: the memory becomes current again), and
prune the expired backlog as the delete policy allows.
"""

from dataclasses import dataclass, field
from datetime import timedelta

from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.translation import gettext_lazy

from governance import doctor, prune
from governance.jobs import recorded
from governance.models import HygieneSnapshot
from memories import lifecycle, reports
from memories.models import Memory, MemorySettings

# How much each part can give, out of 100.
WEIGHTS = {
    "live_share": 20,  # live rows among all rows: the gap prune and cleanup close
    "duplicates": 20,  # extra copies among live memories
    "stale": 15,  # live memories not confirmed within the drift age
    "expired_backlog": 10,  # expired rows not pruned, against a tenth of the store
    "conflicts": 10,  # live memories in a contradiction
    "pending_age": 5,  # the oldest proposal against PENDING_AGE_LIMIT_DAYS
    "noise": 5,
    "core_budget": 5,  # the budget against what the core tier would take
    "metadata": 5,
    "chains": 5,  # no broken supersede chain at all
}
# Each part as the doctor page names it.
PART_LABELS = {
    "live_share": gettext_lazy("Live memories among all rows"),
    "duplicates": gettext_lazy("No duplicates"),
    "stale": gettext_lazy("Recently confirmed"),
    "expired_backlog": gettext_lazy("Expired rows pruned"),
    "conflicts": gettext_lazy("No contradictions"),
    "pending_age": gettext_lazy("Proposals not left waiting"),
    "noise": gettext_lazy("No low-value noise"),
    "core_budget": gettext_lazy("Core profile within its budget"),
    "metadata": gettext_lazy("Metadata complete"),
    "chains": gettext_lazy("Supersede chains intact"),
}
PENDING_AGE_LIMIT_DAYS = 30
ACTOR = "system:hygiene"


@dataclass(frozen=True)
class Score:
    score: int
    parts: dict  # name -> {"value": 0..1, "weight": points, "points": earned}
    counts: dict
    oldest_pending_at: object  # datetime or None
    pending_age_days: float
    report: doctor.Report = field(repr=False)

    @property
    def expired_backlog(self):
        return self.counts["expired"]


def _share(part, whole):
    return min(1.0, part / whole) if whole else 0.0


def score(now=None, report=None):
    now = now or timezone.now()
    report = report or doctor.analyze(now=now)
    counts = reports.counts(now)
    total, live = counts["total"], counts["live"]
    oldest_pending = Memory.objects.pending(now).order_by("created_at").values_list("created_at", flat=True).first()
    pending_days = (now - oldest_pending).total_seconds() / 86400 if oldest_pending else 0.0
    core = report.core
    values = {
        "live_share": live / total if total else 1.0,
        "duplicates": 1 - _share(sum(len(group) - 1 for group in report.duplicates), live),
        "stale": 1 - _share(report.details["stale_unconfirmed"], live),
        "expired_backlog": 1 - _share(report.details["stale_expired_backlog"], total * 0.1),
        "conflicts": 1 - _share(len({i for group in report.conflicts for i in group}), live),
        "pending_age": 1 - min(1.0, pending_days / PENDING_AGE_LIMIT_DAYS),
        "noise": 1 - _share(len(report.noise), live),
        "core_budget": min(1.0, core["budget_tokens"] / core["tokens"]) if core["tokens"] else 1.0,
        "metadata": 1 - _share(len(report.missing_metadata), live),
        "chains": 0.0 if report.broken_chains else 1.0,
    }
    parts = {
        name: {"value": round(value, 4), "weight": WEIGHTS[name], "points": round(WEIGHTS[name] * value, 2)}
        for name, value in values.items()
    }
    return Score(
        score=round(sum(WEIGHTS[name] * value for name, value in values.items())),
        parts=parts,
        counts=counts,
        oldest_pending_at=oldest_pending,
        pending_age_days=round(pending_days, 2),
        report=report,
    )


# ---------------------------------------------------------------------------------------------------
# The daily snapshot


@dataclass(frozen=True)
class SnapshotResult:
    snapshot_id: int
    score: int
    counts: dict


@recorded("hygiene")
def snapshot(now=None):
    """The daily job: the score and the counts, kept for the trend."""
    now = now or timezone.now()
    taken = score(now)
    row = HygieneSnapshot.objects.create(
        taken_at=now, counts=taken.counts, oldest_pending_at=taken.oldest_pending_at, score=taken.score
    )
    return SnapshotResult(snapshot_id=row.pk, score=row.score, counts=taken.counts)


# ---------------------------------------------------------------------------------------------------
# Safe fixes


@dataclass(frozen=True)
class Fixes:
    text_keys: int  # memories given their missing text_key
    chains_cut: list  # memories whose broken supersede link was removed
    prune: object  # governance.prune.PruneResult, or None when nothing was expired


def _loop_breaks(ids):
    """In each supersede loop among ``ids``, the link to cut: the one leaving the newest member, so the
    newest version of the fact becomes the current one."""
    links = dict(Memory.objects.filter(pk__in=ids).values_list("pk", "superseded_by_id"))
    created = dict(Memory.objects.filter(pk__in=ids).values_list("pk", "created_at"))
    cuts, seen = [], set()
    for start in links:
        if start in seen:
            continue
        loop, node = [], start
        while node in links and node not in seen:
            seen.add(node)
            loop.append(node)
            node = links[node]
        if node in loop:
            members = loop[loop.index(node) :]
            cuts.append(max(members, key=lambda i: (created[i], i)))
    return cuts


def repair_chains():
    """Cut the links of broken chains; each memory so freed gets a ``restore`` event. Returns the ids."""
    with transaction.atomic():
        dangling = list(
            Memory.objects.filter(superseded_by__isnull=False)
            .exclude(Exists(Memory.objects.filter(pk=OuterRef("superseded_by_id"))))
            .values_list("pk", flat=True)
        )
        broken, _ = doctor.find_broken_chains()
        cuts = sorted(set(dangling) | set(_loop_breaks([i for i in broken if i not in dangling])))
        if not cuts:
            return []
        return lifecycle.restore(cuts, actor=ACTOR, note="hygiene doctor: broken supersede chain")


def fix(*, confirmed=False, now=None):
    """The safe fixes; pruning the backlog follows the delete policy (``ask`` needs ``confirmed``)."""
    now = now or timezone.now()
    keys = lifecycle.fill_text_keys()
    cuts = repair_chains()
    pruned = prune.prune(confirmed=confirmed, now=now) if Memory.objects.expired(now).exists() else None
    return Fixes(text_keys=keys, chains_cut=cuts, prune=pruned)


@dataclass(frozen=True)
class FixPlan:
    """What the safe fixes would do."""

    text_keys: int
    broken_chains: list
    expired_backlog: int
    delete_policy: str


def plan(now=None):
    now = now or timezone.now()
    broken, _ = doctor.find_broken_chains()
    return FixPlan(
        text_keys=Memory.objects.filter(text_key="").count(),
        broken_chains=broken,
        expired_backlog=Memory.objects.expired(now).count(),
        delete_policy=str(MemorySettings.load().delete_policy),
    )


def apply(*, confirmed=False, now=None):
    """``hygiene --apply``: the safe fixes with the backlog pruned, then a snapshot. It deletes, so the
    delete policy decides first: ``deny`` refuses, ``ask`` needs ``confirmed`` (``--yes``)."""
    lifecycle.check_delete_allowed(confirmed=confirmed)
    fixes = fix(confirmed=confirmed, now=now)
    snapshot(now)
    return fixes


# ---------------------------------------------------------------------------------------------------
# Trend


def trend(days=90, now=None):
    """Snapshots of the last ``days`` days, oldest first: ``(taken_at, score)``."""
    now = now or timezone.now()
    return list(
        HygieneSnapshot.objects.filter(taken_at__gte=now - timedelta(days=days))
        .order_by("taken_at", "id")
        .values_list("taken_at", "score")
    )


def chart(points, width=600, height=160, pad=24):
    """An SVG polyline of ``(taken_at, score)`` points, scores 0–100 on the y axis, drawn on the server."""
    if not points:
        return ""
    first, last = points[0][0], points[-1][0]
    span = (last - first).total_seconds() or 1.0
    inner_w, inner_h = width - 2 * pad, height - 2 * pad

    def x(at):
        return pad + inner_w * ((at - first).total_seconds() / span if len(points) > 1 else 0.5)

    def y(value):
        return pad + inner_h * (1 - value / 100)

    line = " ".join(f"{x(at):.1f},{y(value):.1f}" for at, value in points)
    dots = "".join(
        f'<circle cx="{x(at):.1f}" cy="{y(value):.1f}" r="3"><title>{at:%Y-%m-%d}: {value}</title></circle>'
        for at, value in points
    )
    grid = "".join(
        f'<line x1="{pad}" x2="{width - pad}" y1="{y(v):.1f}" y2="{y(v):.1f}" class="grid"/>'
        f'<text x="2" y="{y(v) + 4:.1f}">{v}</text>'
        for v in (0, 50, 100)
    )
    return (
        f'<svg class="trend" viewBox="0 0 {width} {height}" role="img" aria-label="hygiene score over time">'
        f'{grid}<polyline points="{line}" fill="none" stroke="currentColor" stroke-width="2"/>{dots}</svg>'
    )
