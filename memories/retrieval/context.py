"""What Bestie sees for a request: scored, explainable, token-budgeted memory context (SPEC §4).

``build_context`` is the one function behind the agent API (``POST /api/v1/context``), the command line
(``bestie memory context``), the console's retrieval preview and an assistant running in-process.

Each candidate gets one score, the sum of named contributions (``Item.signals``)::

    score = relevance  × query relevance (0..1, BM25 from the relevance backend)
          + semantic   × closeness in meaning (0..1, with embeddings on: ``memories.vectors.nearest``)
          − person     × (the two above) when the memory is about someone other than the request asks
                         about (``memories.language.people``: "my blood type" is not the wife's)
          + context    × match on the request's user/channel/project (1 same, ½ applies everywhere, 0 other)
          + recency    × ½ ** (days since confirmed_at / RECENCY_HALF_LIFE_DAYS)
          + access     × log(1 + access_count) / log(1 + ACCESS_SATURATION), at most 1
          + confidence × confidence
          + pinned     × (1 if pinned)

The prompt is the approved core tier (``prompt.pack_core``: pinned first, then the most confident and
recently confirmed, within the core budget), then the working memories relevant to the query, best
first, within the working budget and the limit. Only
``Memory.objects.injectable()`` rows are ever considered: never the archive, stale, pending, rejected,
superseded, expired or soft-deleted ones.
"""

import math
from dataclasses import dataclass, field, replace
from datetime import datetime

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy

from memories import vectors
from memories.language import embeddings, people
from memories.lifecycle import InvalidValue, clean_characters, count_use
from memories.models import Governance, Layer, Memory, MemorySettings, Scope
from memories.retrieval import relevance
from memories.retrieval.prompt import core_rows, line, line_tokens, pack_core, reachable
from memories.times import iso


@dataclass(frozen=True)
class Weights:
    """How much each signal can add to a score. Relevance (the words) and, with embeddings on, semantic
    (the meaning) dominate: the others together add at most 0.35, so they reorder memories of similar
    relevance but cannot lift one that matches little of the query above one that matches all of it,
    and a memory matching nothing, in words or meaning, is never a working candidate. Meaning weighs
    1.5 because its scale saturates early (``CLOSENESS_FULL``); tuned on LoCoMo's dev conversations."""

    relevance: float = 1.0
    semantic: float = 1.5
    person: float = 0.5
    context: float = 0.1
    recency: float = 0.05
    access: float = 0.05
    confidence: float = 0.05
    pinned: float = 0.1


WEIGHTS = Weights()
# What each signal measures and why a near-miss was left out, in the owner's words (the preview); the API
# keeps the names.
SIGNAL_LABELS = {
    "relevance": gettext_lazy("words of the request"),
    "semantic": gettext_lazy("meaning"),
    "person": gettext_lazy("about someone else"),
    "context": gettext_lazy("same user, project or session"),
    "recency": gettext_lazy("recently confirmed"),
    "access": gettext_lazy("often used"),
    "confidence": gettext_lazy("confidence"),
    "pinned": gettext_lazy("pinned"),
}
LEFT_OUT_LABELS = {
    "core budget": gettext_lazy("the core budget is full"),
    "score": gettext_lazy("its score is too low"),
    "match": gettext_lazy("it matches too little of the request"),
    "limit": gettext_lazy("past the most working memories asked for"),
    "budget": gettext_lazy("the working budget is full"),
}
RECENCY_HALF_LIFE_DAYS = 90
ACCESS_SATURATION = 100
# A working memory scoring below this is a near-miss ("score"), not part of the prompt.
MIN_SCORE = 0.3
# Nor is one whose words and meaning (relevance and semantic) make less than this of its score ("match"):
# the other signals reorder memories, they do not lift one sharing a word of a question into the prompt.
# On LoCoMo's questions asked of another owner's store, it halves what is injected for nothing (0.2 kept
# recall@5 of the hybrid context; 0.3 cost the lexical one 0.03): docs/benchmarks.md.
MIN_MATCH = 0.2
# How many working candidates the relevance backend returns.
CANDIDATES = 50
NEAR_MISSES = 5
# Closeness in meaning (standard deviations above what the query has with the memories and the fixed
# sentences of the memory's language: ``vectors.nearest``) from which a memory starts to count as
# relevant, and at which it counts fully.
CLOSENESS_FROM = 2.0
CLOSENESS_FULL = 6.0
MAX_QUERY_LENGTH = 2000

