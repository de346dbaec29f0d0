"""The memory doctor (SPEC §5): a read-only report of what needs the owner's attention.

``analyze`` looks at the store once and returns a ``Report``: duplicate groups, contradictions, stale
memories, low-value noise, the core tier against its budget, memories missing metadata and broken
supersede chains. Nothing is changed; consolidation, cleanup and hygiene act on the report.

Duplicates and contradictions are only looked for inside a block of live memories with the same user,
kind, subject and project: memories of different users (or about different things) are never grouped.
Inside a block, memories with the same folded words share one variant; candidate pairs of variants come
from an inverted index of their words, where a word shared by more than ``POSTING_CAP`` variants (like
"prefer" in a block of preferences) proposes no pairs. The work grows with the number of memories, not
with its square.

Two memories of a block say the same thing when they have the same polarity (both or neither negated)
and the content words of one (its words without the frame: "prefer", "always", "answer", the subject's
own words, negations) are all found in the other, a typo allowed in longer words. The seed's "User
prefers Vietnamese.", "User wants Vietnamese-first." and "Always answer in Vietnamese with diacritics."
all hold "vietnamese", so they form one group. They contradict each other when one is the negation of
the other, or when both keep the same frame and each puts one or two words of its own in the same slot:
"prefers pnpm" and "prefers npm", "before 9am" and "before 10am", "thích cà phê" and "không thích cà phê".
"""

import functools
import re
from collections import defaultdict
from dataclasses import asdict, dataclass, field
from datetime import timedelta
from itertools import combinations

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.db.models import Count, Exists, Max, OuterRef, Q
from django.utils import timezone

from memories.duplicates import _FUZZY_MIN_LENGTH, _typo_of, same_memory, words
from memories.models import AuditEvent, Layer, Memory, MemorySettings, Scope
from memories.text import fold
from memories.tokens import count_tokens
from memories.venting import is_venting

MODES = ("duplicates", "stale", "conflicts")
# A word found in more variants of one block than this does not propose candidate pairs.
POSTING_CAP = 40
UNUSED_DAYS = 180
NOISE_MIN_CHARACTERS = 12
NOISE_LOW_CONFIDENCE = 0.5

_NEGATIONS = frozenset(["not", "never", "no", "none", "nobody", "nothing", "cannot", "khong", "chua", "chang"])
# The frame of a memory: verbs of wanting and saying, adverbs of habit and prepositions, in English and
# folded Vietnamese. Changing them does not change which fact a memory states.
_FRAME = frozenset(
    [
        "prefer", "want", "like", "love", "enjoy", "always", "usually", "often", "generally", "please",
        "use", "using", "uses", "used", "answer", "reply", "respond", "speak", "write", "talk", "in",
        "on", "at", "to", "into", "from", "the", "an", "be", "should", "must", "would", "will", "can",
        "could", "i", "me", "my", "it", "them", "their", "they", "he", "she", "his", "her", "we", "our",
        "you", "your", "do", "has", "have", "had", "call", "address", "thich", "muon", "luon", "thuong",
        "hay", "dung", "bang", "cho", "voi", "o", "nen", "can", "hon", "phai", "duoc", "se", "dang",
        "named", "called", "name", "co", "nuoi", "con", "vao", "luc"
    ]
)
# Folded phrases that name the same thing in both languages.
_SYNONYMS = (
    (re.compile(r"\btieng viet\b|\bvietnamese\b"), " vietnamese "),
    (re.compile(r"\btieng anh\b|\benglish\b"), " english "),
    (re.compile(r"\bco dau\b|\bdiacritics?\b"), " diacritic "),
    (re.compile(r"\bca phe\b|\bcoffee\b"), " coffee "),
    (re.compile(r"\bngan gon\b|\bconcise\b|\bbrief\b|\bshort\b"), " concise "),
    (re.compile(r"\btra loi\b"), " answer "),
    (re.compile(r"\bsong o\b"), " live "),
    (re.compile(r"\b(?:con )?meo\b"), " cat "),
    (re.compile(r"\b(?:em|chi) gai\b"), " sister "),
    (re.compile(r"\b(?:anh|em) trai\b"), " brother "),
    (re.compile(r"\bcon gai\b"), " daughter "),
    (re.compile(r"\bcon trai\b"), " son "),
    (re.compile(r"\bbuoi sang\b"), " morning "),
    (re.compile(r"\bbuoi toi\b"), " evening "),
    (re.compile(r"\bsinh nhat\b"), " birthday "),
    (re.compile(r"\blam viec\b"), " work "),
    (re.compile(r"\bban than\b"), " best friend "),
    (re.compile(r"\bsu dung\b"), " use "),
    (re.compile(r"\bghet\b|\bhate[sd]?\b|\bdislike[sd]?\b"), " not like "),
)
# Vietnamese words read before folding, where their accents still tell them apart ("chó" is a dog, "cho"
# means for; "tên" is a name, "ten" a number), into the English word the frame and the synonyms know.
_VIETNAMESE = {
    "đừng": "không", "tên": "named", "chó": "dog", "mẹ": "mother", "bố": "father", "vợ": "wife",
    "chồng": "husband", "trà": "tea", "sống": "live",
}
_VIETNAMESE_WORDS = re.compile(
    r"(?<!\w)(" + "|".join(sorted(map(re.escape, _VIETNAMESE), key=len, reverse=True)) + r")(?!\w)", re.IGNORECASE
)
_ORDINAL = re.compile(r"\b(\d+)(?:st|nd|rd|th)\b")
_CONTRACTION = re.compile(r"n['’]t\b")
_POSSESSIVE = re.compile(r"['’]s\b")
_GENERIC = frozenset(
    fold(text) for text in ("ok", "okay", "thanks", "thank you", "cảm ơn", "ừ", "vâng", "hello", "hi", "lol")
)


