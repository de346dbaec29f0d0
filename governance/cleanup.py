"""Cleanup (SPEC §5): consolidate before deleting, as a plan first, applied exactly on request.

The plan's steps, in order, each action with its reason:

1. ``merge`` each duplicate group into one memory (the draft text: its most specific member);
2. ``mark_stale`` live memories neither confirmed within the drift age nor used for ``UNUSED_DAYS``;
3. ``archive`` working memories already marked stale in an earlier cleanup and still unused;
4. ``soft_delete`` low-value noise (the doctor's list);
5. ``hard_delete`` what prune would erase (expired rows, rows superseded long ago).

Pinned memories are in no step. Applying deletes, so the delete policy decides first
(``lifecycle.check_delete_allowed``): ``deny`` refuses the whole apply, ``ask`` needs the owner's
confirmation (``--yes`` or the console's confirm step).
Each step runs in its own transactions; the plan's fingerprint lets the console refuse to apply a plan
that changed after the owner saw it. The console applies a plan through the job cluster (``apply_job``),
which keeps its progress, action by action, on its ``JobRun``.
"""

import hashlib
import json
from dataclasses import dataclass, field

from django.conf import settings
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from governance import consolidation, doctor, prune
from governance.jobs import recorded
from memories import lifecycle
from memories.lifecycle import LifecycleError
from memories.models import UNUSED_DAYS, Layer, Memory, MemorySettings

STEPS = ("merge", "mark_stale", "archive", "soft_delete", "hard_delete")
# Each step as the console names it.
STEP_LABELS = {
    "merge": gettext_lazy("merge"),
    "mark_stale": gettext_lazy("mark stale"),
    "archive": gettext_lazy("archive"),
    "soft_delete": gettext_lazy("soft-delete"),
    "hard_delete": gettext_lazy("erase for good"),
}
# Rows per ``lifecycle.erase`` transaction: a writer waiting for its turn waits for one batch, not all.
ERASE_BATCH = 500


@dataclass(frozen=True)
class Action:
    step: str
    ids: tuple
    reason: str
    text: str = ""  # the merged text, for a merge

    @property
    def step_label(self):
        return STEP_LABELS[self.step]


@dataclass(frozen=True)
class CleanupPlan:
    actions: tuple
    delete_policy: str
    counts: dict = field(default_factory=dict)

    @property
    def fingerprint(self):
        body = json.dumps([(a.step, list(a.ids), a.text) for a in self.actions], ensure_ascii=False)
        return hashlib.sha256(body.encode("utf-8")).hexdigest()[:16]

    def ids(self, step):
        return [i for action in self.actions if action.step == step for i in action.ids]

    def as_dict(self):
        return {
            "delete_policy": self.delete_policy,
            "fingerprint": self.fingerprint,
            "counts": self.counts,
            "actions": [
                {"step": a.step, "ids": list(a.ids), "reason": a.reason, **({"text": a.text} if a.text else {})}
                for a in self.actions
            ],
        }


@dataclass(frozen=True)
class Applied:
    merged: list  # ids of the new memories
    marked_stale: int
    archived: int
    soft_deleted: int
    hard_deleted: int


def plan(now=None, report=None):
    now = now or timezone.now()
    report = report or doctor.analyze(now=now)
    actions = []
    pinned = set(Memory.objects.filter(pinned=True).values_list("pk", flat=True))
    merging = set()
    for group in report.duplicates:
        if pinned.intersection(group):
            continue
        # The deterministic draft: a plan must read the same each time it is made (its fingerprint).
        draft = consolidation.draft(group, drafter=False)
        merging.update(group)
        actions.append(
            Action(
                "merge", tuple(group), _("%(count)s memories say the same thing") % {"count": len(group)}, draft.text
            )
        )
    live = Memory.objects.live(now).filter(pinned=False)
    to_mark = [
        i
        for i in live.due_for_review(now).unused(now).filter(stale=False).order_by("pk").values_list("pk", flat=True)
        if i not in merging
    ]
    if to_mark:
        actions.append(
            Action(
                "mark_stale",
                tuple(to_mark),
                _("not confirmed for %(drift)s days and unused for %(unused)s days")
                % {"drift": settings.BESTIE_DRIFT_AGE_DAYS, "unused": UNUSED_DAYS},
            )
        )
    to_archive = [
        i
        for i in live.unused(now).filter(stale=True, layer=Layer.WORKING).order_by("pk").values_list("pk", flat=True)
        if i not in merging
    ]
    if to_archive:
        actions.append(Action("archive", tuple(to_archive), _("marked stale earlier and still unused")))
    noise = [i for i in report.noise if i not in merging and i not in pinned]
    if noise:
        # The doctor's reasons are its own words, marked for translation there.
        reasons = ", ".join(_(reason) for reason in report.details["noise_reasons"])
        actions.append(Action("soft_delete", tuple(noise), _("low-value noise: %(reasons)s") % {"reasons": reasons}))
    policy = str(MemorySettings.load().delete_policy)
    doomed = list(prune.candidates(now).order_by("pk").values_list("pk", flat=True))
    if doomed:
        actions.append(
            Action(
                "hard_delete",
                tuple(doomed),
                _("expired, or superseded more than %(days)s days ago") % {"days": prune.SUPERSEDED_KEEP_DAYS},
            )
        )
    counts = {step: sum(len(a.ids) for a in actions if a.step == step) for step in STEPS}
    return CleanupPlan(actions=tuple(actions), delete_policy=policy, counts=counts)


