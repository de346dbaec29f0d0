"""Meaning: when two memories say the same thing, and when they cannot both be true.

The write path, the doctor and consolidation ask these questions, and they must get one answer.

**The same memory** (SPEC §3: near-duplicates are not stored twice). After folding case and diacritics,
dropping punctuation and filler words and English plural and third-person endings, two texts with the
same words in any order are the same memory: that form's digest is the ``text_key`` column, so the exact
case is one indexed lookup. On top of it, ``same_memory`` allows typo-sized differences in longer words.
Numbers, negations and short words must match exactly: "prefers pnpm" and "prefers npm", "before 9am"
and "before 10am", "likes" and "does not like" are different memories.

**The same fact**, a looser test for memories already grouped by user, kind and subject: same polarity
(both or neither negated), and the content words of one (its words without the frame: "prefer",
"always", "answer", the subject's own words, negations) all found in the other, a typo allowed in longer
words. The seed's "User prefers Vietnamese.", "User wants Vietnamese-first." and "Always answer in
Vietnamese with diacritics." all hold "vietnamese": one fact.

**A contradiction**: one is the negation of the other, or both keep the same frame and each puts one or
two words of its own in the same slot: "prefers pnpm" and "prefers npm", "before 9am" and "before 10am",
"thích cà phê" and "không thích cà phê".
"""

import functools
import hashlib
import re
from dataclasses import dataclass
from typing import NamedTuple

from rapidfuzz import fuzz, process
from rapidfuzz.distance import Levenshtein
from rapidfuzz.utils import default_process

from memories.language.folding import fold
from memories.language.words import words

# Compared words shorter than this must match exactly (pnpm/npm, 9am/8am, Lan/Lam).
FUZZY_MIN_LENGTH = 5
# rapidfuzz's first pass (0..100); only its best few hits get the word-by-word check.
_PREFILTER_SCORE = 80
_PREFILTER_LIMIT = 5


def text_key(text):
    """The indexed key of a memory's text: equal keys mean the same memory, whatever its wording."""
    normal = " ".join(words(text))
    return hashlib.sha256(normal.encode("utf-8")).hexdigest()[:40]


@functools.lru_cache(maxsize=65_536)
def may_be_typo(word):
    """Long enough, and not a number: a word a typo may have changed."""
    return len(word) >= FUZZY_MIN_LENGTH and not any(ch.isdigit() for ch in word)


# A store repeats the same few thousand words: each pair is measured once.
@functools.lru_cache(maxsize=200_000)
def typo_of(a, b):
    """``a`` and ``b`` differ by a typo: one edit (two in words of eight letters or more)."""
    if not (may_be_typo(a) and may_be_typo(b)):
        return False
    allowed = 2 if min(len(a), len(b)) >= 8 else 1
    return Levenshtein.distance(a, b, score_cutoff=allowed) <= allowed


def same_memory(words_a, words_b):
    """True when two ``words`` lists differ only by a typo or two in longer words."""
    if words_a == words_b:
        return True
    if len(words_a) != len(words_b):
        return False
    only_a = sorted(set(words_a) - set(words_b))
    only_b = sorted(set(words_b) - set(words_a))
    if len(only_a) != len(only_b) or len(only_a) > 2:
        return False
    unmatched = list(only_b)
    for word in only_a:
        partner = next((other for other in unmatched if typo_of(word, other)), None)
        if partner is None:
            return False
        unmatched.remove(partner)
    return True


def closest(text, candidates):
    """The id of the first of ``candidates`` (a dict of id to text) that says the same as ``text``.

    rapidfuzz ranks all of them on the raw texts in C; only its best few are folded and compared word
    by word, so a proposal costs about the same whatever the number of candidates.
    """
    if not candidates:
        return None
    hits = process.extract(
        text,
        candidates,
        scorer=fuzz.token_sort_ratio,
        processor=default_process,
        score_cutoff=_PREFILTER_SCORE,
        limit=_PREFILTER_LIMIT,
    )
    wanted = words(text)
    for _, _, memory_id in hits:
        if same_memory(wanted, words(candidates[memory_id])):
            return memory_id
    return None


# ---------------------------------------------------------------------------------------------------
# Facts: content words, frame and polarity

