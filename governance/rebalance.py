"""Rebalance (SPEC §5): move memories between layers, as a plan first, applied on request.

- working memories unused for ``UNUSED_DAYS`` go to the archive;
- core memories that do not fit the core budget go to working, lowest in the core tier's order first
  (the overflow of ``memories.retrieval.prompt.pack_core``: what no prompt injects);
- archived memories used often lately (``BACK_ACCESS_COUNT`` uses, the last within ``BACK_RECENT_DAYS``)
  are proposed back to working.

Pinned memories are never moved. Applying is governed by the delete policy, as cleanup is (``deny``
refuses, ``ask`` needs the owner's confirmation).
"""

from dataclasses import dataclass
from datetime import timedelta

from django.utils import timezone

from memories import lifecycle
from memories.models import UNUSED_DAYS, Layer, Memory, MemorySettings
from memories.retrieval.prompt import core_report

BACK_ACCESS_COUNT = 5
BACK_RECENT_DAYS = 30


@dataclass(frozen=True)
class Move:
    ids: tuple
    to_layer: str
    reason: str


@dataclass(frozen=True)
class RebalancePlan:
    moves: tuple

    def as_dict(self):
        return {"moves": [{"to_layer": m.to_layer, "ids": list(m.ids), "reason": m.reason} for m in self.moves]}


def plan(now=None):
    now = now or timezone.now()
    live = Memory.objects.live(now).filter(pinned=False)
    moves = []
    to_archive = tuple(live.unused(now).filter(layer=Layer.WORKING).order_by("pk").values_list("pk", flat=True))
    if to_archive:
        moves.append(Move(to_archive, Layer.ARCHIVE, f"working memory unused for {UNUSED_DAYS} days"))
    pinned = set(Memory.objects.filter(pinned=True).values_list("pk", flat=True))
    # The overflow is in the core tier's order, the best first: the last leave first.
    overflow = tuple(reversed([i for i in core_report(MemorySettings.load(), now).overflow if i not in pinned]))
    if overflow:
        moves.append(Move(overflow, Layer.WORKING, "core tier over its token budget"))
    back = tuple(
        live.filter(
            layer=Layer.ARCHIVE,
            access_count__gte=BACK_ACCESS_COUNT,
            last_accessed_at__gte=now - timedelta(days=BACK_RECENT_DAYS),
        )
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    if back:
        moves.append(Move(back, Layer.WORKING, f"archived but used {BACK_ACCESS_COUNT}+ times lately"))
    return RebalancePlan(moves=tuple(moves))


def apply(*, actor, confirmed=False, now=None):
    """Make the plan's moves. Returns ``{layer: how many moved there}``."""
    lifecycle.check_delete_allowed(confirmed=confirmed)
    moved = {}
    for move in plan(now).moves:
        ids = list(Memory.objects.filter(pk__in=move.ids, pinned=False).values_list("pk", flat=True))
        changed = lifecycle.move_layer(ids, move.to_layer, actor=actor, note="rebalance")
        moved[move.to_layer] = moved.get(move.to_layer, 0) + len(changed)
    return moved
