"""When two memories say the same thing (SPEC §3: near-duplicates are not stored twice).

Two texts are the same memory when, after folding case and diacritics, dropping punctuation and filler
words and English plural and third-person endings, they have the same words in any order: that form's
digest is the ``text_key`` column, so the exact case is one indexed lookup. On top of it, the newest live
memories of the same user, kind and subject are compared word by word, allowing only typo-sized
differences in longer words. Numbers, negations and short words must match exactly: "prefers pnpm" and "prefers npm",
"before 9am" and "before 10am", "likes" and "does not like" are different memories.
"""

import functools
import hashlib
import re

from rapidfuzz import fuzz, process
from rapidfuzz.distance import Levenshtein
from rapidfuzz.utils import default_process

from memories.text import fold

_WORD = re.compile(r"\w+")
# Filler that does not change what a memory says. Negations ("not", "never", "không", "chưa") and
# quantities are deliberately absent. Words are compared folded, so a filler word must not fold into a
# Vietnamese content word: "an" is "ăn" (eat), "the" is "thể", "do" is "đỏ" (red), "cua" is "cua"
# (crab) as well as "của"; those stay.
_STOPWORDS = frozenset(
    """
    a is are was were been being of for by with and or that this these those its as very really just
    also does did user users owner
    la va rat
    """.split()
)
# Phrases naming the owner, folded: "Người dùng thích …" and "User likes …" say the same as "Thích …".
_OWNER_PHRASES = re.compile(r"\b(?:nguoi dung|chu nhan|the user|the owner)\b")
# English plurals and third persons ("replies", "prefers"); folded Vietnamese words never end in "s".
_ENDINGS = (("ies", "y"), ("ss", "ss"), ("us", "us"), ("is", "is"), ("s", ""))
# Compared words shorter than this must match exactly (pnpm/npm, 9am/8am, Lan/Lam).
_FUZZY_MIN_LENGTH = 5
# How many live memories of the same user, kind and subject are compared, newest first: the ones a
# repeat is most likely to repeat, and few enough that a proposal costs the same on any store.
CANDIDATES = 50
# rapidfuzz's first pass (0..100); only its best few hits get the word-by-word check.
_PREFILTER_SCORE = 80
_PREFILTER_LIMIT = 5


def _stem(word):
    if len(word) <= 3:
        return word
    for ending, replacement in _ENDINGS:
        if word.endswith(ending):
            return word[: -len(ending)] + replacement
    return word


# A proposal compares itself with up to CANDIDATES memories of its subject, and the next proposal on that
# subject with mostly the same ones: their words are worked out once.
@functools.lru_cache(maxsize=4096)
def words(text):
    """The words that carry a memory's meaning, folded and stemmed, sorted (word order does not count)."""
    folded = _OWNER_PHRASES.sub(" ", fold(text))
    return tuple(sorted(_stem(word) for word in _WORD.findall(folded) if word not in _STOPWORDS))


def text_key(text):
    """The indexed key of a memory's text: equal keys mean the same memory, whatever its wording."""
    normal = " ".join(words(text))
    return hashlib.sha256(normal.encode("utf-8")).hexdigest()[:40]


def _typo_of(a, b):
    shorter = min(len(a), len(b))
    if shorter < _FUZZY_MIN_LENGTH or any(ch.isdigit() for ch in a + b):
        return False
    allowed = 2 if shorter >= 8 else 1
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
        partner = next((other for other in unmatched if _typo_of(word, other)), None)
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
        text, candidates, scorer=fuzz.token_sort_ratio, processor=default_process,
        score_cutoff=_PREFILTER_SCORE, limit=_PREFILTER_LIMIT,
    )
    wanted = words(text)
    for _, _, memory_id in hits:
        if same_memory(wanted, words(candidates[memory_id])):
            return memory_id
    return None