FIELDS = (
    "id",
    "text",
    "layer",
    "scope",
    "user",
    "channel",
    "project",
    "pinned",
    "confidence",
    "confirmed_at",
    "access_count",
)


@dataclass(frozen=True)
class Item:
    """A memory as retrieval saw it: its score, each signal's part of it, and why it was left out
    (``reason`` is empty for a memory in the prompt)."""

    id: int
    text: str
    layer: str
    score: float
    signals: dict
    confirmed_at: datetime
    line: str
    tokens: int
    pinned: bool = False
    reason: str = ""


@dataclass(frozen=True)
class Context:
    prompt: str
    items: tuple
    near_misses: tuple
    tokens: int
    paused: bool
    governance: str
    budgets: dict = field(default_factory=dict)
    # "on" when meaning was used, "off" when embeddings are off, else why they could not be used.
    meaning: str = "off"


def _positive(name, value):
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise InvalidValue(name, f"must be a positive whole number, not {value!r}")
    return value


def _clean_query(query):
    query = clean_characters("query", query)
    if not query.strip():
        raise InvalidValue("query", "must not be empty")
    if len(query) > MAX_QUERY_LENGTH:
        raise InvalidValue("query", f"is {len(query)} characters long; the limit is {MAX_QUERY_LENGTH}")
    return query


def _label(name, value):
    return clean_characters(name, value).strip()


def governed(queryset, policy, *, user, channel, project):
    """SPEC §4: ``governed`` keeps the memories of this user (or of no one in particular) that apply
    everywhere, to this project or to this session (channel), at or above the confidence floor;
    ``full`` keeps every injectable memory."""
    if policy == Governance.FULL:
        return queryset
    place = Q(scope=Scope.CORE)
    if project:
        place |= Q(scope=Scope.PROJECT, project=project)
    if channel:
        place |= Q(scope=Scope.SESSION, channel=channel)
    return reachable(queryset, policy).filter(place, user__in={user, ""})


def _context_match(row, request):
    wanted = [(name, value) for name, value in request.items() if value]
    if not wanted:
        return 0.0
    match = sum(1.0 if row[name] == value else 0.5 if not row[name] else 0.0 for name, value in wanted)
    return match / len(wanted)


def _match(relevance_value, semantic_value, weights):
    """What a memory's words and meaning give its score: the part ``MIN_MATCH`` asks for and ``person`` takes
    half of."""
    return weights.relevance * relevance_value + weights.semantic * semantic_value


def _signals(row, relevance_value, request, now, weights, semantic_value=None, someone_else=False):
    age_days = max(0.0, (now - row["confirmed_at"]).total_seconds() / 86400)
    access = min(1.0, math.log1p(row["access_count"]) / math.log1p(ACCESS_SATURATION))
    match = _match(relevance_value, semantic_value or 0.0, weights)
    parts = {
        "relevance": weights.relevance * relevance_value,
        **({} if semantic_value is None else {"semantic": weights.semantic * semantic_value}),
        **({"person": -weights.person * match} if someone_else else {}),
        "context": weights.context * _context_match(row, request),
        "recency": weights.recency * 0.5 ** (age_days / RECENCY_HALF_LIFE_DAYS),
        "access": weights.access * access,
        "confidence": weights.confidence * row["confidence"],
        "pinned": weights.pinned * row["pinned"],
    }
    # Rounded so that both databases (and their float and time precision) give the same order.
    return {name: round(value, 4) for name, value in parts.items()}