@dataclass(frozen=True)
class Variant:
    """The memories of one block whose folded words (and polarity) are equal."""

    ids: tuple
    words: tuple
    content: frozenset
    negated: bool

    @functools.cached_property
    def word_set(self):
        return frozenset(self.words)


@dataclass(frozen=True)
class Report:
    duplicates: list = field(default_factory=list)  # groups of ids, each sorted, the largest first
    conflicts: list = field(default_factory=list)  # groups of ids that contradict each other
    stale: list = field(default_factory=list)
    noise: list = field(default_factory=list)
    core: dict = field(default_factory=dict)
    missing_metadata: list = field(default_factory=list)
    broken_chains: list = field(default_factory=list)
    details: dict = field(default_factory=dict)

    def as_dict(self, mode=None):
        report = asdict(self)
        if mode:
            details = {key: value for key, value in self.details.items() if key.startswith(mode)}
            report = {mode: report[mode], "details": details}
        return report


# ---------------------------------------------------------------------------------------------------
# Text


def meaning(text, subject="", kind=""):
    """``(words, content, negated)`` of a memory: its folded words in order-free form, the words that
    say which fact it is (without the frame and the subject's own words) and its polarity."""
    text = _VIETNAMESE_WORDS.sub(lambda match: f" {_VIETNAMESE[match.group(1).lower()]} ", text)
    folded = _ORDINAL.sub(r"\1", _POSSESSIVE.sub("", _CONTRACTION.sub(" not", fold(text))))
    for pattern, replacement in _SYNONYMS:
        folded = pattern.sub(replacement, folded)
    all_words = words(folded)
    own = set(words(f"{subject} {kind}".replace("_", " ")))
    negated = sum(word in _NEGATIONS for word in all_words) % 2 == 1
    content = frozenset(w for w in all_words if w not in _FRAME and w not in _NEGATIONS and w not in own)
    return tuple(all_words), content, negated


# A store repeats the same few thousand words: each pair is measured once.
_typo = functools.lru_cache(maxsize=200_000)(_typo_of)


@functools.lru_cache(maxsize=65_536)
def _may_be_typo(word):
    return len(word) >= _FUZZY_MIN_LENGTH and not any(ch.isdigit() for ch in word)


def _typo_partner(word, others):
    """Whether ``word`` is a typo of one of ``others`` (words that may be typos); short words and numbers
    must match exactly."""
    return _may_be_typo(word) and any(abs(len(word) - len(other)) <= 2 and _typo(word, other) for other in others)


def _unmatched(mine, theirs, limit):
    """Words of ``mine`` found in ``theirs`` neither as they are nor as a typo of a word of their own; once
    more than ``limit`` are found, the rest are not looked for."""
    own = mine - theirs
    others = [word for word in theirs - mine if _may_be_typo(word)]
    if not others:
        return own
    unmatched = set()
    for word in own:
        if not _typo_partner(word, others):
            unmatched.add(word)
            if len(unmatched) > limit:
                break
    return unmatched