_NEGATIONS = frozenset(["not", "never", "no", "none", "nobody", "nothing", "cannot", "khong", "chua", "chang"])
# The frame of a memory: verbs of wanting and saying, adverbs of habit and prepositions, in English and
# folded Vietnamese. Changing them does not change which fact a memory states.
_FRAME = frozenset(
    [
        "prefer",
        "want",
        "like",
        "love",
        "enjoy",
        "always",
        "usually",
        "often",
        "generally",
        "please",
        "use",
        "using",
        "uses",
        "used",
        "answer",
        "reply",
        "respond",
        "speak",
        "write",
        "talk",
        "in",
        "on",
        "at",
        "to",
        "into",
        "from",
        "the",
        "an",
        "be",
        "should",
        "must",
        "would",
        "will",
        "can",
        "could",
        "i",
        "me",
        "my",
        "it",
        "them",
        "their",
        "they",
        "he",
        "she",
        "his",
        "her",
        "we",
        "our",
        "you",
        "your",
        "do",
        "has",
        "have",
        "had",
        "call",
        "address",
        "thich",
        "muon",
        "luon",
        "thuong",
        "hay",
        "dung",
        "bang",
        "cho",
        "voi",
        "o",
        "nen",
        "can",
        "hon",
        "phai",
        "duoc",
        "se",
        "dang",
        "named",
        "called",
        "name",
        "co",
        "nuoi",
        "con",
        "vao",
        "luc",
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
    "đừng": "không",
    "tên": "named",
    "chó": "dog",
    "mẹ": "mother",
    "bố": "father",
    "vợ": "wife",
    "chồng": "husband",
    "trà": "tea",
    "sống": "live",
}
_VIETNAMESE_WORDS = re.compile(
    r"(?<!\w)(" + "|".join(sorted(map(re.escape, _VIETNAMESE), key=len, reverse=True)) + r")(?!\w)", re.IGNORECASE
)
_ORDINAL = re.compile(r"\b(\d+)(?:st|nd|rd|th)\b")
_CONTRACTION = re.compile(r"n['’]t\b")
_POSSESSIVE = re.compile(r"['’]s\b")


class Meaning(NamedTuple):
    """What a memory's text says: its folded words in order-free form, the words that say which fact it
    is (without the frame and the subject's own words), and its polarity."""

    words: tuple
    content: frozenset
    negated: bool


@dataclass(frozen=True)
class Variant:
    """A ``Meaning`` as ``same_fact`` and ``contradict`` compare it; the doctor keeps the ids of the memories
    of a block that share it."""

    words: tuple
    content: frozenset
    negated: bool
    ids: tuple = ()

    @functools.cached_property
    def word_set(self):
        return frozenset(self.words)


def meaning(text, subject="", kind=""):
    """The ``Meaning`` of a memory of this subject and kind."""
    text = _VIETNAMESE_WORDS.sub(lambda match: f" {_VIETNAMESE[match.group(1).lower()]} ", text)
    folded = _ORDINAL.sub(r"\1", _POSSESSIVE.sub("", _CONTRACTION.sub(" not", fold(text))))
    for pattern, replacement in _SYNONYMS:
        folded = pattern.sub(replacement, folded)
    all_words = words(folded)
    own = set(words(f"{subject} {kind}".replace("_", " ")))
    negated = sum(word in _NEGATIONS for word in all_words) % 2 == 1
    content = frozenset(w for w in all_words if w not in _FRAME and w not in _NEGATIONS and w not in own)
    return Meaning(tuple(all_words), content, negated)


def _typo_partner(word, others):
    """Whether ``word`` is a typo of one of ``others`` (words that may be typos); short words and numbers
    must match exactly."""
    return may_be_typo(word) and any(abs(len(word) - len(other)) <= 2 and typo_of(word, other) for other in others)


def _unmatched(mine, theirs, limit):
    """Words of ``mine`` found in ``theirs`` neither as they are nor as a typo of a word of their own; once
    more than ``limit`` are found, the rest are not looked for."""
    own = mine - theirs
    others = [word for word in theirs - mine if may_be_typo(word)]
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
    others = [word for word in larger - smaller if may_be_typo(word)]
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
    """``a`` and ``b`` (Variants of one user, kind and subject, not the same fact) cannot both be true."""
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


# A proposal compares itself with the newest memories of its subject, and the next one on that subject
# with mostly the same ones: their meanings are kept.
@functools.lru_cache(maxsize=4096)
def _variant(text, subject, kind):
    return Variant(*meaning(text, subject, kind))


def contradicted(text, others, subject="", kind=""):
    """The ids of ``others`` (``{id: text}``: live memories of one user, kind and subject) that ``text``
    contradicts the way the doctor's conflicts do: the same fact with other values, or its negation.
    A new proposal like that may be meant to replace them."""
    if not others:
        return []
    new = _variant(text, subject, kind)
    found = []
    for memory_id, other_text in others.items():
        other = _variant(other_text, subject, kind)
        if contradict(new, other, bool(subject)) and not same_fact(new, other):
            found.append(memory_id)
    return found