def _item(row, signals, zone):
    text_line = line(row["text"], row["confirmed_at"], zone)
    return Item(
        id=row["id"],
        text=row["text"],
        layer=row["layer"],
        score=round(sum(signals.values()), 4),
        signals=signals,
        confirmed_at=row["confirmed_at"],
        line=text_line,
        tokens=line_tokens(text_line),
        pinned=row["pinned"],
    )


def _left_out(item, reason):
    return replace(item, reason=reason)


def _request(user, channel, project):
    return {"user": _label("user", user), "channel": _label("channel", channel), "project": _label("project", project)}


def _allowed(policy, request, users, now):
    allowed = governed(Memory.objects.injectable(now), policy, **request)
    return allowed if users is None else allowed.filter(user__in=[*users, ""])


def _core_tier(allowed, budget, zone):
    return pack_core(
        core_rows(allowed, budget, FIELDS),
        budget,
        tokens_of=lambda row: line_tokens(line(row["text"], row["confirmed_at"], zone)),
    )


def build_context(
    query,
    *,
    user="",
    channel="",
    project="",
    budget_tokens=None,
    limit=None,
    now=None,
    record_access=True,
    users=None,
):
    """The memory context for one request. ``budget_tokens`` replaces the working budget for this
    request, ``limit`` caps how many working memories it gets. ``record_access`` counts the injected
    memories as used (one UPDATE); previews pass False. ``users``, when given, are the only users whose
    memories may be seen (with those of no one in particular), whatever the governance policy: an agent's
    token bound to them. Bad input raises ``InvalidValue``."""
    query = _clean_query(query)
    request = _request(user, channel, project)
    budget_tokens = _positive("budget_tokens", budget_tokens)
    limit = _positive("limit", limit)
    now = now or timezone.now()
    memory_settings = MemorySettings.load()
    policy = memory_settings.governance_policy
    budgets = {
        "core": memory_settings.core_budget_tokens,
        "working": budget_tokens or memory_settings.working_budget_tokens,
    }
    if memory_settings.paused:
        return Context(prompt="", items=(), near_misses=(), tokens=0, paused=True, governance=policy, budgets=budgets)

    allowed = _allowed(policy, request, users, now)
    vector = vectors.query_vector_soon(query)
    relevant = dict(relevance.backend().candidates(allowed, query, CANDIDATES))
    close, meaning = semantic_candidates(allowed, query, CANDIDATES, vector)
    zone = timezone.get_current_timezone()
    tier = _core_tier(allowed, budgets["core"], zone)
    # Both drew their candidates from ``allowed``: reading them back needs only their ids.
    working_rows = list(Memory.objects.filter(pk__in=[*relevant, *(close or ())], layer=Layer.WORKING).values(*FIELDS))
    # The best candidates by words and meaning, those that may be in the prompt (``MIN_MATCH``), are read for
    # whom they are about: one about someone else than the query asks about then ranks lower.
    match = {
        row["id"]: _match(relevant.get(row["id"], 0.0), (close or {}).get(row["id"], 0.0), WEIGHTS)
        for row in working_rows
    }
    texts = {row["id"]: row["text"] for row in working_rows}
    matching = {pk: texts[pk] for pk in sorted(match, key=lambda pk: (-match[pk], pk)) if match[pk] >= MIN_MATCH}
    others = relevance.about_someone_else(allowed, people.asked_about(query), matching)

    def scored(rows):
        return [
            _item(
                row,
                _signals(
                    row,
                    relevant.get(row["id"], 0.0),
                    request,
                    now,
                    WEIGHTS,
                    None if close is None else close.get(row["id"], 0.0),
                    row["id"] in others,
                ),
                zone,
            )
            for row in rows
        ]

    chosen = scored(tier.fits)
    core_tokens = tier.tokens
    core_misses = [_left_out(item, "core budget") for item in scored(tier.overflow[:NEAR_MISSES])]
    working_misses = []
    working_tokens, working_count = 0, 0
    for item in sorted(scored(working_rows), key=lambda item: (-item.score, item.id)):
        if item.score < MIN_SCORE:
            working_misses.append(_left_out(item, "score"))
        elif item.signals["relevance"] + item.signals.get("semantic", 0.0) < MIN_MATCH:
            working_misses.append(_left_out(item, "match"))
        elif limit is not None and working_count >= limit:
            working_misses.append(_left_out(item, "limit"))
        elif working_tokens + item.tokens > budgets["working"]:
            working_misses.append(_left_out(item, "budget"))
        else:
            chosen.append(item)
            working_tokens += item.tokens
            working_count += 1

    if record_access:
        count_use([item.id for item in chosen], now)
    return Context(
        prompt="\n".join(item.line for item in chosen),
        items=tuple(chosen),
        near_misses=tuple(core_misses + working_misses[:NEAR_MISSES]),
        tokens=core_tokens + working_tokens,
        paused=False,
        governance=policy,
        budgets=budgets,
        meaning=meaning,
    )


