"""The core profile (SPEC §4; the first seed's "core profile"): what every prompt starts with, and the
owner's curation of it.

The profile is the approved memories of the ``core`` layer, always injected, whatever the question, within
the core budget (``memories.retrieval.prompt.pack_core`` says which fit). It should hold what the seed puts
there and little else: the language the owner prefers, how to talk to and address them, identity rules and
the lasting decisions that matter most. Every approved memory lands in ``working`` unless it is placed
otherwise, so the profile is curated by hand: ``belongs_to_profile`` is the one rule for what is suggested
for it (on the core profile page, and as "Approve into core" in the pending queue), ``promote`` and
``demote`` move a memory in and out through the write path, and ``approve_into_core`` approves a proposal
straight into it. The owner decides each one; nothing is moved by itself.
"""

from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from memories import lifecycle, retrieval
from memories.language.folding import fold
from memories.lifecycle import LifecycleError, Refused
from memories.models import Layer, Memory, MemorySettings, Scope, state_label
from memories.retrieval.prompt import CORE_ORDER, core_report, line, line_tokens

# Kinds that are the profile whatever their subject: how to talk to the owner, how to address them, who
# they are (SPEC §2's ``communication_preference`` and ``addressing``; the seed's identity rules).
PROFILE_KINDS = frozenset({"communication_preference", "addressing", "identity", "identity_rule"})
# Kinds that are the profile when their subject is one of ``PROFILE_SUBJECTS``: "prefers Vietnamese"
# (``preference:language``) is, "prefers pnpm" (``preference:package_manager``) is not.
PERSONAL_KINDS = frozenset({"preference", "fact"})
# Subjects, folded with their words joined by "_" (so "Reply language" and "ngôn ngữ" count): the
# language of replies, the form of address, the owner's name, the tone of replies.
PROFILE_SUBJECTS = frozenset(
    {
        "language",
        "languages",
        "reply_language",
        "addressing",
        "form_of_address",
        "name",
        "preferred_name",
        "nickname",
        "pronouns",
        "tone",
        "reply_style",
        "reply_length",
        "formality",
        "identity",
        "ngon_ngu",
        "xung_ho",
        "cach_xung_ho",
    }
)
# A decision is the profile once the owner pinned it: the seed's pin is for "facts that matter a great deal,
# settled by the owner", and the profile's lasting decisions are those.
DECISION = "decision"
SUGGESTIONS = 20
# The candidates ``suggestions`` reads first, in the core tier's order.
SUGGESTION_SLICE = 100
# The core layer should hold a handful; a store that let it grow is shown this many, with the count of all.
CORE_SHOWN = 200


def _subject_key(subject):
    return "_".join(fold(subject or "").replace("-", " ").replace("_", " ").split())


def belongs_to_profile(memory):
    """Whether ``memory`` (or a proposal) is of what the core profile holds, and so is suggested for the
    core layer: it applies everywhere (scope ``core``), and it is a kind of ``PROFILE_KINDS``, a preference
    or fact about one of ``PROFILE_SUBJECTS``, or a pinned decision. A suggestion only: the owner decides."""
    if memory.scope != Scope.CORE:
        return False
    if memory.kind in PROFILE_KINDS:
        return True
    if memory.kind in PERSONAL_KINDS:
        return _subject_key(memory.subject) in PROFILE_SUBJECTS
    return memory.kind == DECISION and memory.pinned


def suggestions(limit=SUGGESTIONS, now=None):
    """The injectable working memories that belong to the profile (``belongs_to_profile``), at most
    ``limit``, in the core tier's own order (pinned, most confident, most recently confirmed)."""
    candidates = (
        Memory.objects.injectable(now)
        .filter(layer=Layer.WORKING, scope=Scope.CORE, kind__in=PROFILE_KINDS | PERSONAL_KINDS | {DECISION})
        .order_by(*CORE_ORDER)
    )
    # Read in slices, each twice the one before: the first is usually enough, and the database stops there
    # (PostgreSQL's cursor for a whole read first sorted every candidate, 60-80 ms on a 100k store).
    found, start, size = [], 0, SUGGESTION_SLICE
    while len(found) < limit:
        rows = list(candidates[start : start + size])
        found.extend(memory for memory in rows if belongs_to_profile(memory))
        if len(rows) < size:
            break
        start, size = start + size, size * 2
    return found[:limit]