def _contained(smaller, larger):
    """Every word of ``smaller`` is in ``larger``, as it is or as a typo."""
    others = [word for word in larger - smaller if _may_be_typo(word)]
    return all(_typo_partner(word, others) for word in smaller - larger)


def same_fact(a, b):
    """``a`` and ``b`` (Variants) state the same fact: one's content is all found in the other's."""
    if a.negated != b.negated:
        return False
    if same_memory(list(a.words), list(b.words)):
        return True
    smaller, larger = sorted((a.content, b.content), key=len)
    return bool(smaller) and _contained(smaller, larger)


def contradict(a, b, has_subject):
    """``a`` and ``b`` (Variants of one block, not the same fact) cannot both be true."""
    if a.negated != b.negated:
        smaller, larger = sorted((a.content, b.content), key=len)
        return bool(smaller) and _contained(smaller, larger)
    words_a, words_b = a.word_set, b.word_set
    extra_a, extra_b = words_a - words_b, words_b - words_a
    # Each side needs a word of its own. Typos only pair words up, so a side with more than two words
    # beyond the other's can never get there.
    if not extra_a or not extra_b or len(extra_a) > 2 + len(extra_b) or len(extra_b) > 2 + len(extra_a):
        return False
    only_a = _unmatched(words_a, words_b, limit=2)
    if not 1 <= len(only_a) <= 2:
        return False
    only_b = _unmatched(words_b, words_a, limit=2)
    if not 1 <= len(only_b) <= 2:
        return False
    shared_content = (a.content & b.content) - only_a - only_b
    shared = words_a - only_a
    # Without a subject, a shared frame word ("prefer") is not enough: "prefers tea" and "prefers dark
    # mode" are two preferences, not one changed.
    return bool(shared) and (has_subject or bool(shared_content))


# ---------------------------------------------------------------------------------------------------
# Duplicates and contradictions


class _Groups:
    """Union-find over variant indexes."""

    def __init__(self, size):
        self.parent = list(range(size))

    def find(self, i):
        while self.parent[i] != i:
            self.parent[i] = self.parent[self.parent[i]]
            i = self.parent[i]
        return i

    def join(self, i, j):
        self.parent[self.find(i)] = self.find(j)

    def members(self):
        groups = defaultdict(list)
        for i in range(len(self.parent)):
            groups[self.find(i)].append(i)
        return list(groups.values())


def _variants(rows, subject, kind):
    by_words = {}
    for memory_id, text in rows:
        all_words, content, negated = meaning(text, subject, kind)
        key = (all_words, negated)
        if key in by_words:
            by_words[key][0].append(memory_id)
        else:
            by_words[key] = ([memory_id], content)
    return [
        Variant(ids=tuple(ids), words=all_words, content=content, negated=negated)
        for (all_words, negated), (ids, content) in by_words.items()
    ]


def _candidate_pairs(variants):
    """Pairs of variants sharing a word that few variants of the block have; each pair once."""
    postings = defaultdict(list)
    for index, variant in enumerate(variants):
        for word in set(variant.words):
            postings[word].append(index)
    pairs = set()
    for members in postings.values():
        if len(members) <= POSTING_CAP:
            pairs.update(combinations(members, 2))
    return sorted(pairs)


def block_findings(rows, subject="", kind=""):
    """Duplicate groups and contradicting pairs among ``rows`` (``(id, text)``) of one block."""
    variants = _variants(rows, subject, kind)
    groups = _Groups(len(variants))
    opposed = []
    for i, j in _candidate_pairs(variants):
        if same_fact(variants[i], variants[j]):
            groups.join(i, j)
        elif contradict(variants[i], variants[j], bool(subject)):
            opposed.append((i, j))
    duplicates = []
    for members in groups.members():
        ids = sorted(memory_id for index in members for memory_id in variants[index].ids)
        if len(ids) > 1:
            duplicates.append(ids)
    # Contradictions between duplicate groups, not between variants: one entry per pair of groups.
    conflicts = {}
    for i, j in opposed:
        a, b = groups.find(i), groups.find(j)
        if a != b:
            key = tuple(sorted((a, b)))
            conflicts.setdefault(key, set()).update(variants[i].ids + variants[j].ids)
    return duplicates, [sorted(ids) for ids in conflicts.values()]


@functools.lru_cache(maxsize=4096)
def _variant(text, subject, kind):
    all_words, content, negated = meaning(text, subject, kind)
    return Variant(ids=(), words=all_words, content=content, negated=negated)


