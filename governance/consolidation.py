"""Consolidation (SPEC §5): merge a duplicate group into one clearer memory, or resolve a contradiction
by choosing the memory that stays.

Both go through the write path: the merged memory is added with ``lifecycle.add`` (so pause, the write
policy and the secret filter apply), each member is replaced with ``lifecycle.supersede`` (each with
its ``supersede`` event) and the merge itself is one ``merge`` event on the new memory naming its
members. A pinned memory is never merged or resolved away unless the owner says so
(``include_pinned``).
"""

import json
import logging
import urllib.error
import urllib.request
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from memories import lifecycle
from memories.language.meaning import meaning
from memories.lifecycle import InvalidValue, LifecycleError, Refused
from memories.models import AuditEvent, Layer, Memory, SourceKind, Status, state_label

log = logging.getLogger(__name__)
DRAFTER_PROMPT = (
    "These notes about one person say the same thing. Write one clear sentence that keeps every detail "
    "they agree on, in the language most of them use. Answer with the sentence only."
)
# The layer a merged memory lands in: the highest of its members'.
_LAYER_RANK = {Layer.ARCHIVE: 0, Layer.WORKING: 1, Layer.CORE: 2}


@dataclass(frozen=True)
class Draft:
    text: str
    base_id: int  # the member the text comes from
    member_ids: tuple
    pinned_ids: tuple
    drafter: str = "most specific member"  # or the model that wrote it


@dataclass(frozen=True)
class Merged:
    memory_id: int
    text: str
    member_ids: tuple


@dataclass(frozen=True)
class Resolved:
    winner_id: int
    loser_ids: tuple


def _members(ids, *, for_update=False):
    wanted = lifecycle.clean_ids(ids)
    queryset = Memory.objects.select_for_update() if for_update else Memory.objects
    found = queryset.in_bulk(wanted)
    missing = [i for i in wanted if i not in found]
    if missing:
        raise lifecycle.NotFound(lifecycle.no_memory(missing))
    members = [found[i] for i in wanted]
    not_live = [f"{m.pk} ({state_label(m.state())})" for m in members if not m.is_live()]
    if not_live:
        raise LifecycleError(
            _("only live memories can be consolidated; not live: memory %(ids)s") % {"ids": ", ".join(not_live)}
        )
    users = {m.user for m in members}
    if len(users) > 1:
        raise InvalidValue(
            "id",
            _("these memories belong to different users (%(users)s)")
            % {
                "users": ", ".join(sorted(map(repr, users))),
            },
        )
    return members


def _specificity(memory):
    """The most specific member says the most: the most content words, then the longest text, then the newest."""
    content = meaning(memory.text, memory.subject, memory.kind).content
    return (len(content), len(memory.text), memory.confirmed_at, memory.pk)


def llm_draft(texts):
    """One merged sentence from the OpenAI-compatible endpoint at ``BESTIE_MERGE_DRAFTER_URL``, or None
    when it is not set, fails or answers nothing usable (the deterministic draft is used instead)."""
    url = settings.BESTIE_MERGE_DRAFTER_URL
    if not url:
        return None
    body = {
        "model": settings.BESTIE_MERGE_DRAFTER_MODEL,
        "messages": [
            {"role": "system", "content": DRAFTER_PROMPT},
            {"role": "user", "content": "\n".join(f"- {text}" for text in texts)},
        ],
        "temperature": 0,
    }
    headers = {"Content-Type": "application/json"}
    if settings.BESTIE_MERGE_DRAFTER_API_KEY:
        headers["Authorization"] = f"Bearer {settings.BESTIE_MERGE_DRAFTER_API_KEY}"
    request = urllib.request.Request(
        f"{url}/chat/completions", data=json.dumps(body).encode(), headers=headers, method="POST"
    )
    try:
        with urllib.request.urlopen(request, timeout=settings.BESTIE_MERGE_DRAFTER_TIMEOUT_SECONDS) as response:
            answer = json.loads(response.read())
        text = " ".join(answer["choices"][0]["message"]["content"].split())
    except (urllib.error.URLError, TimeoutError, ValueError, KeyError, IndexError, TypeError) as error:
        log.warning("merge drafter failed, using the most specific member: %s", type(error).__name__)
        return None
    return text or None