def promote(memory_id, *, actor):
    """Into the core layer (``lifecycle.move``): from the next prompt on, always injected, if it fits the
    core budget. Only a live memory can be; one already in the core layer is refused."""
    with transaction.atomic():
        memory = lifecycle.get_memory(memory_id, for_update=True)
        if not memory.is_live():
            raise Refused(
                _("memory %(id)s is %(state)s: only a live memory can join the core profile")
                % {"id": memory.pk, "state": state_label(memory.state())}
            )
        if memory.layer == Layer.CORE:
            raise LifecycleError(_("memory %(id)s is already in the core profile") % {"id": memory.pk})
        return lifecycle.move(memory.pk, actor=actor, layer=Layer.CORE)


def demote(memory_id, *, actor):
    """Out of the core layer, back to ``working``: retrieved when relevant, no longer always injected."""
    with transaction.atomic():
        memory = lifecycle.get_memory(memory_id, for_update=True)
        if memory.layer != Layer.CORE:
            raise LifecycleError(_("memory %(id)s is not in the core profile") % {"id": memory.pk})
        return lifecycle.move(memory.pk, actor=actor, layer=Layer.WORKING)


def overflows(memory_id):
    """Whether this core memory is left out of every prompt for want of room in the core budget."""
    return memory_id in core_report(MemorySettings.load()).overflow


def approve_into_core(memory_id, *, actor):
    """Approve a proposal and place it in the core layer, in one transaction: both or neither."""
    with transaction.atomic():
        memory = lifecycle.get_memory(memory_id, for_update=True)
        if memory.layer != Layer.CORE:
            lifecycle.move(memory.pk, actor=actor, layer=Layer.CORE)
        lifecycle.approve([memory.pk], actor=actor)
    return memory


@dataclass(frozen=True)
class CoreMemory:
    """A live memory of the core layer, and whether the request shown gets it (``left_out`` says why not)."""

    memory: Memory
    tokens: int
    left_out: str = ""


@dataclass(frozen=True)
class Curation:
    """The core profile page: what a request of one user, channel and project always gets, every live
    memory of the core layer, and the working memories suggested for it."""

    profile: retrieval.CoreProfile
    core: list  # CoreMemory, in the core tier's order (the first ``CORE_SHOWN``)
    core_count: int  # every live memory of the core layer
    suggestions: list  # CoreMemory of working memories

    @property
    def left_out(self):
        return [item for item in self.core if item.left_out]


def _tokens(memory):
    return line_tokens(line(memory.text, memory.confirmed_at))


def curation(*, user="", channel="", project="", now=None):
    """What the core profile page shows for a request of ``user``, ``channel`` and ``project``."""
    profile = retrieval.core_profile(user=user, channel=channel, project=project, now=now)
    injected = {item.id for item in profile.memories}
    policy = MemorySettings.load().governance_policy
    core = Memory.objects.live(now).filter(layer=Layer.CORE)
    shown = list(core.order_by(*CORE_ORDER)[:CORE_SHOWN])
    for_request = retrieval.governed(
        core.filter(pk__in=[memory.pk for memory in shown], stale=False),
        policy,
        user=user,
        channel=channel,
        project=project,
    )
    reachable = set(for_request.values_list("pk", flat=True))
    items = []
    for memory in shown:
        if profile.paused:
            why = _("memory is paused")
        elif memory.pk in injected:
            why = ""
        elif memory.stale:
            why = _("stale: left out until it is confirmed")
        elif memory.pk not in reachable:
            why = _("not for this request: another user, project or session, or below the confidence floor")
        else:
            why = _("does not fit the core budget")
        items.append(CoreMemory(memory, _tokens(memory), why))
    return Curation(
        profile=profile,
        core=items,
        core_count=len(shown) if len(shown) < CORE_SHOWN else core.count(),
        suggestions=[CoreMemory(memory, _tokens(memory)) for memory in suggestions(now=now)],
    )