def contradicted(text, others, subject="", kind=""):
    """The ids of ``others`` (``{id: text}``: live memories of one user, kind and subject) that ``text``
    contradicts the way the doctor's conflicts do: the same fact with other values, or its negation.
    A new proposal like that may be meant to replace them. The texts' meanings are kept (an LRU of 4,096):
    the next proposal on the subject compares itself with mostly the same memories."""
    if not others:
        return []
    new = _variant(text, subject, kind)
    found = []
    for memory_id, other_text in others.items():
        other = _variant(other_text, subject, kind)
        if contradict(new, other, bool(subject)) and not same_fact(new, other):
            found.append(memory_id)
    return found


def _blocks(now):
    """Live memories grouped by user, kind, folded subject and project, streamed in that order."""
    rows = (
        Memory.objects.live(now)
        .order_by("user", "kind", "subject", "project", "pk")
        .values_list("pk", "text", "user", "kind", "subject", "project")
    )
    current, members = None, []
    for memory_id, text, user, kind, subject, project in rows.iterator(chunk_size=5000):
        key = (user, kind, fold(subject).strip(), project)
        if key != current:
            if members:
                yield current, members
            current, members = key, []
        members.append((memory_id, text))
    if members:
        yield current, members


def find_duplicates_and_conflicts(now=None):
    now = now or timezone.now()
    # Subjects differing only by case or accents belong to one block: the rows come sorted by the raw
    # subject, so the folded blocks are gathered before they are looked at.
    gathered = defaultdict(list)
    for key, members in _blocks(now):
        gathered[key].extend(members)
    duplicates, conflicts = [], []
    for (user, kind, subject, project), members in gathered.items():
        found, opposed = block_findings(members, subject, kind)
        duplicates.extend(found)
        conflicts.extend(opposed)
    duplicates.sort(key=lambda group: (-len(group), group[0]))
    conflicts.sort(key=lambda group: group[0])
    return duplicates, conflicts


# ---------------------------------------------------------------------------------------------------
# Stale, noise, core, metadata, chains


def find_stale(now=None):
    """Live memories confirmed longer ago than the drift age or unused for ``UNUSED_DAYS`` (oldest
    confirmation first), then the expired rows prune has not removed yet (the backlog, soonest expired
    first); the details count each kind and the gap between all rows and live rows."""
    now = now or timezone.now()
    live = Memory.objects.live(now)
    unconfirmed = Q(confirmed_at__lt=now - timedelta(days=settings.BESTIE_DRIFT_AGE_DAYS))
    unused_since = now - timedelta(days=UNUSED_DAYS)
    unused = Q(created_at__lt=unused_since) & (
        Q(last_accessed_at__lt=unused_since) | Q(last_accessed_at__isnull=True)
    )
    old = list(live.filter(unconfirmed | unused).order_by("confirmed_at", "pk").values_list("pk", flat=True))
    backlog = list(Memory.objects.expired(now).order_by("expires_at", "pk").values_list("pk", flat=True))
    total = Memory.objects.count()
    live_count = live.count()
    details = {
        "stale_unconfirmed": live.filter(unconfirmed).count(),
        "stale_unused": live.filter(unused).count(),
        "stale_expired_backlog": len(backlog),
        "stale_marked": live.filter(stale=True).count(),
        "stale_all_rows": total,
        "stale_live_rows": live_count,
        "stale_gap": total - live_count,
    }
    return old + backlog, details


def is_noise(text, confidence, access_count):
    folded = " ".join(fold(text).split()).strip(" .!?")
    if len(text.strip()) < NOISE_MIN_CHARACTERS or folded in _GENERIC:
        return "too short or generic"
    if is_venting(text):
        return "one-off venting"
    if confidence < NOISE_LOW_CONFIDENCE and not access_count:
        return "low confidence and never used"
    return ""


def find_noise(now=None):
    now = now or timezone.now()
    noise, reasons = [], defaultdict(int)
    rows = Memory.objects.live(now).filter(pinned=False).values_list("pk", "text", "confidence", "access_count")
    for memory_id, text, confidence, access_count in rows.iterator(chunk_size=5000):
        reason = is_noise(text, confidence, access_count)
        if reason:
            noise.append(memory_id)
            reasons[reason] += 1
    return noise, {"noise_reasons": dict(reasons)}