def draft(ids, *, drafter=True):
    """The proposed text of a merge (the owner edits it): the drafter's when one is configured and
    answers (and ``drafter``), else the most specific member's, word for word."""
    members = _members(ids)
    if len(members) < 2:
        raise InvalidValue("id", _("a merge needs at least two memories"))
    base = max(members, key=_specificity)
    drafted = llm_draft([m.text for m in members]) if drafter else None
    return Draft(
        text=drafted or base.text,
        base_id=base.pk,
        member_ids=tuple(m.pk for m in members),
        pinned_ids=tuple(m.pk for m in members if m.pinned),
        drafter=settings.BESTIE_MERGE_DRAFTER_MODEL if drafted else "most specific member",
    )


def _refuse_pinned(members, include_pinned, what):
    pinned = [str(m.pk) for m in members if m.pinned]
    if pinned and not include_pinned:
        raise Refused(
            _(
                "memory %(ids)s is pinned and would be %(what)s; say so explicitly to include it "
                "(--include-pinned, or tick it in the console)"
            )
            % {"ids": ", ".join(pinned), "what": what}
        )


def merge(ids, *, actor, text=None, include_pinned=False):
    """Replace the memories ``ids`` (two or more, live, one user's) by one new approved memory with
    ``text`` (the draft's when not given). Returns what was merged."""
    if text is None:
        # Drafted before the rows are locked: the drafter may take seconds.
        text = draft(ids).text
    with transaction.atomic():
        members = _members(ids, for_update=True)
        if len(members) < 2:
            raise InvalidValue("id", "a merge needs at least two memories")
        _refuse_pinned(members, include_pinned, "merged away")
        base = max(members, key=_specificity)
        text = lifecycle.clean_text(text)
        member_ids = tuple(m.pk for m in members)
        merged = lifecycle.add(
            text=text,
            kind=base.kind,
            subject=base.subject,
            scope=base.scope,
            user=base.user,
            channel=base.channel,
            project=base.project,
            layer=max((m.layer for m in members), key=_LAYER_RANK.__getitem__),
            pinned=any(m.pinned for m in members),
            confidence=max(m.confidence for m in members),
            source=_merge_source(member_ids),
            source_kind=SourceKind.CONSOLIDATION,
            status=Status.APPROVED,
            actor=actor,
        )
        for member in members:
            lifecycle.supersede(member.pk, merged.pk, actor=actor)
        lifecycle.record(
            AuditEvent.Event.MERGE,
            merged.pk,
            actor,
            new={"members": list(member_ids), "text": text},
            note=f"merged from {len(member_ids)} memories",
        )
    return Merged(memory_id=merged.pk, text=text, member_ids=member_ids)


def _merge_source(member_ids):
    """The merged memory's source: its members' ids, or, when they are too many for a source, how many they
    are and the first and last (the merge event in the history names every one)."""
    listed = f"merge of memories {', '.join(f'#{i}' for i in member_ids)}"
    if len(listed) <= lifecycle.MAX_TEXT_LENGTH:
        return listed
    return f"merge of {len(member_ids)} memories, #{member_ids[0]} … #{member_ids[-1]} (all in its history)"


def newest(memories):
    """Of contradicting memories, the one to keep by default: the most recently confirmed."""
    return max(memories, key=lambda m: (m.confirmed_at, m.created_at, m.pk))


def suggest_winner(ids):
    return newest(_members(ids)).pk


def resolve(winner_id, loser_ids, *, actor, include_pinned=False):
    """The owner chose ``winner_id``: each of ``loser_ids`` is superseded by it."""
    with transaction.atomic():
        members = _members([winner_id, *loser_ids], for_update=True)
        winner, losers = members[0], members[1:]
        if not losers:
            raise InvalidValue("loser", _("name at least one memory, other than the winner, to resolve against it"))
        _refuse_pinned(losers, include_pinned, "superseded")
        for loser in losers:
            lifecycle.supersede(loser.pk, winner.pk, actor=actor)
    return Resolved(winner_id=winner.pk, loser_ids=tuple(m.pk for m in losers))
