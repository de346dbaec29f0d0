"""What a prompt is made of: lines with their age, their size in tokens, and the core tier.

The core tier (SPEC §4) is the approved core-layer memories, always injected, within the core budget.
``pack_core`` is the one rule that says which of them fit: retrieval builds the prompt with it, and the
doctor, rebalance and the dashboard report and fix the tier with it, so what they call overflow is what
the prompt leaves out. The order is ``CORE_ORDER`` (pinned first, then the most confident, then the most
recently confirmed), and the tier is taken in that order until a memory does not fit: that one and every
one after it overflow. A request sees the tier through governance (its user, project, session), which
only ever leaves memories out, so a memory that fits for the whole store fits for every request.
"""

import math
from dataclasses import dataclass

from django.conf import settings as django_settings
from django.utils import timezone

from memories.models import Governance, Layer, Memory

CORE_ORDER = ("-pinned", "-confidence", "-confirmed_at", "-id")
# The shortest line a memory can make ("- x (confirmed 2026-05-02)"): no more than budget / this many
# memories ever fit, so a prompt reads that many core rows and one more, however large the tier.
_SHORTEST_LINE_TOKENS = 7


def prompt_tokens(text):
    """An estimate of the model's tokens without a tokenizer download: about four characters per token.

    It errs on the high side for Vietnamese and English prose, so a budget estimated here is not exceeded
    by the model's own tokenizer by much.
    """
    return math.ceil(len(text) / 4) if text else 0


def line(text, confirmed_at, zone=None):
    """``- Prefers pnpm (confirmed 2026-05-02)``: the age lets the model say "as of May"."""
    text = text.removesuffix(".")
    day = confirmed_at.astimezone(zone or timezone.get_current_timezone()).date().isoformat()
    return f"- {text} (confirmed {day})"


def line_tokens(text_line):
    """What one line costs in a prompt, its line break included."""
    return prompt_tokens(text_line + "\n")


def reachable(queryset, policy):
    """What some request may see of ``queryset`` under the governance ``policy``: ``governed`` never
    injects a memory below the confidence floor, whoever asks."""
    if policy == Governance.FULL:
        return queryset
    return queryset.filter(confidence__gte=django_settings.BESTIE_CONFIDENCE_FLOOR)


def core_rows(queryset, budget, fields):
    """The core-layer rows of ``queryset`` that ``pack_core`` can look at, in ``CORE_ORDER``, as dicts of
    ``fields``: enough to fill ``budget`` and to see the first that overflows."""
    return list(
        queryset.filter(layer=Layer.CORE).order_by(*CORE_ORDER).values(*fields)[: budget // _SHORTEST_LINE_TOKENS + 1]
    )


@dataclass(frozen=True)
class CoreTier:
    fits: tuple  # what goes into the prompt, in order
    overflow: tuple  # what does not fit, in order
    tokens: int  # what ``fits`` takes


def pack_core(items, budget, tokens_of):
    """Split ``items`` (in ``CORE_ORDER``) into what fits ``budget`` and what overflows; ``tokens_of(item)``
    is an item's size in the prompt."""
    fits, overflow, used = [], [], 0
    for item in items:
        cost = tokens_of(item)
        if not overflow and used + cost <= budget:
            fits.append(item)
            used += cost
        else:
            overflow.append(item)
    return CoreTier(fits=tuple(fits), overflow=tuple(overflow), tokens=used)


@dataclass(frozen=True)
class CoreReport:
    """The whole core tier as every request may see it, packed as a prompt packs it."""

    memories: int
    tokens: int  # what the whole tier would take
    budget_tokens: int
    pinned: list  # ids
    fits: list  # ids, in order
    overflow: list  # ids, in order

    @property
    def over_budget(self):
        return bool(self.overflow)


def core_report(memory_settings, now=None):
    """The injectable core tier of the whole store, in ``CORE_ORDER``, packed into the core budget."""
    now = now or timezone.now()
    tier = reachable(Memory.objects.injectable(now), memory_settings.governance_policy).filter(layer=Layer.CORE)
    rows = [
        (memory_id, pinned, line_tokens(line(text, confirmed_at)))
        for memory_id, text, pinned, confirmed_at in tier.order_by(*CORE_ORDER)
        .values_list("pk", "text", "pinned", "confirmed_at")
        .iterator(chunk_size=5000)
    ]
    budget = memory_settings.core_budget_tokens
    packed = pack_core(rows, budget, tokens_of=lambda row: row[2])
    return CoreReport(
        memories=len(rows),
        tokens=sum(row[2] for row in rows),
        budget_tokens=budget,
        pinned=[row[0] for row in rows if row[1]],
        fits=[row[0] for row in packed.fits],
        overflow=[row[0] for row in packed.overflow],
    )