def core_report(now=None):
    """The injectable core tier in the order retrieval fills it (pinned first, then the most
    confident and most recently confirmed) and which of it does not fit the core budget."""
    now = now or timezone.now()
    budget = MemorySettings.load().core_budget_tokens
    rows = (
        Memory.objects.injectable(now).filter(layer=Layer.CORE)
        .order_by("-pinned", "-confidence", "-confirmed_at", "pk")
        .values_list("pk", "text", "pinned")
    )
    used, overflow, pinned, count = 0, [], [], 0
    for memory_id, text, is_pinned in rows.iterator(chunk_size=5000):
        count += 1
        tokens = count_tokens(text)
        if is_pinned:
            pinned.append(memory_id)
        if used + tokens <= budget:
            used += tokens
        else:
            overflow.append(memory_id)
    total_tokens = used + sum(count_tokens(t) for t in Memory.objects.filter(pk__in=overflow).values_list("text", flat=True))
    return {
        "memories": count,
        "tokens": total_tokens,
        "budget_tokens": budget,
        "over_budget": bool(overflow),
        "pinned": pinned,
        "overflow": overflow,
    }


def find_missing_metadata(now=None):
    """Live memories without a subject (duplicate and conflict checks group by it), without the
    ``text_key`` the write path keeps, or project-scoped without a project."""
    now = now or timezone.now()
    missing = Q(subject="") | Q(text_key="") | Q(scope=Scope.PROJECT, project="")
    return list(Memory.objects.live(now).filter(missing).values_list("pk", flat=True))


def find_broken_chains():
    """Memories whose ``superseded_by`` points at a row that is gone (what SQLite's
    ``PRAGMA foreign_key_check`` reports) or that lie on a loop of supersede links."""
    dangling = set(
        Memory.objects.filter(superseded_by__isnull=False)
        .exclude(Exists(Memory.objects.filter(pk=OuterRef("superseded_by_id"))))
        .values_list("pk", flat=True)
    )
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute(f"PRAGMA foreign_key_check({Memory._meta.db_table})")
            dangling.update(row[1] for row in cursor.fetchall())
    links = dict(Memory.objects.filter(superseded_by__isnull=False).values_list("pk", "superseded_by_id"))
    in_loop, done = set(), set()
    for start in links:
        path, seen, node = [], {}, start
        while node in links and node not in done and node not in seen:
            seen[node] = len(path)
            path.append(node)
            node = links[node]
        if node in seen:
            in_loop.update(path[seen[node]:])
        done.update(path)
    return sorted(dangling | in_loop), {"broken_dangling": len(dangling), "broken_loops": len(in_loop)}


# ---------------------------------------------------------------------------------------------------


def analyze(mode=None, now=None):
    """The doctor's report; ``mode`` (``duplicates``, ``stale`` or ``conflicts``) limits it to one part."""
    if mode is not None and mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
    now = now or timezone.now()
    parts, details = {}, {}
    if mode in (None, "duplicates", "conflicts"):
        parts["duplicates"], parts["conflicts"] = find_duplicates_and_conflicts(now)
        details["duplicates_memories"] = sum(len(group) for group in parts["duplicates"])
        if mode == "duplicates":
            parts.pop("conflicts")
        if mode == "conflicts":
            parts.pop("duplicates")
    if mode in (None, "stale"):
        parts["stale"], stale_details = find_stale(now)
        details.update(stale_details)
    if mode is None:
        parts["noise"], noise_details = find_noise(now)
        details.update(noise_details)
        parts["core"] = core_report(now)
        parts["missing_metadata"] = find_missing_metadata(now)
        parts["broken_chains"], chain_details = find_broken_chains()
        details.update(chain_details)
    return Report(**parts, details=details)


REPORT_CACHE_SECONDS = 300


def recent_report():
    """The full report for the console, reused until the store changes or five minutes pass.

    A full analysis of a large store takes seconds, too long for every page load. Every change to a
    memory writes an audit event, so the newest event (with the row counts) marks the store's state;
    the time limit covers what changes by the clock alone (expiry, staleness).
    """
    state = AuditEvent.objects.aggregate(last=Max("id"), at=Max("at"), events=Count("id"))
    at = state["at"].timestamp() if state["at"] else 0
    key = f"doctor-report:{state['last']}:{at}:{state['events']}:{Memory.objects.count()}"
    return cache.get_or_set(key, analyze, REPORT_CACHE_SECONDS)