def semantic_value(closeness):
    """A memory's closeness in meaning to the query as a relevance from 0 to 1."""
    return max(0.0, min(1.0, (closeness - CLOSENESS_FROM) / (CLOSENESS_FULL - CLOSENESS_FROM)))


def semantic_candidates(allowed, query, limit, vector=None):
    """``({id: semantic relevance}, "on")`` for the memories of ``allowed`` closest in meaning to the query;
    ``(None, "off")`` with embeddings off, and ``(None, why)`` when the model cannot be used: retrieval
    then goes on with words alone. ``vector``: the query's embedding on its way (``query_vector_soon``)."""
    try:
        found = vectors.nearest(query, allowed, limit, vector=vector)
    except embeddings.Unavailable as error:
        return None, str(error)
    if found is None:
        return None, "off"
    close = {memory_id: semantic_value(value) for memory_id, value in found.closeness.items()}
    return {memory_id: value for memory_id, value in close.items() if value > 0}, "on"


@dataclass(frozen=True)
class CoreProfile:
    """The core tier as a request of one user, channel and project gets it, whatever its query: the lines
    every prompt of theirs starts with."""

    prompt: str
    memories: tuple  # ``Item``s, in prompt order
    tokens: int
    budget_tokens: int
    over_budget: bool  # some core memory this request may see does not fit the budget
    paused: bool


def core_profile(*, user="", channel="", project="", users=None, now=None):
    """What ``build_context`` puts first in every prompt of this request, whatever it asks (``users`` as
    there). Nothing counts as used: the profile is what will be injected, not an injection."""
    request = _request(user, channel, project)
    now = now or timezone.now()
    memory_settings = MemorySettings.load()
    budget = memory_settings.core_budget_tokens
    if memory_settings.paused:
        return CoreProfile(prompt="", memories=(), tokens=0, budget_tokens=budget, over_budget=False, paused=True)
    zone = timezone.get_current_timezone()
    tier = _core_tier(_allowed(memory_settings.governance_policy, request, users, now), budget, zone)
    items = tuple(_item(row, _signals(row, 0.0, request, now, WEIGHTS), zone) for row in tier.fits)
    return CoreProfile(
        prompt="\n".join(item.line for item in items),
        memories=items,
        tokens=tier.tokens,
        budget_tokens=budget,
        over_budget=bool(tier.overflow),
        paused=False,
    )


def as_json(context):
    """SPEC §9's answer: ``{"prompt", "items": [...], "tokens", "paused"}``, plus the near-misses."""

    def item_json(item):
        value = {
            "id": item.id,
            "text": item.text,
            "layer": item.layer,
            "score": item.score,
            "signals": item.signals,
            "confirmed_at": iso(item.confirmed_at),
        }
        if item.reason:
            value["reason"] = item.reason
        return value

    return {
        "prompt": context.prompt,
        "items": [item_json(item) for item in context.items],
        "tokens": context.tokens,
        "paused": context.paused,
        "governance": context.governance,
        "meaning": context.meaning,
        "near_misses": [item_json(item) for item in context.near_misses],
    }