def plan_changed():
    """The refusal of a plan that is no longer the one the owner saw."""
    return LifecycleError(_("the store changed since the plan was made; review the new plan; nothing was changed"))


def checked_plan(*, confirmed=False, fingerprint=None, now=None):
    """The plan as it is now, once the delete policy allows applying it and (given the ``fingerprint``
    of the plan the owner saw) it is still that plan."""
    lifecycle.check_delete_allowed(confirmed=confirmed)
    current = plan(now)
    if fingerprint is not None and fingerprint != current.fingerprint:
        raise plan_changed()
    return current


def carry_out(current, *, actor, confirmed, now=None):
    """Make ``current``'s changes, action by action: yields ``(step, done, total)`` after each action,
    then the ``Applied`` summary. ``confirmed``: the owner confirmed the plan (the delete policy is asked
    again by each deletion)."""
    now = now or timezone.now()
    note = "cleanup"
    merged, total = [], len(current.actions)
    done = {step: 0 for step in STEPS}
    for index, action in enumerate(current.actions, 1):
        # Pinned a moment ago: judged as it is now, never cleaned up.
        ids = list(Memory.objects.filter(pk__in=action.ids, pinned=False).values_list("pk", flat=True))
        if action.step == "merge" and len(ids) == len(action.ids):
            merged.append(consolidation.merge(action.ids, actor=actor, text=action.text).memory_id)
        elif action.step == "mark_stale":
            done["mark_stale"] += len(lifecycle.mark_stale(ids, actor=actor, note=note))
        elif action.step == "archive":
            done["archive"] += len(lifecycle.move_layer(ids, Layer.ARCHIVE, actor=actor, note=note))
        elif action.step == "soft_delete":
            done["soft_delete"] += len(lifecycle.soft_delete(ids, actor=actor, confirmed=confirmed, note=note))
        elif action.step == "hard_delete":
            for start in range(0, len(ids), ERASE_BATCH):
                batch = prune.candidates(now).filter(pk__in=ids[start : start + ERASE_BATCH])
                erased = lifecycle.erase(
                    list(batch.values_list("pk", flat=True)), actor=actor, confirmed=confirmed, note=note
                )
                done["hard_delete"] += len(erased)
        yield action.step, index, total
    yield Applied(
        merged=merged,
        marked_stale=done["mark_stale"],
        archived=done["archive"],
        soft_deleted=done["soft_delete"],
        hard_deleted=done["hard_delete"],
    )


def apply(*, actor, confirmed=False, fingerprint=None, now=None, progress=None):
    """Check, then make the plan's changes. ``progress(step, done, total)`` is called after each action."""
    now = now or timezone.now()
    current = checked_plan(confirmed=confirmed, fingerprint=fingerprint, now=now)
    for item in carry_out(current, actor=actor, confirmed=confirmed, now=now):
        if isinstance(item, Applied):
            return item
        if progress:
            progress(*item)


@dataclass(frozen=True)
class AppliedCounts:
    """What an applied plan did, as the job's record keeps it (the merged memories' ids are in the
    history's ``merge`` events)."""

    merged: int  # groups merged
    marked_stale: int
    archived: int
    soft_deleted: int
    hard_deleted: int


@recorded("cleanup", reports_progress=True)
def apply_job(*, actor, confirmed, fingerprint, language, progress):
    """The console's apply, in the job cluster: ``apply`` of the plan with ``fingerprint``, its progress
    (``step``, actions ``done`` of ``total``) kept on the run, a refusal in the owner's ``language``."""
    with translation.override(language):
        applied = apply(actor=actor, confirmed=confirmed, fingerprint=fingerprint, progress=progress)
    return AppliedCounts(
        merged=len(applied.merged),
        marked_stale=applied.marked_stale,
        archived=applied.archived,
        soft_deleted=applied.soft_deleted,
        hard_deleted=applied.hard_deleted,
    )
