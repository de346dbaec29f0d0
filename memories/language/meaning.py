"""Meaning: when two memories say the same thing, and when they cannot both be true.

The write path, the doctor and consolidation ask these questions, and they must get one answer.

**The same memory** (SPEC §3: near-duplicates are not stored twice). After folding case and diacritics,
dropping punctuation and filler words and English plural and third-person endings, two texts are the
same memory when they have the same words, typo-sized differences in longer words aside, in an order
that says the same (``same_order``): the items of a list in any order ("tea and coffee"), the two sides of
"is" either way round ("Lan is the owner's sister" / "The owner's sister is Lan"), one phrase moved
("For deploys, X uses Docker"); but not two parties in each other's places ("Lan owes Minh 200k" / "Minh
owes Lan 200k", "An là sếp của Bình" / "Bình là sếp của An"), which takes more than one move. Numbers,
negations and short words must match exactly: "prefers pnpm" and "prefers npm", "before 9am" and "before
10am", "likes" and "does not like" are different memories. The digest of a text's words in any order is
the ``text_key`` column: the memories with the same words, found by one indexed lookup, among which
``same_memory`` decides.

**The same fact**, a looser test for memories already grouped by user, kind and subject: same polarity
(both or neither negated), and the content words of one (its words without the frame: "prefer",
"always", "answer", the subject's own words, negations) all found in the other, a typo allowed in longer
words, with the words both have in an order that says the same. The seed's "User prefers Vietnamese.",
"User wants Vietnamese-first." and "Always answer in Vietnamese with diacritics." all hold "vietnamese":
one fact.

**A contradiction**: one denies all the other says (with any verb of doing a habit, or in one clause of a
text that says all the other says; not something narrower), the same words with the parties in other places
("Lan owes Minh" and "Minh owes Lan"), or both keep the same frame and each puts one or two words of its
own in the same slot: "prefers pnpm" and "prefers npm", "before 9am" and "before 10am", "thích cà phê"
and "không thích cà phê".
"""

import difflib
import functools
import hashlib
import os
import re
from dataclasses import dataclass
from typing import NamedTuple

from rapidfuzz import fuzz, process
from rapidfuzz.distance import Indel, Levenshtein
from rapidfuzz.utils import default_process

from memories.language import states
from memories.language.folding import fold, marks_agree, spelling
from memories.language.lexicon import LEXICON
from memories.language.words import (
    DAY_BY_NAME,
    DAYS_BY_NUMBER,
    ENGLISH_NUMBERS,
    FOLDED_VIETNAMESE_DIGITS,
    GOING_TO_BED,
    IN_LAW,
    IS,
    JOINT,
    MONTH_NUMBERS,
    MONTHS,
    OWNER,
    POSSESSIVE,
    SENTENCE_END,
    VIETNAMESE,
    VIETNAMESE_WEEKDAYS,
    WEEKDAYS,
    amounts_in_digits,
    could_be_vietnamese,
    counts_in_digits,
    language_of,
    sequence,
    spelt_as_a_name,
    words,
)

# Compared words shorter than this must match exactly (pnpm/npm, 9am/8am, Lan/Lam).
FUZZY_MIN_LENGTH = 5
# rapidfuzz's first pass (0..100); only its best few hits get the word-by-word check.
_PREFILTER_SCORE = 80
_PREFILTER_LIMIT = 5
# How many words before the point where two texts part a reordered list's first item may start.
_LIST_REACH = 8


def text_key(text):
    """The indexed key of a memory's text: its words in any order. Equal keys mean the same words, and a
    memory with them is the same memory when ``same_memory`` says their order agrees."""
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


def _slip_of(a, b):
    """``a`` and ``b`` differ by a slip of the hand: a letter left out or typed twice, or two side by side
    swapped ("Vercell", "Priyanak"); not one letter for another, which makes another name ("Jason" / "Mason",
    "Mochi" / "Machi")."""
    if not (may_be_typo(a) and may_be_typo(b)):
        return False
    if len(a) != len(b):
        return Indel.distance(a, b, score_cutoff=1) <= 1
    differ = [index for index in range(len(a)) if a[index] != b[index]]
    return (
        len(differ) == 2
        and differ[1] == differ[0] + 1
        and a[differ[0]] == b[differ[1]]
        and a[differ[1]] == b[differ[0]]
    )


def _typo_between(word, other, names):
    """``word`` and ``other`` differ by a typo (``typo_of``), or by a slip (``_slip_of``) when either is a name
    among ``names``."""
    return _slip_of(word, other) if word in names or other in names else typo_of(word, other)


def _typo_renames(words_a, words_b, names=frozenset()):
    """How the words of ``words_b`` (sorted) become those of ``words_a``: ``{typo: word}``, empty when they
    are the same words, None when they differ by more than a typo or two in longer words; a name among
    ``names`` by a slip at most (``_slip_of``)."""
    if words_a == words_b:
        return {}
    if len(words_a) != len(words_b):
        return None
    only_a = sorted(set(words_a) - set(words_b))
    only_b = sorted(set(words_b) - set(words_a))
    if len(only_a) != len(only_b) or len(only_a) > 2:
        return None
    renames = {}
    unmatched = list(only_b)
    for word in only_a:
        partner = next((other for other in unmatched if _typo_between(word, other, names)), None)
        if partner is None:
            return None
        unmatched.remove(partner)
        renames[partner] = word
    return renames


def _base(token):
    return token[: -len(POSSESSIVE)] if token.endswith(POSSESSIVE) else token


def _rename(token, renames):
    base = _base(token)
    return renames[base] + token[len(base) :] if base in renames else token


def _said_alike(order_a, order_b, renames):
    """The end of ``same_memory``, once the words match (``renames`` from ``_typo_renames``)."""
    if renames:
        order_b = tuple(_rename(token, renames) for token in order_b)
    return order_a == order_b or same_order(order_a, order_b)


# A capital letter standing for a value, or blood type AB, with its sign: "nhóm máu O", "blood type A+", "AB".
LETTER_VALUE = re.compile(r"(?<=\s)((?:AB|[A-HJ-Z])[+-]?)(?=[\s.,;!?]|$)")


def _signed_letters(text):
    """The letters standing for a value that ``text`` gives with a sign ("A+")."""
    return frozenset(value for value in LETTER_VALUE.findall(text) if value[-1] in "+-")


def signs_agree(text_a, text_b):
    """No letter is given one sign by one text and the other by the other: "A+" is not "A-" (a letter
    without a sign agrees with either: "O+" is "O" told more exactly)."""
    signed_b = _signed_letters(text_b)
    return not any(
        value[:-1] == other[:-1] and value != other for value in _signed_letters(text_a) for other in signed_b
    )


def same_memory(text_a, text_b):
    """True when two texts say the same: the same words, but for a typo or two in longer words, in an order
    that puts no one in another's place (``same_order``), spelt alike where both write diacritics
    (``spelt_alike``: "bún bò" is not "bún bơ"), with the same signs ("A+" is not "A-")."""
    renames = _typo_renames(words(text_a), words(text_b), _named_words(text_a) | _named_words(text_b))
    return (
        renames is not None
        and _said_alike(sequence(text_a), sequence(text_b), renames)
        and spelt_alike(text_a, text_b)
        and signs_agree(text_a, text_b)
    )


def _split(order, mark):
    parts, part = [], []
    for token in order:
        if token == mark:
            parts.append(tuple(part))
            part = []
        else:
            part.append(token)
    parts.append(tuple(part))
    return parts


def _joined(parts, mark):
    """``parts`` joined by ``mark``, an empty one included: ``_split``'s inverse ("X is" splits into "X" and
    nothing, and joins back with its "is")."""
    joined = []
    for index, part in enumerate(parts):
        if index:
            joined.append(mark)
        joined.extend(part)
    return tuple(joined)


# A comparison relates the two sides of "is" to each other: "Minh is older than Tuấn" is not "older than
# Tuấn is Minh" turned around, so its sides keep their order.
COMPARING = frozenset({"than", "hon"})


def _sides_sorted(order):
    """``order`` with the two sides of each clause's one "is" in a fixed order: "Lan is the owner's sister"
    and "The owner's sister is Lan" say the same, as the clause runs from one joint to the next. A clause
    that compares ("than") keeps its sides."""
    clauses = []
    for clause in _split(order, JOINT):
        sides = _split(clause, IS)
        swappable = len(sides) == 2 and not COMPARING.intersection(clause)
        clauses.append(_joined(sorted(sides), IS) if swappable else clause)
    return _joined(clauses, JOINT)


def _one_phrase_moved(a, b):
    """``b`` is ``a`` with at most one run of words moved elsewhere ("For deploys, X uses Docker" / "X uses
    Docker for deploys"). Two parties changing sides of a relation ("Lan owes Minh" / "Minh owes Lan")
    take two moves."""
    start, end = _common_ends(a, b)
    middle_a, middle_b = a[start:end], b[start:end]
    return not middle_a or any(middle_b == middle_a[k:] + middle_a[:k] for k in range(1, len(middle_a)))


def _common_ends(a, b):
    start, end = 0, len(a)
    while start < end and a[start] == b[start]:
        start += 1
    while end > start and a[end - 1] == b[end - 1]:
        end -= 1
    return start, end


def _list_reordered(a, b):
    """``b`` is ``a`` with the items of one list in another order ("likes tea, coffee and milk" / "likes milk,
    tea and coffee"). The list ends where its clause does: "Lan owes Minh and Hoa owes Lan" is no list of
    Minh and Hoa."""
    start, end = _common_ends(a, b)
    if JOINT not in a[start:end] or not (end == len(a) or a[end] in (JOINT, IS)):
        return False
    # Where the list starts is not known: its first item may begin before the texts part.
    for first in range(start, max(-1, start - _LIST_REACH), -1):
        items_a, items_b = _split(a[first:end], JOINT), _split(b[first:end], JOINT)
        if all(items_a) and all(items_b) and sorted(items_a) == sorted(items_b):
            return True
    return False


def _owners(order):
    return [token for token in order if _base(token) == OWNER]


def _owner_left_out(named, bare):
    """``named`` names the owner and ``bare`` does not: a text that leaves the owner out ("Likes tea") has
    them as its subject, in front, when the other names them once; otherwise the other's mentions go."""
    if _owners(named) == [OWNER]:
        return named, (OWNER, *bare)
    return tuple(token for token in named if _base(token) != OWNER), bare


def _with_owner(a, b):
    if bool(_owners(a)) == bool(_owners(b)):
        return a, b
    if _owners(a):
        return _owner_left_out(a, b)
    b, a = _owner_left_out(b, a)
    return a, b


def same_order(a, b):
    """Whether two ``sequence``s of the same words say who does what to whom alike. Which side of "is" a
    party is on does not count ("Lan is the owner's sister" / "The owner's sister is Lan"), nor the order
    of a list's items ("tea and coffee"), nor one phrase moved; anything more, like two parties changing
    places around what joins them ("Lan owes Minh" / "Minh owes Lan"), does."""
    a, b = _with_owner(a, b)
    for mark in (JOINT, IS):
        # One says in clauses, or with "is", what the other says in one go: those marks are not compared.
        if a.count(mark) != b.count(mark):
            a, b = tuple(t for t in a if t != mark), tuple(t for t in b if t != mark)
    if sorted(a) != sorted(b):
        return False
    a, b = _sides_sorted(a), _sides_sorted(b)
    # Numbers keep their places but in a list: "12/3" is not "3/12", "from 9 to 5" not "from 5 to 9".
    numbers_kept = [token for token in a if _with_digits((token,))] == [token for token in b if _with_digits((token,))]
    return (numbers_kept and _one_phrase_moved(a, b)) or _list_reordered(a, b)


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
    for _, _, memory_id in hits:
        if same_memory(text, candidates[memory_id]):
            return memory_id
    return None


# ---------------------------------------------------------------------------------------------------
# Facts: content words, frame and polarity

_NEGATIONS = frozenset(["not", "never", "no", "none", "nobody", "nothing", "cannot", "khong", "chua", "chang"])
# Chat Vietnamese writes "không" as "k", "ko" or "hok".
VIETNAMESE_NEGATIONS = (_NEGATIONS - {"no"}) | {"k", "ko", "hok", "hong", "khg"}
_ALL_NEGATIONS = _NEGATIONS | VIETNAMESE_NEGATIONS
# The frame of a memory: verbs of wanting and saying, adverbs of habit and prepositions, in English and
# folded Vietnamese. Changing them does not change which fact a memory states.
_FRAME_ENGLISH = frozenset(
    """
    prefer want like love enjoy always alway usually often generally please use using uses used answer reply
    respond speak write talk in on at to into from the an be should must would will can could i me my it them
    their they he she his him her we our you your do has have had call address named called name all about around
    every up most anymore now since completely entirely totally any anyth
    """.split()
)
# ("alway" is "always" as ``words`` keeps it, an English plural's "s" taken off; "completely", "entirely" and
# "totally" say only how much: "has quit coffee completely" is "quit coffee"; "any" and "anything" ("anyth" as
# ``words`` keeps it) only how wide a denial is: "not allergic to anything"; "all", "about", "around",
# "every", "up" are quantifiers and rough measures: "has not run at all", "runs about 5 km around the lake
# every Saturday"; "most" is what one likes most: the liking is what counts; "anymore" and "nữa" go with a
# negation.)
_FRAME_VIETNAMESE = frozenset(
    """
    thich muon luon thuong hay dung bang cho voi o nen can hon phai duoc se dang co nuoi con vao luc nao nua gio
    gi
    """.split()
)
# ("nào": any, "không nuôi thú cưng nào", or every, "sáng nào"; "gì": anything, "không dị ứng gì".)
# Words of the frame: whatever the fact, they say how it is put. In a Vietnamese text, an English one written
# with diacritics is the Vietnamese word spelt so, folded: "Mỹ" is no "my", "đỏ" no "do", "thể" no "the"
# ("Chị Lan sống ở Mỹ" is not "… ở Úc"); "do" written plain is "because" there, of the frame as well
# (``_frame_of``).
_FRAME = _FRAME_ENGLISH | _FRAME_VIETNAMESE
# What a Vietnamese text writes with diacritics and is of the frame all the same: "bé", a child's honorific,
# says as little as "be" ("Bé Na học lớp 1" repeats "Na học lớp 1").
_FRAME_WRITTEN_MARKED = frozenset({"be"})


def _frame_of(written, vietnamese):
    """The words of the frame in ``written`` (``_FRAME``), a text in Vietnamese or not."""
    if not vietnamese or written.isascii():
        return _FRAME
    marked = {fold(word) for word in re.findall(r"\w+", written.lower()) if not word.isascii()}
    return _FRAME_VIETNAMESE | (_FRAME_ENGLISH - (marked - _FRAME_WRITTEN_MARKED))


# Verbs that say a habit is done, whatever the habit, in English and folded Vietnamese ("uống", "ăn",
# "chơi", "đánh", "tập", "đi", "làm").
_DOING = frozenset(
    """drink eat have has had take play do does go practice practise uong an choi danh tap di lam""".split()
)


def _compiled(pairs):
    return tuple((re.compile(pattern), replacement) for pattern, replacement in pairs)


# Numbers written as words, as digits ("one" is as often no number).
_NUMBER_WORDS = {word: str(value) for word, value in ENGLISH_NUMBERS.items() if 2 <= value <= 12}


# A liking said with "best" or "most" (folded "nhất") after what is liked: the liking is what counts.
_LIKED_BEST = (
    r"\b(lik(?:es?|ed)|lov(?:es?|ed)|enjoy(?:s|ed)?|prefer(?:s|red)?|thich)\b(.*?)\s(?:the\s)?(?:best|most|nhat)\b"
)
# "used to" after a form of "be" or "get" is being accustomed, or a passive: "is used to the cold".
_USED_TO = "".join(rf"(?<!\b{word} )" for word in "is am are was were be get got".split()) + r"\bused to\b|\bformerly\b"
_REMOTE = r"\b(?:work(?:s|ed|ing)? )?(?:fully |full[- ]time )?(?:wfh|remote(?:ly)?|from home)(?: full[- ]time)?\b"
# A time, folded: a day, a month, a date, a part of the day or month ("Friday", "June 15", "late March", "thứ
# Sáu", "ngày 15/6", "cuối tháng 3").
_TIME = (
    r"(?:the |next |this )*(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekend|week|month|year"
    r"|tomorrow|january|february|march|april|may|june|july|august|september|october|november|december|\d+"
    r"|end|beginning|start|middle|mid|late|early"
    r"|thu (?:hai|ba|tu|nam|sau|bay)|chu nhat|ngay|thang|tuan|mai|mung|sang|trua|chieu|toi"
    r"|(?:cuoi|dau|giua) (?:tuan|thang|nam))\b"
)
# Putting off or moving a plan to another time is its time changed: "was moved to Thursday", "postponed to
# June 15", "dời sang thứ Sáu", "lùi sang ngày 15/6" say the new time where "is on Tuesday" said the old.
_RESCHEDULED = (
    r"\b(?:(?:was|were|is|are|has been|have been|had been|got|will be) )?(?:moved|postponed|rescheduled|delayed"
    r"|pushed|brought|put off|shifted|bumped)(?: (?:back|up|forward|off))? (?:to|for|until|till)\b(?= " + _TIME + ")"
)
# Or moved, the plan between: "moved her piano lesson to Friday", "đổi ngày nghỉ sang thứ Tư" (the plan stays,
# its time changes).
_PLAN_RESCHEDULED = (
    r"\b(?:moved|changed|switched|shifted|rescheduled|pushed)((?: \w+(?:'s)?){1,4}?) (?:to|until)\b(?= " + _TIME + ")"
)
# ("qua" is "sang" as chat types it: "lịch khám đổi qua 22/12".)
_PLAN_RESCHEDULED_VIETNAMESE = r"\b(?:doi|chuyen|lui|day)((?: \w+){1,4}?) (?:sang|qua)\b(?= " + _TIME + ")"
_RESCHEDULED_VIETNAMESE = (
    r"\b(?:da |duoc |bi )?(?:doi|lui|chuyen|hoan|day)(?: lich| lai)? (?:sang|den|toi|vao|xuong|len|qua)\b(?= "
    + _TIME
    + ")"
)
# A value gone up or down to another is that value now: "Rent went up to 6 million", "weight dropped from 70 to
# 65 kg", "lương tăng lên 18 triệu", "giảm từ 70 xuống còn 65 kg" say the new value where "Rent is 5 million"
# said the old (the old one, after "from", is left out). Only before a number: "went up to Sapa" is a trip.
_VALUE_CHANGED_HINT = (
    r"\b(?:up|down|rose|risen|rises?|increased?|increases|decreased?|decreases|dropped|drops|fell|fallen|falls"
    r"|raised|reduced|lowered|jumped|climbed|grew|grown|cut|tang|giam|nang|ha)\b"
)
_VALUE_CHANGED = (
    (
        r"\b(?:(?:has |have |had )?(?:went|gone|goes|go|is|was|are|were) (?:up|down)|rose|risen|rises|increased"
        r"|increases|decreased|decreases|dropped|drops|fell|fallen|falls|raised|reduced|lowered|jumped|climbed|grew"
        r"|grown|cut)(?: from [^,;.!?]*?)? to\b(?= (?:\w+ )?\d)"
        r"|\b(?:tang|giam|nang|ha)(?: len| xuong)? tu [^,;.!?]*? (?:len|xuong)(?: con| thanh)?\b(?= (?:\w+ )?\d)"
        r"|\b(?:tang|giam|ha) (?:len|xuong|con|thanh)(?: con| thanh)?\b(?= (?:\w+ )?\d)",
        " now ",
    ),
    # Raised or cut, the thing between: "raised the savings goal to 55 million", "nâng mục tiêu lên 55 triệu".
    (
        r"\b(?:raised|increased|lowered|reduced|cut|upped)\b((?:\s+[\w-]+){1,6}?)\s+to\b(?=\s+(?:\w+\s+)?\d)"
        r"|\b(?:tang|nang)\b((?:\s+\w+){1,6}?)\s+(?:len|thanh)\b(?=\s+(?:\w+\s+)?\d)"
        r"|\b(?:giam|ha)\b((?:\s+\w+){1,6}?)\s+(?:xuong|con)(?:\s+con)?\b(?=\s+(?:\w+\s+)?\d)",
        lambda match: f" {next(group for group in match.groups() if group is not None)} now ",
    ),
)
# How often, folded, written one way: "three times a week", "3 times per week", "3 buổi một tuần", "3 lần/tuần"
# and "tuần 3 buổi" are "3x week" ("ngày 2 lần" "2x day"); "every day", "daily", "mỗi ngày", "hằng ngày" are
# "every day", and "every morning", "mỗi sáng" are "every day morning" ("every" is of the frame). Two of them in
# one place are two values.
# (Folded, "nam" is as often a year, "tam" "tạm", "chin" ripe.)
_COUNTS = (
    {"once": "1", "twice": "2", "thrice": "3"}
    | {word: str(value) for word, value in ENGLISH_NUMBERS.items() if 1 <= value <= 7}
    | {word: str(value) for word, value in FOLDED_VIETNAMESE_DIGITS.items() if word not in ("nam", "tam", "chin")}
)
_PERIODS = {
    **{"day": "day", "dai": "day", "ngay": "day", "week": "week", "tuan": "week"},
    **{"month": "month", "thang": "month"},
}
_COUNT = r"(\d+|" + "|".join(_COUNTS) + ")"
# A period as a text writes it ("dai" only as "daily").
_PERIOD = "(" + "|".join(period for period in _PERIODS if period != "dai") + ")"


def _often(count, period):
    return f" {_COUNTS.get(count, count)}x {_PERIODS[period]} "


_HOW_OFTEN = (
    # "Sáng nào … cũng", "ngày nào cũng" is every morning, every day: "Sáng nào chị Lan cũng uống cà phê" ("cũng"
    # is read as nothing by then, "cung" typed without marks is left out here); "một ngày nào đó" is some day.
    (
        r"(?<!\bmot )\b(sang|trua|chieu|toi|dem|ngay|tuan|thang) nao\b(?! do\b)((?:\s+(?!cung\b)\w+){0,6}?\s+cung\b)?",
        lambda match: f" moi {match[1]} {(match[2] or '').removesuffix('cung')} ",
    ),
    # An amount a period is paid every period: "8,000,000 VND a month", "25tr/tháng", "25 triệu một tháng"
    # (amounts are digits by then: ``amounts_in_digits``).
    (
        rf"\b(\d{{4,}}(?: (?:vnd|usd|dong|d))?) ?(?:a|per|/|mot) ?{_PERIOD}\b",
        lambda match: f" {match[1]} every {_PERIODS[match[2]]} ",
    ),
    (
        rf"\b{_COUNT} (?:times?|x|lan|buoi|days?|ngay) ?(?:a|per|each|every|mot|moi|/|trong mot) ?{_PERIOD}\b",
        lambda match: _often(match[1], match[2]),
    ),
    (r"\b(once|twice|thrice) (?:a|per|each|every) (day|week|month)\b", lambda match: _often(match[1], match[2])),
    (rf"\b(?:moi |mot )?(ngay|tuan|thang) {_COUNT} (?:lan|buoi|ngay)\b", lambda match: _often(match[2], match[1])),
    (
        rf"\b(?:every|each|moi|hang) {_PERIOD}\b|\b(dai|week|month)ly\b",
        lambda match: f" every {_PERIODS[match[1] or match[2]]} ",
    ),
    (
        r"\b(?:every|each) (morning|afternoon|evening|night)\b|\bmoi (sang|trua|chieu|toi|dem)\b",
        lambda match: f" every day {match[1] or match[2]} ",
    ),
)
# What some words are read as, in a folded text holding one of them (``_READ_AS_HINT``): what stops or leaves
# ("moved out of", "paid back", "dropped", "stays out of", "decided against", "free of", "bo thuoc la" typed
# without marks), and what a phrase is ("quán cà phê" a café, "hút thuốc" smoking, "ăn sáng" breakfast,
# "không dung nạp" a state).
_READ_AS_HINT = (
    r"\b(?:quan|coffee|mov(?:ed|es)|don|chuyen|khong|ko|bo|cai|hut|thuoc|an|gan|hau|almost|lam|bat|intoleran\w*|chua"
    r"|paid|repaid|tat|stay\w*|steers?|dropped|decided?|decides|opt(?:s|ed)?|chose|choose|free|avoid\w*|kieng"
    r"|subscriptions?|memberships?|refus\w*|declin\w*"
    r"|no (?:sugar|ice|cream|problems?|issues?))\b"
)
_READ_AS = (
    # A coffee shop is a place, not the drink: "quán cà phê của Vinh", "the café".
    (r"\bquan (?:ca phe|cf)\b|\bcoffee (?:shop|house)\b", " cafe "),
    # Having moved out of a place is living there no more: "moved out of Hai Chau", "đã dọn ra khỏi Hải
    # Châu", "không còn ở Hải Châu nữa".
    (r"\bmov(?:ed|es) out of\b|\b(?:don|chuyen) ra khoi\b", " not live in "),
    (r"\b(?:khong|ko) con o\b", " khong con live o "),
    # Quitting, typed without diacritics, before what one smokes or drinks: "bo thuoc la r", "cai ruou".
    (r"\b(?:bo|cai) (?=(?:hut )?thuoc\b|ruou\b|bia\b|ca phe\b|cafe\b|cf\b|nhau\b)", " khong "),
    # "Bỏ thuốc", "cai thuốc" said alone are quitting smoking: "đã bỏ thuốc được 6 tháng rồi" (not "bỏ thuốc
    # huyết áp"); "bỏ" and "cai" are "khong" by then when typed without diacritics.
    (
        r"\b(khong|bo|cai)\s+thuoc(?: drug)?(?=\s*(?:$|[,.;!?]|(?:duoc|dc|r|roi|tu|han|lau|nua|hoan toan|\d+)\b))",
        r" khong smoke ",
    ),
    (r"\bhut thuoc(?: la)?\b|\bthuoc la\b", " smoke "),
    # Meals: "ăn sáng" is having breakfast ("sáng" alone is the morning).
    (r"\ban sang\b", " breakfast "),
    (r"\ban trua\b", " lunch "),
    (r"\ban toi\b", " dinner "),
    # Being fine with something denies nothing: "uống sữa bò hằng ngày, không có vấn đề gì", "eats dairy with
    # no problems" ("không sao chép" is not copying).
    (
        r"\b(?:khong|ko) (?:co )?(?:van de|sao)(?: gi| ca)?(?=\s*(?:$|[,.;!?]))|\b(?:with )?no (?:problems?|issues?)\b",
        " ",
    ),
    # "Almost never" is never, for what it denies: "gần như không bao giờ ăn sáng".
    (r"\b(?:gan nhu|hau nhu|almost)\b", " "),
    # Doing a job at a company is working there: "làm kỹ sư ở công ty Sông Hàn", "làm cho công ty FPT".
    (r"\blam\b(?=(?: \w+){0,4} (?:o|tai|cho) cong ty\b)", " work "),
    (r"\b(?:khong|bat) dung nap\b|\bintoleran(?:t|ce)\b", " intolerant "),
    # A debt paid off is paid no more: "has fully paid off her car loan" / "pays 5 million a month on her car
    # loan"; not after a negation ("hasn't paid it back yet" still owes).
    (r"(?<!not )(?<!never )\b(?:fully |completely |finally )?(?:paid off|repaid)\b|\btat toan\b", " not pay "),
    # One who paid someone back owes them no more: "Tín has paid the user back" / "Tín owes the user 8 million".
    (r"(?<!not )(?<!never )\bpaid ((?:\w+ ){0,3})back\b", r" not owe \1 "),
    # One who has not paid it back yet still owes it: "a Khoa chưa trả Tuấn 1tr" is "Anh Khoa còn nợ Tuấn 1
    # triệu" (folded "nợ" is "no"; not "chưa trả lời", not replied), "hasn't paid Duy back" "owes Duy"; said
    # after a debt, it says it again: "nợ Duy 2 triệu, chưa trả".
    (
        r"\b(no|owes?|owed|borrow|vay)\b(.*?)(?:\bchua tra(?: lai)?\b(?! loi\b)"
        r"|\b(?:not|never) (?:yet )?(?:paid|repaid)(?: \w+){0,3}? back\b)",
        r"\1\2",
    ),
    (r"\bchua tra(?: lai)?\b(?! loi\b)", " no "),
    (r"\b(?:not|never) (?:yet )?(?:paid|repaid) ((?:\w+ ){0,3}?)back\b", r" owe \1 "),
    # Keeping out of something is not doing it: "stays out of crypto". So is avoiding it, as what a text first
    # says of whom it is about ("Khoa avoids coffee after 3 pm", "Người dùng kiêng đồ cay"); not in a clause
    # added to a state ("has diabetes and avoids sugar"), which a translation of the state alone would read
    # as its denial.
    (r"\b(?:stay(?:s|ed|ing)? (?:out of|away from)|steers? clear of)\b", " not "),
    (r"^(\s*(?:(?!and\b|va\b)\w+ ){0,4}?)(?:avoid(?:s|ed)?|kieng)\b", r"\1 not "),
    # Refusing to do something is not doing it: "refuses to sell antibiotics without a prescription".
    (r"\b(?:refus(?:e|es|ed|ing)|declin(?:e|es|ed|ing)) to\b", " not "),
    # Dropping a class or a habit is quitting it ("dropped piano"; not "dropped off" or "dropped by").
    (r"\bdropped(?: out of)?\b(?! off| by)", " not "),
    # Cancelling one's subscription to a thing is using it no more: "cancelled her MISA subscription".
    (
        r"\b(cancell?ed|ended) (?:his |her |their |my |our |the )?((?:\w+ ){1,2})(?:subscription|membership)s?\b",
        r"\1 \2",
    ),
    # Deciding against something is deciding not to: "decided against any bank loan".
    (r"\b(decided?|decides|opt(?:s|ed)?|chose|choose) against\b", r" \1 not "),
    # Kept free of something is without it: "keeps his mornings free of meetings" (not "free of charge").
    (r"\bfree (?:of|from)\b(?! (?:charge|cost)\b)", " not "),
    # Had with none of something in it is had without it: "coffee with no sugar", "black coffee, no sugar"
    # ("drinks no milk" denies drinking it, "answers with no preamble" is "không rào đón").
    (r"(?:\bwith|(?<=,)) ?no\b(?= (?:sugar|ice|cream)\b)", " without "),
)
# Rewritings read, before the phrases below, only in a folded text holding one of their words, as most hold
# none: how often, a plan moved to another time, and having switched to something, which is doing it now
# ("chuyển sang làm ca tối" is "làm ca tối" now: "sang" is no morning there; "switched to the night shift").
_GATED = tuple(
    (re.compile(hint), _compiled(rules))
    for hint, rules in (
        (
            r"\b(?:times?|x|lan|buoi|days?|ngay|once|twice|thrice|every|each|moi|hang|daily|weekly|monthly|tuan"
            r"|thang|nao)\b",
            _HOW_OFTEN,
        ),
        (
            r"\b(?:moved|postponed|rescheduled|delayed|pushed|brought|put|shifted|bumped|changed|switched)\b",
            ((_RESCHEDULED, " on "), (_PLAN_RESCHEDULED, r"\1 on ")),
        ),
        (_VALUE_CHANGED_HINT, _VALUE_CHANGED),
        (_READ_AS_HINT, _READ_AS),
        # Lending is letting someone borrow: "Người dùng cho Nam mượn 2 triệu" is "User lent Nam 2 million"
        # (and "Nam cho người dùng mượn" the other way round). ("mượn" is read as "borrow" before folding.)
        (r"\b(?:borrow|vay)\b", ((r"\bcho\s+((?:\w+\s+){1,3}?)(?:borrow|vay)\b", r" lent \1 "),)),
        # "Thức dậy" typed without diacritics, at a time ("thuc day luc 5h"; "thúc đẩy" folds alike).
        (r"\bthuc day\b", ((r"\bthuc day\b(?=\s+(?:luc|vao|tu|som|muon|\d))", " wake "),)),
        (
            r"\b(?:doi|lui|chuyen|hoan|day|switched)\b",
            (
                (_RESCHEDULED_VIETNAMESE, " vao "),
                (_PLAN_RESCHEDULED_VIETNAMESE, r"\1 vao "),
                (r"\b(?:chuyen|doi)(?: han)? sang\b|\bswitched (?:over )?to\b", " now "),
            ),
        ),
    )
)
# Folded phrases that name the same thing in both languages, in order.
_SYNONYMS = _compiled(
    (
        (r"\btieng viet\b|\bvietnamese\b", " vietnamese "),
        (r"\btieng anh\b|\benglish\b", " english "),
        (r"\bco dau\b|\bdiacritics?\b", " diacritic "),
        (r"\bca phe\b|\bcoffee\b|\bcf\b", " coffee "),
        (r"\bngan gon\b|\bconcise\b|\bbrief\b|\bshort\b", " concise "),
        # Children counted: "có 3 con", "2 đứa con", "hai đứa" (not "3 con mèo", nor "2 con trai": sons).
        (r"\b(\d+) (?:dua con|con|dua)(?= *(?:$|[,.;!?)]|va\b|nho\b|deu\b|roi\b|ca\b|cua\b))", r" \1 children "),
        (r"\btra loi\b", " answer "),
        # Lessons are a class: "has swimming lessons on Tuesdays" / "swimming class moved to Saturdays".
        (r"\blessons?\b", " class "),
        # "Any more" ending a clause is "anymore", going with a negation: "Khoa doesn't run any more" (not "doesn't
        # want any more coffee").
        (r"\bany more\b(?=\s*(?:$|[,.;!?]))", " anymore "),
        # Getting up is waking: "Linh gets up at 5:30" / "Linh wakes at half past five".
        (r"\b(?:get|gets|got|getting) up\b|\b(?:wake|wakes|woke|waking) up\b", " wake "),
        # A phone call is one thing, not a phone ("call" alone is of the frame: "call the user Huy"): "not phone
        # calls" denies no phone number.
        (r"\b(phone|video) calls?\b", r" \1call "),
        # Sleeping until a time is waking then: "Linh sleeps in until 7" / "Linh wakes at 7", "ngủ tới 7h".
        (r"\bsleep(?:s|ing)?(?: in)? (?:until|till) (?=\d)|\bslept(?: in)? (?:until|till) (?=\d)", " wake at "),
        (r"\bngu (?:toi|den) (?=\d)", " wake "),
        (r"\bsong o\b|\b(?:is |are )?based in\b|\bresid(?:es?|ing) in\b", " live "),
        # An older sibling is not a younger one: "chị gái" is an older sister, "em gái" a younger one.
        (r"\bchi gai\b|\b(?:elder|big) sister\b", " older sister "),
        (r"\bem gai\b|\b(?:little|baby|kid) sister\b", " younger sister "),
        (r"\banh trai\b|\b(?:elder|big) brother\b", " older brother "),
        (r"\bem trai\b|\b(?:little|baby|kid) brother\b", " younger brother "),
        (r"\b(?:con|be) gai\b", " daughter "),
        (r"\b(?:con|be) trai\b", " son "),
        # Having children, said at the end of a clause: "Người dùng chưa có con", "đã có con rồi".
        (r"\bco con(?= *(?:$|[,.;!?)]|nho\b|roi\b|chua\b))", " co children "),
        (r"\bbuoi sang\b", " morning "),
        (r"\bbuoi toi\b", " evening "),
        (r"\bsinh nhat\b", " birthday "),
        (r"\blam viec\b", " work "),
        # Working somewhere: "làm ở Viettel", "làm tại FPT" is "làm việc ở", not doing or making something.
        (r"\blam(?= (?:o|tai) [a-z])", " work"),
        # Going to work, not to do something else ("đi làm vườn" is gardening); working out is exercise.
        (r"\bdi lam\b(?=\s*(?:$|[,.;!?]|(?:o|tai|luc|bang|moi|hang|vao|ca|lai|xa|gan|som|muon|\d+h?)\b))", " work "),
        (r"\bwork(?:s|ed|ing)? out\b", " exercise "),
        # A relative by marriage: "mother-in-law" is "mother inlaw", as "mẹ vợ" is "mother wife".
        (IN_LAW.pattern, " inlaw"),
        # Working or living at a place is in it: "làm việc tại FPT" is "làm ở FPT", "sống tại" "sống ở".
        (r"\b(work|live)(\s+)tai\b", r"\1\2o"),
        (r"\bban than\b|\bclosest friend\b", " best friend "),
        # Going to bed is going to sleep: "Kids go to bed at 9pm" / "… go to sleep at 21:00".
        (rf"{GOING_TO_BED.pattern.pattern}|\bfall(?:s|ing)? asleep\b|\bdi ngu\b", " sleep "),
        # Sleeping at an hour is going to sleep then: "Người dùng ngủ lúc 11 giờ đêm" / "đi ngủ lúc 23h".
        (r"\bngu(?= (?:luc|vao|khoang|tam) \d)", " sleep"),
        # A pill is one however it is sold: "a vitamin D pill" / "a vitamin D supplement".
        (r"\b(?:pill|tablet|capsule|supplement)s?\b", " pill "),
        (r"\bsu dung\b", " use "),
        # A date is the month and the day, however written: "3 May", "the 3rd of May", "May 3rd", "Jan 12".
        *((rf"\b{short}\b", MONTHS[number - 1]) for short, number in MONTH_NUMBERS.items() if short not in MONTHS),
        (rf"\b(\d{{1,2}}) (?:of )?({'|'.join(MONTHS)})\b", r"\2 \1"),
        # One's birthday is the day one was born: "User was born on May 3rd" / "User's birthday is 3 May".
        (r"\b(\w+) (?:was|were) born on\b", r"\1's birthday is"),
        # One's home is where one lives: "The user's home is in Berlin" / "User lives in Berlin".
        (r"\b(\w+)['’]s home is (in|at|on)\b", r"\1 live \2"),
        # Working remotely is one state, however it is said: "works fully remote", "WFH full-time".
        (_REMOTE, " remote "),
        (r"\bkhong bao gio\b", " never "),
        (r"\bghet\b|\bhate[sd]?\b|\bdislike[sd]?\b|\b(?:ca not|cannot) (?:stand|bear)\b", " not like "),
        (r"\bador(?:es?|ed|ing)\b", " love "),
        # A favourite is what one likes best: "User's favourite tea is jasmine tea" / "User likes jasmine tea
        # best", "Món yêu thích của người dùng là phở" / "Người dùng thích phở nhất".
        (r"\bfavou?rites?\b|\byeu thich\b", " like most "),
        (_LIKED_BEST, r"\1\2 most"),
        # A former partner or boss is one no more: "Tuấn là chồng cũ của Ngân", "the user's ex-wife".
        (r"\b(?:ex|former)[ -]?(?=(?:wife|husband|girlfriend|boyfriend|partner|boss|manager|fiancee?)\b)", " not "),
        (r"\b(wife|husband|nguoi yeu|ban trai|ban gai|sep)\s+cu\b", r" not \1 "),
        (r"\bdi ung\b|\ballergic\b|\ballergies\b", " allergy "),
        # Being scared of something is not liking it: "Vy is scared of cats" / "Vy adores cats".
        (r"\b(?:scared|afraid|terrified) of\b", " not like "),
        # Having broken up is dating no more: "Đạt and Quyên broke up" / "Đạt đang hẹn hò với Quyên".
        (r"\b(?:broke|broken|split) up\b|\bchia tay\b", " not date "),
        (r"\bhen ho\b|\bdating\b|\bgoing out with\b", " date "),
        # Having stopped is not doing any more: "quit coffee", "no longer drinks coffee", "đã bỏ cà phê"; nor
        # is a plan called off carried out: "cancelled the trip to Hanoi".
        (r"\b(?:quit(?:s|ting)?|stopped|gave up|given up|no longer|cancell?ed|called off)\b", " not "),
        # What one used to do, or formerly did, one does no more: "User used to work at Google".
        (_USED_TO, " not "),
        # One relation is one word, whichever of its words is said: "mom" is "mother", "kids" are "children".
        (
            r"\b(" + "|".join(word for word, relation in states.SAME_RELATION.items() if word != relation) + r")s?\b",
            lambda match: f" {states.SAME_RELATION[match.group(1)]} ",
        ),
        # A number is one value however it is written: "two kids" / "2 kids" ("one" is as often no number).
        (rf"(?<![\w-])({'|'.join(_NUMBER_WORDS)})(?![\w-])", lambda match: _NUMBER_WORDS[match.group(1)]),
    )
)
# States and kinds of thing (``memories.language.states``), read in a Vietnamese text only.
_VIETNAMESE_SYNONYMS = _compiled((rf"\b{phrase}\b", f" {word} ") for phrase, word in states.VIETNAMESE.items())
# Vietnamese words read before folding, where their accents still tell them apart ("chó" is a dog, "cho"
# means for; "tên" is a name, "ten" a number), into the English word the frame and the synonyms know.
_VIETNAMESE = {
    "đừng": "không",
    # "Xài" is the South's "dùng" (to use): "ko xài iPhone nữa".
    "xài": "dùng",
    # Borrowing is no wanting ("mượn" and "muốn" fold alike): "Nam cho người dùng mượn 2 triệu".
    "mượn": "borrow",
    # Being scared of something is not liking it ("sợ mèo"); a scary thing is one ("đáng sợ").
    "sợ": "không thích",
    "đáng sợ": "scary",
    # A debt paid off: "đã trả hết nợ".
    "trả hết": "không trả",
    "trả xong": "không trả",
    "trả đủ": "không trả",
    # "Rather than": "đón Thịnh thứ Năm chứ không phải thứ Tư" chooses Thursday in place of Wednesday.
    "chứ không phải": "thay vì",
    "chứ không": "thay vì",
    # Not tolerating lactose is one state, no denial: "không dung nạp lactose" is "lactose intolerant".
    "không dung nạp": "intolerant",
    "bất dung nạp": "intolerant",
    # Being crazy about something is liking it: "mê sầu riêng" ("hôn mê" is a coma).
    "mê": "thích",
    "hôn mê": "coma",
    # "Very", after what it says more of: "mê sầu riêng lắm" ("làm" is to do).
    "lắm": "",
    "đã bỏ": "không",
    "bỏ hẳn": "không",
    # Cutting something out for good: "cắt hẳn trà sữa" ("cắt" alone also slices: "cắt thịt").
    "cắt hẳn": "không",
    "ngừng": "không",
    "không còn": "không",
    "đã nghỉ": "không",
    "nghỉ hẳn": "không",
    # Leaving one's job: "Người dùng đã nghỉ việc ở FPT" denies "Người dùng làm việc ở FPT".
    "nghỉ việc": "không work",
    "đã nghỉ việc": "không work",
    "đã hủy": "không",
    # Retiring is not stopping something: "Ông Hùng đã nghỉ hưu".
    "nghỉ hưu": "retired",
    "đã nghỉ hưu": "retired",
    # Being loath to do something is not liking it: "ngại đọc chữ dài" ("lo ngại" is being worried).
    "ngại": "không thích",
    "e ngại": "không thích",
    "lo ngại": "lo",
    "ngại ngùng": "shy",
    # Words of tense and aspect ("đã", "rồi": done; "cũng": also; "hẳn": for good) say when or how surely,
    # not which fact, as "does" and "has" do in English; bare, they fold into other words ("đá" is ice).
    "đã": "",
    "rồi": "",
    "cũng": "",
    "hẳn": "",
    # "now": "hiện tại", "hiện đang" ("hiện đại" is modern).
    "hiện tại": "",
    "hiện giờ": "",
    "hiện nay": "",
    "hiện đang": "",
    # "These days", "from this month on": when, not what ("Dạo này Mai thức khuya", "Từ tháng này … đi xe buýt").
    "dạo này": "",
    "dạo gần đây": "",
    "gần đây": "",
    "từ tháng này": "",
    "từ tuần này": "",
    "từ năm nay": "",
    "tên": "named",
    "chó": "dog",
    # Kinds of thing (``memories.language.states``): the word stays, so that it still meets itself typed
    # without diacritics ("phở bò" / "pho bo"), and its English one is added.
    "bò": "bò beef",
    "gà": "gà chicken",
    "lợn": "lợn pork",
    "thịt": "thịt meat",
    "bia": "bia beer",
    # Waking is getting up ("thức dậy lúc 5h30" / "dậy lúc 6 giờ"), as English says it; folded, "dậy" would
    # be a day.
    "thức dậy": "wake",
    "dậy": "wake",
    # Liquor and beer together are alcohol, no beer of it ("không uống rượu bia").
    "rượu bia": "rượu",
    "bia rượu": "rượu",
    "tôm": "tôm shrimp",
    "trứng": "trứng egg",
    "sữa": "sữa milk",
    # Cow's milk is milk, no beef.
    "sữa bò": "sữa bò milk",
    "thuốc": "thuốc drug",
    # Smoking is no drug taken: "hút thuốc", "nửa bao thuốc lá mỗi ngày".
    "thuốc lá": "smoke",
    "hút thuốc": "smoke",
    "hút thuốc lá": "smoke",
    # A passive mark ("bị dị ứng"), as "được" is: it says nothing of which fact.
    "bị": "",
    # "at all", "whole": "không … nào cả", "cả nhà" ("cá" is fish).
    "cả": "",
    "mẹ": "mother",
    "bố": "father",
    "vợ": "wife",
    "chồng": "husband",
    "trà": "tea",
    # A unit, not a tree ("cây") or spicy ("cay"): "chạy 5 cây số" is "runs 5 km".
    "cây số": "km",
    "sống": "live",
}
_VIETNAMESE_WORDS = re.compile(
    r"(?<!\w)(" + "|".join(sorted(map(re.escape, _VIETNAMESE), key=len, reverse=True)) + r")(?!\w)", re.IGNORECASE
)
# Stopping a habit, said without "đã": quitting ("bỏ", "cai"), stopping ("thôi", "nghỉ", "ngưng", "dừng") a
# thing one does ("bỏ hút thuốc", "nghỉ tập gym rồi", "thôi uống bia") or quitting what one takes ("bỏ thuốc
# lá rồi", "cai cà phê"), or ceasing anything ("ngưng metformin"), is not doing it any more. Not what is put
# somewhere ("bỏ đường vào cà phê"), nor "thôi" ending a clause ("xài vim thôi" is only vim).
_HABIT_VERBS = r"hút|uống|ăn|chơi|tập|dùng|xài|nhậu|chạy|đi tập|đi bơi|bơi|ăn mặn|ăn thịt"
_TAKEN = r"thuốc|rượu|bia|cà phê|cafe|cf|trà|thịt|đường|đồ ngọt|nước ngọt|sữa|game|mạng xã hội|facebook"
_STOPPED_HABIT = re.compile(
    rf"(?<!\w)(?:(?:bỏ|cai|thôi|nghỉ|ngưng|dừng)(?=\s+(?:{_HABIT_VERBS})(?!\w))"
    rf"|(?:bỏ|cai)(?=\s+(?:{_TAKEN})(?!\w))"
    # "ngưng", "ngừng" stop whatever follows ("đã ngưng metformin"), but "không ngừng" is ceaselessly.
    r"|(?<!không )(?<!ko )(?:ngưng|ngừng)(?=\s+\w))(?![^,;.!?]*(?<!\w)(?:vào|ra|lại|xuống)(?!\w))",
    re.IGNORECASE,
)
# Selling what one has is having it no more: "đã bán xe máy", "sold his car" (not "bán 200 ly cà phê", what a shop
# sells). The words for one's things: vehicles, a home, devices.
_OWN_THINGS = (
    r"(?:xe|nhà|căn hộ|chung cư|điện thoại|laptop|máy tính"
    r"|car|motorbike|motorcycle|scooter|bike|house|flat|apartment|phone)"
)
_SOLD = re.compile(
    r"(?<!\w)(?:đã |has |had )?(?:bán|sold)(?: (?:chiếc|căn|cái|con|his|her|their|the|my|its))?(?= "
    + _OWN_THINGS
    + r"(?!\w))",
    re.IGNORECASE,
)
# Leaving a job is working there no more: "đã nghỉ việc ở Hải Vân Soft", "thôi làm ở FPT", "đã nghỉ ở Hải
# Vân Soft" (where a name follows: "nghỉ ở khách sạn" is a stay).
_LEFT_JOB = re.compile(r"(?<!\w)(?:nghỉ|thôi) (?:việc|làm)(?!\w)|(?<!\w)nghỉ(?= ở [A-ZĐ])", re.IGNORECASE)
# Vietnamese chat's short forms, folded, and the words they stand for.
CHAT_WORDS = {
    "ng": "nguoi",
    "sdt": "so dien thoai",
    "ko": "khong",
    "k": "khong",
    "hok": "khong",
    "khg": "khong",
    "dc": "duoc",
    "cf": "ca phe",
    "a": "anh",
    "c": "chi",
    "e": "em",
    "vs": "voi",
    "ny": "nguoi yeu",
    "j": "gi",
    "r": "roi",
    "cn": "chu nhat",
    "cty": "cong ty",
    "vp": "van phong",
    "sn": "sinh nhat",
    "kh": "khong",
    "nx": "nua",
    # And the names of places and people by their initials: "CLB" is "câu lạc bộ", "BV" "bệnh viện".
    "clb": "cau lac bo",
    "bv": "benh vien",
    "ktx": "ky tuc xa",
    "hdv": "huong dan vien",
    "bs": "bac si",
    "gv": "giao vien",
    "sv": "sinh vien",
}
# Honorifics, as written and folded: never a name, even capitalised where a sentence starts ("Chị Mai sống ở
# TP.HCM"; "Chi" is one), and as chat types them short ("a Khoi", "c Thao").
WRITTEN_HONORIFICS = frozenset("anh chị em bà ông cô chú bác thầy bé mr mrs ms miss dr".split())
HONORIFICS = frozenset(map(fold, WRITTEN_HONORIFICS))
SHORT_HONORIFICS = frozenset(short for short, word in CHAT_WORDS.items() if word in HONORIFICS)
_CHAT = re.compile(r"(?<![\w'’])(" + "|".join(sorted(CHAT_WORDS, key=len, reverse=True)) + r")(?![\w'’])")
_ORDINAL = re.compile(r"\b(\d+)(?:st|nd|rd|th)\b")
_CONTRACTION = re.compile(r"n['’]t\b")
# A number with a decimal point or comma, or one grouping thousands, is one word: "3,5 triệu" is not "3 triệu".
_NUMBER_SEPARATOR = re.compile(r"(?<=\d)[.,](?=\d)")
# A time of day, folded, on the 24-hour clock as Vietnamese writes it (``_HOUR``): the hour, then its minutes
# unless none: "4pm", "4 p.m." and "16:00" are "16"; "9:15am" and "quarter past nine" are "9 15".
# ("2 ấm trà" is two pots of tea: "am" apart from its hour must be written "a.m.").
_CLOCK = re.compile(r"\b(\d{1,2})(?:[:.](\d{2}))?(?:([ap])m\b| ?([ap])\.m\b\.?| (p)m\b)|\b(\d{1,2}):(\d{2})\b")
_HOURS_BY_NAME = {
    name: hour
    for hour, name in enumerate("zero one two three four five six seven eight nine ten eleven twelve".split())
}
_HOUR_WORD = r"(\d{1,2}|" + "|".join(_HOURS_BY_NAME) + ")"
_CLOCK_WORDS = re.compile(rf"\b(half|quarter) (past|to) {_HOUR_WORD}\b|\b{_HOUR_WORD} o['’]?clock\b")


def _clock(match):
    if match[1]:
        hour, minutes, half = int(match[1]), match[2], match[3] or match[4] or match[5]
    else:
        hour, minutes, half = int(match[6]), match[7], ""
    if half == "p" and 1 <= hour < 12:
        hour += 12
    elif half == "a" and hour == 12:
        hour = 0
    return f"{hour} {minutes}" if minutes and minutes != "00" else str(hour)


def _clock_words(match):
    if match[4]:
        hour = _HOURS_BY_NAME.get(match[4], match[4])
        return str(hour)
    hour = int(_HOURS_BY_NAME.get(match[3], match[3]))
    if match[2] == "to":
        return f"{(hour - 1) % 24} 45" if match[1] == "quarter" else match.group()
    return f"{hour} {30 if match[1] == 'half' else 15}"


_POSSESSIVE = re.compile(r"['’]s\b")


# An English verb's "-ing" form, written in lower case (a capital may start a name: "Beijing", "Reading").
_GERUND = re.compile(r"\b([a-z]+)ing\b")
# One vowel and then one consonant: a verb that lost its "e" ("smok", "us", "writ", "liv").
_LOST_E = re.compile(r"[^aeiou]*[aeiou][^aeiouwxy]")


# "-ing" words that are no verb's: "morning", "evening" (as "buổi sáng" and "buổi tối" are read).
_NO_VERB = frozenset(["morn", "even"])


def _verb(match):
    """The verb of an "-ing" form: "drinking" -> "drink", "smoking" -> "smoke", "running" -> "run", "using" ->
    "use"; "morning" and "evening" stay words of their own ("thing" and "spring" too; "meeting" is "meet"
    on both sides)."""
    stem = match.group(1)
    if len(stem) < 2 or not any(letter in "aeiou" for letter in stem) or stem in _NO_VERB:
        return match.group()
    if len(stem) > 2 and stem[-1] == stem[-2] and stem[-1] not in "aeiouslz":
        return stem[:-1]
    if stem.endswith("c") or _LOST_E.fullmatch(stem):
        return stem + "e"
    return stem


class Meaning(NamedTuple):
    """What a memory's text says: its folded words in order-free form, the words that say which fact it
    is (without the frame and the subject's own words), its polarity, and the folded text they come from."""

    words: tuple
    content: frozenset
    negated: bool
    folded: str
    named: frozenset = frozenset()
    instead: frozenset = frozenset()
    vietnamese: bool = False

    @property
    def order(self):
        """Its words in order (``sequence``), worked out when they are compared."""
        return sequence(self.folded)


# Whom something is done with, folded: the next three words at most.
_WITH = re.compile(r"\b(?:with|voi|cung)\s+((?:\w+(?:'s)?\s+){0,2}\w+)")


@dataclass(frozen=True)
class Variant:
    """A ``Meaning`` as ``same_fact`` and ``contradict`` compare it; the doctor keeps the ids of the memories
    of a block that share it."""

    words: tuple
    content: frozenset
    negated: bool
    folded: str = ""
    named: frozenset = frozenset()
    instead: frozenset = frozenset()
    vietnamese: bool = False
    ids: tuple = ()

    @functools.cached_property
    def word_set(self):
        return frozenset(self.words)

    @functools.cached_property
    def order(self):
        return sequence(self.folded)

    @functools.cached_property
    def companions(self):
        """Those one does something with, by who they are to another ("friend" in "has a few beers with his
        friends", "colleague" in "ăn trưa với colleague"): not whom the text speaks of."""
        if not self.content & states.PEOPLE:
            return frozenset()
        return frozenset(
            word for match in _WITH.finditer(self.folded) for word in words(match.group(1)) if word in states.PEOPLE
        )

    @functools.cached_property
    def preference(self):
        """``preference_sides`` of the text, as its words, or None."""
        sides = preference_sides(self.folded)
        return None if sides is None else tuple(frozenset(words(side)) for side in sides)


# Vietnamese negations that fold into other words: "cà chua" (tomato) is not "chưa" (not yet).
_MARKED_NEGATIONS = {"khong": "không", "chua": "chưa", "chang": "chẳng"}


def _negations_said(negations, text):
    """Of the negation words found in ``text`` (folded), those that negate it: in a text typed with diacritics,
    a Vietnamese negation written as another word is that word ("cà chua", "canh chua", "chàng trai")."""
    if not negations:
        return frozenset()
    written = {word.lower() for word in re.findall(r"\w+", text)}
    folded = {fold(word) for word in written}
    if folded == written:
        return frozenset(negations)  # typed without diacritics: "chua" may be "chưa"
    # A negation counts as written with its diacritics, or when no written word folds into it (it stands
    # for one: "đã bỏ" is "no longer").
    return frozenset(
        word
        for word in negations
        if word not in _MARKED_NEGATIONS or _MARKED_NEGATIONS[word] in written or word not in folded
    )


# Having moved to a place (a capitalised name, not a month or a day) is living there: "Khoa has moved to
# Đà Nẵng", "Vy đã chuyển vào Sài Gòn".
_PLACE_FOLLOWS = (
    r"(?=[A-ZĐ])(?!(?:January|February|March|April|May|June|July|August|September|October|November|December"
    r"|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)\b)"
)
# Leaving a named place or company is being there no more: "Khoi left Hai Van Soft last month" is "Anh Khôi đã
# nghỉ ở Hải Vân Soft" (not "left his phone", "turned left"; "left Hanoi for Saigon" is a move).
_LEFT_NAMED = re.compile(r"\b(?:[Hh]as |[Hh]ad )?left " + _PLACE_FOLLOWS + r"(?![^,;.!?]* for )")
# "Đừng" typed without marks before a verb of what one is asked to do ("dung xai emoji", "dung goi sau 10h"),
# not "dùng" (to use) in "người dùng" or "sử dụng", nor "đừng quên" (remember).
_DONT_TYPED_PLAIN = re.compile(
    r"(?<![\w'’])(?<!\bng )(?<!\bnguoi )(?<!\bsu )dung (?=(?:xai|dung|goi|nhan|nhac|hoi|gui|dat|noi|spam)\b)",
    re.IGNORECASE,
)
# A thing had without something in it is no denial: "nước không đường" is sugar-free water, "trà không đá" tea
# without ice ("không đá bóng" is not playing football).
_WITHOUT_VIETNAMESE = re.compile(
    r"(?<=[\w,] )(?:không|khong|ko) "
    r"(?=(?:đường|duong|cồn|béo|gluten|lactose|caffeine|cafein|đá(?! (?:bóng|banh)))(?!\w))",
    re.IGNORECASE,
)
_MOVED = re.compile(r"\b(?:(?:[Hh]as|[Hh]ave|[Hh]ad) )?(?:[Mm]oved|[Rr]elocated) to " + _PLACE_FOLLOWS)
_MOVED_VIETNAMESE = re.compile(
    r"(?<!\w)(?:[Đđ]ã )?(?:[Cc]huyển|[Dd]ọn)(?: nhà)? (?:vào|ra|đến|tới|về|lên|xuống) (?=[A-ZĐ])"
)
# What is chosen in place of something else, to the end of its clause: "Bali instead of Hokkaido"; what was
# left for something else: "switched from Neovim to VS Code", "thay Proxmox bằng Unraid".
_INSTEAD = re.compile(
    r"\b(?:instead of|rather than|thay vi)\b([^,;.!?]*)"
    r"|\b(?:switch(?:ed|es)?|mov(?:ed|es)|chang(?:ed|es)|migrat(?:ed|es)|chuyen) (?:\w+ )?(?:from|tu) "
    r"([^,;.!?]*?) (?:to|sang|qua)\b"
    # Dropped for another: "bỏ OM5451 rồi, chuyển qua sạ ST25", "bỏ Viettel đổi sang Vina".
    r"|\b(?:bo|quit|dropped) ([^,;.!?]*?)(?: roi| r)?,? (?:(?:va|and) )?(?:chuyen|doi|switched|moved)(?: han)?"
    r" (?:qua|sang|to)\b"
    r"|\b(?:replac(?:ed|es)|thay(?! vi)) ([^,;.!?]*?) (?:with|by|bang)\b"
    # Given one thing for another: "đổi iPhone 13 lấy Galaxy S24", "traded the Vision for an Air Blade".
    r"|\b(?:doi|trad(?:ed|es)|swap(?:ped|s)) ([^,;.!?]*?) (?:lay|for)\b"
)
# Words that say a state is new, so what was said of it before no longer holds: "User uses VS Code now".
_CHANGED = re.compile(
    r"\b(?:now|currently|these days|switched to|has switched|moved to|moved up to|got a raise|promoted to)\b"
    # A new value of something: "User's new phone number is …", "số mới là …", "sếp mới của người dùng là …".
    r"|\bnew \w+(?: \w+)? (?:is|are)\b|(?<!\w)\w+ mới (?:là|của)(?!\w)"
    # Left one thing for another: "switched from Vim to Emacs", "chuyển từ Vim sang Emacs".
    r"|\b(?:switched|migrated|moved|changed) (?:over )?from [^,;.!?]+? to\b"
    r"|(?<!\w)(?:bây giờ|hiện giờ|giờ đây|hiện tại|hiện nay|dạo này)(?!\w)"
    # Switched, with marks or without: "chuyển hẳn sang", "doi qua".
    r"|(?<!\w)(?:chuyển|đổi|chuyen|doi) (?:hẳn |han )?(?:sang|qua)(?!\w)"
    # From this month or the next on ("từ năm nay"); "now" after a comma ("…, giờ cận 2,5 độ"; "6 giờ" is an hour).
    r"|(?<!\w)(?:từ|tu) (?:tháng|tuần|năm|thang|tuan|nam) (?:này|sau|tới|nay|toi)(?!\w)"
    r"|\b(?:from|starting|as of) next (?:week|month|year)\b|(?<=[,;] )giờ(?! \d)(?!\w)"
    r"|(?<!\w)(?:chuyển|đổi) (?:hẳn )?từ [^,;.!?]+? sang(?!\w)|(?<!\w)đổi [^,;.!?]+? lấy(?!\w)"
    r"|\b(?:traded|swapped) [^,;.!?]+? for\b"
    r"|^\s*Giờ\b",
    re.IGNORECASE,
)


# Words that say something changed or stopped: when it did ("last month", "tháng trước") is not part of
# what changed, as a condition would be ("no coffee after 2pm").
_CHANGE = re.compile(
    r"\b(?:quit(?:s|ting)?|stopped|gave up|given up|no longer|cancell?ed|called off|switched|moved|changed"
    r"|relocated|left|broke up|split up|paid off|repaid|paid (?:\w+ ){0,3}back|retired|dropped)\b"
    r"|(?<!\w)(?:bỏ|ngừng|nghỉ|thôi|không còn|nữa|chuyển|đổi|dọn|chia tay|trả hết)(?!\w)",
    re.IGNORECASE,
)
_MONTH = "(?:" + "|".join(MONTHS) + ")"
_SPAN = r"(?:days?|weeks?|months?|years?)"
# Of the times below, those that are one occasion gone by: "did not go to the gym last week", "hôm qua không
# uống cà phê" deny that occasion, not a habit, unless something changed or stopped then ("quit last week").
_ONE_OCCASION_TIMES = (
    r"last (?:week|weekend|month|year|spring|summer|autumn|fall|winter|night)|yesterday"
    rf"|(?:a|one|two|three|four|five|six|several|a few|a couple of|\d+) {_SPAN} ago"
    r"|(?:tuan|thang|nam) (?:truoc|ngoai|roi)|nam ngoai|hom qua|(?:vai|mot|hai|ba|\d+) (?:ngay|tuan|thang|nam) truoc"
)
_ONE_OCCASION = re.compile(_ONE_OCCASION_TIMES)
# Folded, in both languages.
_WHEN_CHANGED = re.compile(
    rf"\b(?:{_ONE_OCCASION_TIMES}"
    r"|recently|lately"
    r"|(?:earlier )?this (?:week|month|year|spring|summer|autumn|fall|winter)"
    # Since when: a time ("Since September 2026 the user has done the books in Google Sheets"), or else to the
    # end of its clause ("since her knee injury", "hasn't touched one since").
    rf"|since (?:{_MONTH}(?: \d{{4}})?|\d{{4}}|\d{{1,2}}/\d{{1,2}}(?:/\d{{2,4}})?|(?:last|this) \w+)\b"
    r"|since\b[^,;.!?]*"
    # After something befell someone, to the end of its clause: "stopped playing badminton after he sprained his
    # ankle" (not "no coffee after 2pm").
    r"|after (?:he|she|they|i|we|his|her|their|my|the user|user)\b[^,;.!?]*"
    r"|sau khi bi\b[^,;.!?]*"
    rf"|in (?:{_MONTH}(?: \d{{4}})?|\d{{4}})"
    # A holiday: "at Tet 2027", "từ Tết".
    r"|(?:at|after|tu|sau) tet(?: \d{4})?"
    r"|(?:dao )?gan day"
    r"|tu (?:(?:tuan|thang|nam) (?:truoc|ngoai|\d+(?:/\d+)?)|\d{4}|dau nam)"
    # "từ khi bị mất ngủ", "kể từ lúc chuyển nhà": since, to the end of its clause.
    r"|(?:ke )?tu (?:khi|luc|hoi)\b[^,;.!?]*"
    r"|(?:vai|mot|hai|ba|\d+) (?:ngay|tuan|thang|nam) nay"
    # How long since: "bỏ thuốc lá được 6 tháng rồi", typed "đc 6 tháng r".
    r"|(?:duoc|dc) (?:vai|mot|hai|ba|\d+) (?:ngay|tuan|thang|nam)(?: roi| r)?)\b"
)


def _on_one_occasion(folded):
    """Whether every time ``folded`` (a denial) says when with is one occasion gone by."""
    times = [match.group() for match in _WHEN_CHANGED.finditer(folded)]
    return bool(times) and all(_ONE_OCCASION.fullmatch(time) for time in times)


# Why something stopped or is not done, to the end of its clause, is not what stopped either: "stopped running
# because of knee pain", "no longer eats meat for health reasons", "đã bỏ cà phê do mất ngủ", "không ăn thịt
# vì lý do sức khỏe" ("thay vì" is instead of, "tự do" freedom, "lý do" a reason's own word).
_WHY = re.compile(r"\b(?:because|due to|owing to)\b[^,;.!?]*|\bfor (?:\w+ ){0,2}reasons?\b", re.IGNORECASE)
_WHY_VIETNAMESE = re.compile(
    r"(?<!\w)(?:bởi vì|tại vì|bởi|(?<!thay )vì|(?<!tự )(?<!lý )do)(?!\w)[^,;.!?]*|" + _WHY.pattern, re.IGNORECASE
)


# A denial, folded: since when it holds is not what it denies ("has not run at all since her knee injury").
_DENIAL = re.compile(r"\b(?:not|never|khong|chua|ko)\b")


# ``_GATED``'s hint and rules for a value gone up or down, which ``says_changed`` reads too.
_VALUE_CHANGE_HINT, _VALUE_CHANGES = next(gated for gated in _GATED if gated[0].pattern == _VALUE_CHANGED_HINT)


# A plan moved to another time, folded (``_GATED``'s rules for it): its time is new.
_MOVED_IN_TIME = re.compile(
    "|".join((_RESCHEDULED, _PLAN_RESCHEDULED, _RESCHEDULED_VIETNAMESE, _PLAN_RESCHEDULED_VIETNAMESE))
)


@functools.lru_cache(maxsize=65_536)
def says_changed(text):
    """Whether ``text`` says that what it states is new ("now", "switched to", "hiện tại", "giờ"), that a
    value went up or down to another ("rose to 55 million", "tăng lên 10 triệu": ``_VALUE_CHANGED``), or that a
    plan was moved to another time ("has been moved to 22 December", "đổi qua 22/12")."""
    if _CHANGED.search(text):
        return True
    folded = _folded(text)
    if _VALUE_CHANGE_HINT.search(folded) and any(pattern.search(folded) for pattern, _ in _VALUE_CHANGES):
        return True
    return bool(_MOVED_IN_TIME.search(folded))


# A word as a name is written: letters, and digits with them ("OM5451", "ST25"); two letters at least.
_NAME_WORD = re.compile(r"[^\W_]+")
_LETTERS = re.compile(r"[^\W\d_]")


def _named_words(text):
    """The folded words of ``text`` that name someone or something: capitalised inside a sentence, or in
    capitals or with a capital inside wherever they are ("VS", "LaTeX", "VSCode"). (``words.words_placed``
    without placing every word: most are in lower case.)"""
    named, previous_end = set(), None
    for match in _NAME_WORD.finditer(text):
        word = match.group()
        if len(_LETTERS.findall(word)) > 1 and not word.islower():
            first = previous_end is None or bool(SENTENCE_END.search(text, previous_end, match.start()))
            if not first or spelt_as_a_name(word):
                named.add(fold(word))
        previous_end = match.end()
    return frozenset(named)


def own_words(*labels):
    """The words of a memory's subject and kind (``subject_slug`` read as words), which say nothing of which
    fact of that subject it states."""
    return frozenset(words(" ".join(labels).replace("_", " ")))


# Days of the week, folded: "thứ 3", "T3", "thứ Ba" and "Tuesday" are one day; "thứ 2, 4 và 6", "t2 t4 t6"
# three; "Chủ nhật", "CN" Sunday. Not an ordinal: "con thứ hai" is a second child, "lần thứ ba" a third time.
_WEEKDAYS_SET = frozenset(WEEKDAYS)
_DAY_HINT = re.compile(r"\b(?:thu|t\s*[2-7]|chu nhat|cn)\b")
_NOT_A_DAY = r"(?<!\bcon )(?<!\blan )(?<!\bnguoi )(?<!\bdua )(?<!\bhang )(?<!\btang )(?<!\blop )"
_DAY_LIST = re.compile(_NOT_A_DAY + DAYS_BY_NUMBER)
_DAY_WORD = re.compile(_NOT_A_DAY + DAY_BY_NAME)


# An hour as Vietnamese writes it, folded: "6h30", "6h", "6 rưỡi" ("6 giờ rưỡi"); with the part of the day
# ("6 giờ sáng", "4 giờ chiều", "10 giờ tối", "1 giờ đêm").
_DIGIT = re.compile(r"\d")
_HOUR = re.compile(r"\b(\d{1,2})h(\d{2})?\b")
HALF_PAST = re.compile(r"\b(\d{1,2}) (?:gio )?ruoi\b")
_HOUR_OF_DAY = re.compile(r"\b(\d{1,2})(?: gio)?((?: \d{2})?) (sang|trua|chieu|toi|dem|khuya)\b")


def _hour_of_day(match):
    """An hour said with the part of the day on the 24-hour clock, as "4pm" is: "4 chieu" and "4 gio chieu"
    are "16", "1 gio sang" is "1", "11 gio dem" is "23", "1 gio trua" is "13"."""
    hour, part = int(match.group(1)), match.group(3)
    if part in ("chieu", "toi") and 1 <= hour < 12:
        hour += 12
    elif part == "trua" and 1 <= hour < 5:
        hour += 12
    elif part in ("dem", "khuya") and 7 <= hour < 12:
        hour += 12
    elif part in ("sang", "dem", "khuya") and hour == 12:
        hour = 0
    return f"{hour}{match.group(2)}"


def _weekdays(folded):
    """A folded Vietnamese text with its days of the week written as English names (``WEEKDAYS``)."""
    folded = _DAY_LIST.sub(
        lambda match: " ".join(WEEKDAYS[int(day) - 2] for day in re.findall(r"[2-7]", match.group(1))), folded
    )
    return _DAY_WORD.sub(
        lambda match: WEEKDAYS[VIETNAMESE_WEEKDAYS[match.group(1)] - 2] if match.group(1) else "sunday", folded
    )


def _folded(text):
    """``text`` folded, "n't" as "not", "3rd" as "3", "3,5" as one word, a time of day on the 24-hour clock, an
    amount and a phone number as one number of digits ("8 triệu" and "8,000,000" are "8000000")."""
    folded = _ORDINAL.sub(r"\1", _CONTRACTION.sub(" not", fold(text)))
    if "past" in folded or "clock" in folded or "quarter" in folded:
        folded = _CLOCK_WORDS.sub(_clock_words, folded)
    if _DIGIT.search(folded):
        folded = _NUMBER_SEPARATOR.sub("_", amounts_in_digits(_CLOCK.sub(_clock, folded)))
    return folded


# Someone free of a thing is without it, a denial: "has been smoke-free since 2022", "stays alcohol-free for
# Lent"; a thing free of another is no denial ("sugar-free drinks", "a smoke-free flat").
_FREE_OF = re.compile(r"\b([a-z]+)-free\b(?=\s*(?:[,.;!?]|$|since\b|for\b|now\b|from\b|after\b|until\b))")


# A label a note starts with says nothing of the fact: "Ghi nhớ: …", "Lưu ý: …", "Note: …".
_LABEL = re.compile(r"^\s*(?:ghi nhớ|ghi nho|lưu ý|luu y|note|nb|fyi)\s*:\s*", re.IGNORECASE)


@functools.lru_cache(maxsize=4096)
def meaning(text, subject="", kind=""):
    """The ``Meaning`` of a memory of this subject and kind; a thing it names by another of its names is read
    by the one it is known by (``states.one_name``: "Postgres" is PostgreSQL)."""
    text = _LABEL.sub("", states.one_name(text))
    vietnamese = language_of(text) == VIETNAMESE
    if vietnamese:
        text = counts_in_digits(text)
    written = text
    lowered = text.lower()
    if "moved" in lowered or "relocated" in lowered:
        text = _MOVED.sub(" lives in ", text)
    if "chuyển" in lowered or "dọn" in lowered:
        text = _MOVED_VIETNAMESE.sub(" sống ở ", text)
    if "bán" in lowered or "sold" in lowered:
        text = _SOLD.sub(" không có " if vietnamese else " no longer has ", text)
    if vietnamese:
        text = _LEFT_JOB.sub("không làm việc", _STOPPED_HABIT.sub("không", text))
        if "kh" in lowered or "ko" in lowered:
            text = _WITHOUT_VIETNAMESE.sub("without ", text)
        if "dung " in lowered:
            text = _DONT_TYPED_PLAIN.sub("không ", text)
    elif "left" in lowered:
        text = _LEFT_NAMED.sub("quit ", text)
    text = _VIETNAMESE_WORDS.sub(lambda match: f" {_VIETNAMESE[match.group(1).lower()]} ", text)
    if not vietnamese:
        if "-free" in lowered:
            text = _FREE_OF.sub(r"not \1", text)
        # "User quit smoking" denies "User smokes": a verb is one word however it is written.
        text = _GERUND.sub(_verb, text)
    folded = _folded(text)
    changed = bool(_CHANGE.search(written))
    if changed or _DENIAL.search(folded):
        why = _WHY_VIETNAMESE if vietnamese else _WHY
        if why.search(text):
            folded = _folded(why.sub(" ", text))
        if changed or not _on_one_occasion(folded):
            folded = _WHEN_CHANGED.sub(" ", folded)
    if vietnamese:
        # Chat writes the commonest words short: "ng dung" is "nguoi dung", "ko" is "khong".
        folded = _CHAT.sub(lambda match: CHAT_WORDS[match.group(1)], folded)
        if _DAY_HINT.search(folded):
            folded = _weekdays(folded)
        if _DIGIT.search(folded):
            # An hour as Vietnamese writes it, "6h30", "6h", "6 rưỡi", is the hour and its minutes, as "6 giờ 30";
            # with the part of the day, the hour of the 24-hour clock: "4 rưỡi chiều" is "16 30", as "4:30pm" is.
            folded = _HOUR.sub(lambda match: " ".join(filter(None, match.groups())), HALF_PAST.sub(r"\1 30", folded))
            folded = _HOUR_OF_DAY.sub(_hour_of_day, folded)
    for hint, rules in _GATED:
        if hint.search(folded):
            for pattern, replacement in rules:
                folded = pattern.sub(replacement, folded)
    for pattern, replacement in _SYNONYMS + _VIETNAMESE_SYNONYMS if vietnamese else _SYNONYMS:
        folded = pattern.sub(replacement, folded)
    # The order keeps whose a thing is ("Lan's boss"); the words do not.
    all_words = words(_POSSESSIVE.sub("", folded))
    own = own_words(subject, kind)
    # Folded Vietnamese "no" is "nợ" (owes), "no" (full) or "nó" (it), never "not".
    negations = VIETNAMESE_NEGATIONS if vietnamese else _NEGATIONS
    # Memories do not say "not unlike": one negation or two ("has given up badminton and no longer plays")
    # is a negated fact.
    said = _negations_said([word for word in all_words if word in negations], written)
    negated = bool(said)
    frame = _frame_of(written, vietnamese)
    content = frozenset(w for w in all_words if w not in frame and w not in said and w not in own)
    instead = frozenset(
        word
        for match in _INSTEAD.finditer(folded)
        for word in words(next(group for group in match.groups() if group is not None))
        if word in content
    )
    # A word a synonym read as another ("WFH" is "remote") names nothing.
    named = _named_words(written) & frozenset(re.findall(r"\w+", folded))
    if vietnamese:
        # A day of the week is a name, as English writes it ("thứ Tư" is "Wednesday").
        named |= _WEEKDAYS_SET & frozenset(re.findall(r"\w+", folded))
    return Meaning(tuple(all_words), content, negated, folded, named, instead, vietnamese)


def _typo_partner(word, others, names=frozenset()):
    """Whether ``word`` is a typo of one of ``others`` (words that may be typos); short words and numbers
    must match exactly, and a name among ``names`` differs by a slip at most (``_slip_of``)."""
    if not may_be_typo(word):
        return False
    if names and (word in names or not names.isdisjoint(others)):
        return any(_typo_between(word, other, names) for other in others)
    return any(abs(len(word) - len(other)) <= 2 and typo_of(word, other) for other in others)


def _one_stem(a, b):
    """``a`` and ``b`` are forms of one word, as far as spelling tells: "learn" / "learning", "book" /
    "booking"."""
    return len(os.path.commonprefix((a, b))) >= 4


def _told_apart(senses, single_word_phrases):
    """The English words of a syllable (``senses``) that Vietnamese tells apart: each is all a longer phrase
    holding the syllable says (``single_word_phrases``: those phrases' one English word each), and no form of
    another of them ("xanh dương" is blue, "xanh lá" green, "đàn piano" the piano, "đàn guitar" the guitar;
    "dịch thuật" translation is "dịch sang" translate). Two of them are two things, not synonyms; fewer than
    two, none is."""
    told = {
        word
        for word in single_word_phrases
        if word in senses and not any(_one_stem(word, other) for other in senses if other != word)
    }
    return told if len(told) > 1 else set()


@functools.cache
def _synonyms():
    """Each English word the lexicon gives for a Vietnamese word (a key of one syllable) -> the keys giving it.
    A phrase's words each translate a part of it ("cà phê sữa": coffee, milk); a word's are synonyms: "study"
    and "learn" are both "học", "hate" and "dislike" both "ghét". (Vietnamese words giving one English word
    are not: a syllable has many meanings, "bún" and "phở" are both noodles.) Nor are the words of a syllable
    that Vietnamese tells apart (``_told_apart``): "xanh" is blue or green, one or the other; each is still
    a synonym of the syllable's other words."""
    # The one English word of each phrase of several syllables that gives one, by each of its syllables.
    single = {}
    for phrase, english in LEXICON.items():
        if " " in phrase and len(english) == 1:
            for syllable in phrase.split():
                single.setdefault(syllable, set()).add(english[0])
    found = {}
    for phrase, english in LEXICON.items():
        if " " not in phrase:
            apart = _told_apart(english, single.get(phrase, ()))
            for word in english:
                if word in apart:
                    found.setdefault(word, set()).add(f"{phrase}/{word}")
                else:
                    found.setdefault(word, set()).update([phrase, *(f"{phrase}/{other}" for other in apart)])
    return {word: frozenset(phrases) for word, phrases in found.items()}


def _translating(word):
    """The Vietnamese words the lexicon gives ``word`` for (``_synonyms``), or its form without a past
    tense's "-ed" ("learned")."""
    synonyms = _synonyms()
    found = synonyms.get(word)
    if found is None and word.endswith("ed") and len(word) > 4:
        found = synonyms.get(word[:-2]) or synonyms.get(word[:-1])
    return found or frozenset()


@functools.lru_cache(maxsize=65_536)
def _senses(word):
    """What ``word`` may be a synonym by (``_translating``): nothing for a number or a word for whom someone
    is to another (two relatives are two people)."""
    if word in states.PEOPLE or _with_digits((word,)):
        return frozenset()
    return _translating(word)


def synonym_of(a, b):
    """``a`` and ``b`` are English words the lexicon gives for one Vietnamese word (``_synonyms``), neither of
    them a number nor a word for whom someone is to another (two people)."""
    return a != b and bool(_senses(a) & _senses(b))


def _partner(word, others, names=frozenset()):
    """Whether ``word`` is one of ``others`` written with a typo (a name among ``names`` with a slip) or said
    with a synonym (``synonym_of``)."""
    if _typo_partner(word, others, names):
        return True
    senses = _senses(word)
    return bool(senses) and any(senses & _senses(other) for other in others if other != word)


def _said(word, mine, theirs, others, names=frozenset()):
    """Whether ``word`` of ``mine`` is said by ``theirs``: as it is, as a typo or a synonym of one of ``others``
    (their words that are not ``mine``; a name among ``names`` with a slip), or written apart or together
    (``_compound``)."""
    return word in theirs or _partner(word, others, names) or _compound(word, mine, theirs)


def _unmatched(mine, theirs, limit):
    """Words of ``mine`` that ``theirs`` does not say (``_said``); once more than ``limit`` are found, the rest
    are not looked for."""
    others = list(theirs - mine)
    unmatched = set()
    for word in mine - theirs:
        if not _said(word, mine, theirs, others):
            unmatched.add(word)
            if len(unmatched) > limit:
                break
    return unmatched


def words_in_common(a, b, aside=frozenset()):
    """``(said, of)``: of the content words of ``a`` (Variants) that are no name, number, honorific, word for
    whom someone is to another or word of ``aside`` (names, words of when), how many ``b`` says too (``_said``)."""
    mine = a.content - a.named - aside - states.PEOPLE - _SAYS_NOTHING - {"older", "younger"}
    mine = {word for word in mine if not _with_digits((word,))}
    theirs = b.content - b.named
    others = list(theirs - mine)
    return sum(_said(word, mine, theirs, others) for word in mine), len(mine)


def _contained(smaller, larger, names=frozenset()):
    """Every word of ``smaller`` is said by ``larger`` (``_said``; a name among ``names`` with a slip at most)."""
    others = list(larger - smaller)
    return all(_said(word, smaller, larger, others, names) for word in smaller - larger)


def _compound(word, mine, theirs):
    """Whether ``word`` of ``mine`` is one that ``theirs`` writes as two ("homelab" / "home lab"), or half of
    one that it writes as one ("home" with "lab" / "homelab"); each half has two letters at least."""
    if not word.isalpha():
        return False
    size = len(word)
    for other in theirs:
        if len(other) > size + 1 and (
            (other.startswith(word) and other[size:] in mine) or (other.endswith(word) and other[:-size] in mine)
        ):
            return True
    return size > 3 and any(word[:cut] in theirs and word[cut:] in theirs for cut in range(2, size - 1))


def _restricted(order, kept):
    """The tokens of ``order`` whose word is in ``kept``, with the owner and the marks between them; whose a
    thing is counts only when that thing is kept ("User's birthday is on 12 March" / "born on March 12")."""
    tokens = []
    for index, token in enumerate(order):
        if token == JOINT:
            if tokens and tokens[-1] != JOINT:
                tokens.append(token)
        elif token == IS or _base(token) in kept or _base(token) == OWNER:
            following = order[index + 1] if index + 1 < len(order) else ""
            if token.endswith(POSSESSIVE) and _base(following) not in kept:
                token = _base(token)
            tokens.append(token)
    if tokens and tokens[-1] == JOINT:
        tokens.pop()
    return tuple(tokens)


def same_fact(a, b):
    """``a`` and ``b`` (Variants) state the same fact: one's content is all found in the other's, and the
    words they both have are in the same order (``same_order``: "Lan owes Minh" is not "Minh owes Lan"); or
    one states what the other denies a kind to (``_state_denied``: "Tuấn is teetotal" / "Tuấn doesn't drink
    alcohol")."""
    if a.negated != b.negated:
        return state_and_denial(a, b)
    if another_relative(a.content, b.content):
        return False
    # One thing preferred to another is not the other preferred to it: "prefers tea over coffee" / "prefers
    # coffee to tea".
    if a.preference is not None and b.preference is not None and preferred_the_other_way(a.preference, b.preference):
        return False
    # What one left for something else is not what the other still says: "User switched from Android to
    # iPhone" is not "User uses Android".
    if _left_for_another(a, b) or _left_for_another(b, a):
        return False
    renames = _typo_renames(a.words, b.words, a.named | b.named)
    if renames is not None and _said_alike(a.order, b.order, renames):
        return True
    smaller, larger = sorted((a.content, b.content), key=len)
    if not (smaller and _contained(smaller, larger, a.named | b.named)):
        return False
    shared = a.word_set & b.word_set
    return same_order(_restricted(a.order, shared), _restricted(b.order, shared))


# The Vietnamese words read with an English one beside them (``_VIETNAMESE``: "thịt meat", "bia beer"), folded:
# {"thit": "meat", …}.
_TWINS = {
    fold(written): read.split()[1]
    for written, read in _VIETNAMESE.items()
    if len(read.split()) == 2 and read.split()[0] == written
}
# Kinds a verb said alone names: "Tuấn doesn't drink" is "Tuấn is teetotal" ("doesn't drink coffee" is not:
# coffee is more said).
_NAMED_BY_ITS_VERB = {"alcohol": frozenset({"drink", "uong"})}
# What a denial of a kind says beyond the kind in Vietnamese: those words, and alcohol's own ("rượu").
_KIND_SAID_IN_VIETNAMESE = frozenset(_TWINS) | {"ruou"}


def state_and_denial(a, b):
    """One of ``a`` and ``b`` (Variants) states what the other denies a kind to (``_state_denied``): one fact."""
    return _state_denied(a, b) or _state_denied(b, a)


def _state_denied(state, denial):
    """``state`` says one state that rules a kind out (``states.RULES_OUT``: vegetarian, teetotal, single) and
    ``denial`` denies that kind itself, of the same one and nothing more: "User is vegetarian" / "User never
    eats meat", "Tuấn is teetotal" / "Tuấn doesn't drink alcohol", "Người dùng ăn chay" / "Người dùng không
    ăn thịt", "Lan is single" / "Lan is not married"; in either language ("Người dùng ăn chay" / "User doesn't
    eat meat"). Denying one thing of the kind ("does not eat beef"), or
    on some days ("does not eat meat on Mondays"), is no state."""
    if state.negated or not denial.negated:
        return False
    held = states.states(state.content)
    ruled = states.kinds_ruled_out(held)
    by_verb = any(denial.content & _NAMED_BY_ITS_VERB.get(kind, frozenset()) for kind in ruled)
    if len(held) != 1 or not (denial.content & ruled or by_verb):
        return False
    # Whatever else the denial says (a thing of the kind, a time) makes it no state.
    said = denial.content - ruled - _DOING - _KIND_SAID_IN_VIETNAMESE - HONORIFICS
    return said == state.content - held - HONORIFICS


def _someone_else(content_a, content_b, kept=frozenset()):
    """One speaks of someone by who they are to another (``states.PEOPLE``: "wife", "mother") and the other
    of no one so: "User likes tea" is not "User's mother likes tea" (but "two sons" / "one daughter" may be
    one fact with two values). ``kept``: such words that do not count."""
    people_a, people_b = content_a & states.PEOPLE - kept, content_b & states.PEOPLE - kept
    if bool(people_a) == bool(people_b):
        return False
    named, other = (people_a, content_b) if people_a else (people_b, content_a)
    # "sisster" is the sister.
    return not any(typo_of(word, person) for word in other for person in named)


def _introducing(variant, other):
    """The words of ``variant`` naming who someone is to another just before their name, which ``other`` says
    too: "Minh's sister Nga still owes the couple 30 million" speaks of Nga, as "Nga paid the 30 million back"
    does, not of someone's sister."""
    order = variant.order
    return frozenset(
        word
        for word, following in zip(order, order[1:])
        if word in states.PEOPLE and following in variant.named and following in other.content
    )


# Words naming someone by who they are to another, a relative by marriage among them ("mother inlaw").
_RELATIVES = states.PEOPLE | {"inlaw"}


def another_relative(content_a, content_b):
    """One speaks of someone by a relation the other does not say (``_RELATIVES``): "Mẹ vợ người dùng", the
    mother of the user's wife, is not "Mẹ người dùng", nor "User's sister's husband" the user's husband, nor
    "User's mother likes tea" "User likes tea" (``_someone_else``, which this holds). A relation one spells
    wrong is the other's ("sisster")."""
    for mine, theirs in ((content_a, content_b), (content_b, content_a)):
        for person in (mine - theirs) & _RELATIVES:
            if not any(typo_of(word, person) for word in theirs - mine):
                return True
    return False


# Times of day and the week, in English and folded Vietnamese.
_TIMES = frozenset("morning afternoon evening night day week weekend sang chieu toi dem ngay tuan".split())
# Words a clause may deny that name no thing: honorifics, times of day and the week.
_NO_THING = HONORIFICS | _TIMES
# Words saying when (with numbers: "2x", "16").
# Days of the week and months, which are values a fact gives.
_CALENDAR_WORDS = frozenset(WEEKDAYS) | frozenset(MONTHS)
_WHEN = _TIMES | frozenset("month year every thang nam hang moi".split()) | _CALENDAR_WORDS
WHEN_WORDS = _WHEN


def _denies_a_thing(denied, named):
    """What a clause denies names a thing: a name ("Figma"), or a word that is no verb of doing, honorific or
    time ("metformin", not "drink", "chị" or "morning")."""
    return bool(denied & named or denied - _DOING - _NO_THING)


# Words a listed item does not hold, nor the item a denial lists first: a verb of doing or using, a
# negation, the owner, "is".
_NO_ITEM = _DOING | _ALL_NEGATIONS | frozenset(["use", "dung", "xai", "smoke", "hut", OWNER, IS])


def _listed(part, content):
    """``part`` (the words between two joints) is one more item of a list, not a clause: a few words that
    say something, none a verb of doing, a negation, the owner or "is" ("beef" in "does not eat pork or
    beef", "thịt bò" in "không ăn thịt heo và thịt bò"; not "text her instead")."""
    said = set(map(_base, part))
    return 0 < len(part) <= 4 and said <= content and not _NO_ITEM.intersection(said)


def _negations(variant):
    """The negations of ``variant``'s language: folded Vietnamese "no" is "nợ" (owes), never "not"."""
    return VIETNAMESE_NEGATIONS if variant.vietnamese else _NEGATIONS


def _clauses(variant):
    """The clauses of ``variant``'s words from one joint to the next, each with the items a denying clause
    lists after its first ("does not eat pork or beef": ("@ not eat pork", [("beef",)]))."""
    clauses, negations, content = [], _negations(variant), variant.content
    for part in _split(variant.order, JOINT):
        if clauses and negations.intersection(clauses[-1][0]) and _listed(part, content):
            clauses[-1][1].append(part)
        else:
            clauses.append((part, []))
    return clauses


def _first_item(clause, content, longest):
    """The words a denying ``clause`` ends with that are its list's first item: content words after its verb,
    as many as the longest item after it at most ("pork" in "does not eat pork or beef")."""
    item = set()
    for token in reversed(clause[-longest:]):
        word = _base(token)
        if word in _NO_ITEM or word not in content:
            break
        item.add(word)
    return item


def _clause_denials(variant):
    """What each clause of a negated ``Variant`` that holds the negation denies ("moved its backend to
    Supabase and no longer uses Firebase" denies Firebase), and what it denies of each item it lists ("does
    not eat pork or beef" denies eating beef)."""
    clauses, negations = _clauses(variant), _negations(variant)
    if len(clauses) > 1 or clauses[0][1]:
        for clause, items in clauses:
            if not negations.intersection(clause):
                continue
            denied = variant.content.intersection(_base(token) for token in clause)
            yield denied
            if items:
                head = denied - _first_item(clause, variant.content, max(map(len, items)) + 1)
                for item in items:
                    yield head | variant.content.intersection(_base(token) for token in item)


def set_aside(text):
    """The words of ``text`` for what it leaves for something else ("thay vì Hokkaido") or denies in a clause of
    its own ("reminders on Telegram, not Zalo"), the words it says besides, and its names: ``(aside, said,
    named)``."""
    variant = variant_of(text, "", "")
    denied = frozenset().union(*_clause_denials(variant)) if variant.negated else frozenset()
    aside = (variant.instead | denied) - _DOING - _SAYS_NOTHING
    return aside, variant.content - aside, variant.named


def _of_one_person(negated, positive, denied):
    """A clause of ``negated`` denying ``denied`` speaks of whom ``positive`` does: the two say more alike than
    what is denied, or the clause says whose it is (more than a thing and a verb of doing it: "Long has never
    had asthma or any breathing problems" / "Long has mild asthma"), or both are of the owner ("The user
    stopped running in October and has no plans to pick it back up" / "User runs 5 km every Saturday")."""
    return bool(
        (negated.content - denied) & positive.content
        or len(denied - _DOING) > 1
        or (_of_owner(negated) and _of_owner(positive))
    )


def _left_for_another(a, b):
    """``a`` names as left, or passed over, something ``b`` says, which ``b`` does not: "switched from
    Android to iPhone" / "uses Android"."""
    return bool(a.instead & b.content) and not b.instead


def _chosen_instead(a, b, has_subject):
    """``a`` chooses something in place of a thing it names that ``b`` says, of one subject, saying more
    alike, or when that thing is all ``b`` says: "Chị Thảo đổi ý, đi Bali hưởng tuần trăng mật thay vì
    Hokkaido" / "Tuần trăng mật của chị Thảo là ở Hokkaido"; "User switched from Neovim to VS Code" /
    "Neovim is the main editor"; "User switched from Android to iPhone" / "User uses Android", "… an Android
    phone" (what follows a name is of it), "Người dùng chuyển từ Grab sang Be" / "Người dùng hay đi Grab"."""
    if not _left_for_another(a, b):
        return False
    following = {b.order[index + 1] for index, token in enumerate(b.order[:-1]) if token in a.instead}
    if b.content - following - _DOING <= a.instead:
        return True
    return bool(
        a.instead & a.named
        and _contained(a.instead, b.content)
        and (has_subject or (a.content - a.instead) & b.content)
    )


def _of_owner(variant, whose=False):
    """``variant`` speaks of the owner, as who it is about ("User eats beef"), or, when ``whose``, also as whose
    someone is ("Lan is the user's wife")."""
    return OWNER in variant.order or whose and f"{OWNER}{POSSESSIVE}" in variant.order


def _clauses_affirmed(variant):
    """The words of each clause of ``variant`` that holds no negation (the items a denial lists are
    denied)."""
    negations = _negations(variant)
    for clause, _items in _clauses(variant):
        said = {_base(token) for token in clause}
        if not said & negations:
            yield said


def _stated(variant):
    """The content words of ``variant`` that state a state: those of a clause stating one without a negation
    ("Long is single and not seeing anyone", "Vinh is divorced and lives alone": "long", "single"), all of
    them when no clause alone does; none when the state is denied ("User is not vegetarian")."""
    said = None
    # Most texts state no state: their clauses are not looked for.
    if states.states(variant.content):
        said = next((said for said in _clauses_affirmed(variant) if states.states(said)), None)
    if said is None:
        return frozenset() if variant.negated else variant.content
    return variant.content & said


def _affirmed(variant):
    """The content words of ``variant`` outside a clause with a negation: what it says is so ("User does not
    eat beef" affirms no beef)."""
    if not variant.negated:
        return variant.content
    return variant.content & set().union(*_clauses_affirmed(variant))


def _rules_out(a, b):
    """``a`` states of someone what rules out what ``b`` says of them: "User is vegetarian" / "User eats beef
    phở every week", "User is single" / "Lan is the user's wife". Both say it of the same person: the one
    ``a`` names is named in ``b``; else both speak of the owner ("User's wife Lan eats beef" is not of the
    owner, but "the user's wife" is the owner's partner)."""
    content = _stated(a)
    ruled = states.ruled_out(content, _affirmed(b))
    if not ruled:
        return False
    # The partner a state rules out is someone else by name: "single" / "the user's wife". Those one does
    # something with are not whom it is said of: "Tuấn is teetotal" / "Tuấn has a few beers with his friends".
    if _someone_else(content, b.content - b.companions, kept=states.PEOPLE & states.words_of(ruled)):
        return False
    # A state said with more ("eats vegetarian on the 1st and 15th of each lunar month") is not one that
    # rules out for good.
    said = content - states.states(content) - a.named
    if not _contained(said - _SAYS_NOTHING if a.vietnamese else said, b.content):
        return False
    # A name starting the text is written as any first word is: "Long ăn chay thuần" / "Sáng nào Long cũng
    # ăn phở bò", "a Vinh ly hon r" / "Vinh đã có vợ".
    if a.named:
        return a.named <= b.named | _whom(b)
    if b.named & a.content:
        return True
    # Both starting with one name: "Vinh is divorced" / "Vinh is married; his wife's name is My Duyen".
    whom = _whom(a)
    if whom == _whom(b) and a.content & b.content & whom:
        return True
    return _of_owner(a) and _of_owner(b, whose=ruled <= states.PARTNERS)


def denies(a, b, has_subject):
    """One of ``a`` and ``b`` (Variants) denies what the other says: a negation of all it says, a thing chosen
    instead of one it says, a state that rules it out. ``contradict`` without a slot given two values."""
    if _chosen_instead(a, b, has_subject) or _chosen_instead(b, a, has_subject):
        return True
    # A state rules out whatever else either text denies: "User is single and not seeing anyone".
    if _rules_out(a, b) or _rules_out(b, a):
        return True
    if a.negated == b.negated:
        return False
    if _someone_else(
        a.content - a.named - a.companions - _introducing(a, b), b.content - b.named - b.companions - _introducing(b, a)
    ):
        # "User has no food allergies" / "User's wife is allergic to shrimp"; a name is nobody's relation
        # ("Sơn Trà" is a district).
        return False
    # What is denied is all said by the other: "does not drink coffee anymore" against "drinks a black
    # coffee at 7:30am", or is the kind of what it names ("has no pets" / "has a cat named Mochi"). A
    # denial that says more ("no coffee after 2pm") denies less than "likes coffee".
    negated, positive = (a, b) if a.negated else (b, a)
    # An honorific or a particle one side has is no more of what is denied: "Chị Mai rất ghét sầu riêng" /
    # "Mai mê sầu riêng".
    says_nothing = _SAYS_NOTHING - positive.content if negated.vietnamese else frozenset()
    # Nor is a Vietnamese word kept beside its English one ("thịt meat"): "không ăn thịt" / "ăn phở bò".
    says_nothing |= {word for word, english in _TWINS.items() if english in negated.content} - positive.content
    denied_all = negated.content - says_nothing
    if denied_all and _contained(denied_all, states.with_kinds(positive.content)):
        return True
    # A denial in one clause ("Bếp Nhà moved its backend to Supabase and no longer uses Firebase"), of
    # what the other says, in a text that says all the other says ("The backend of Bếp Nhà is
    # Firebase"), or of a thing it names when the two say more alike ("Chị Thảo thiết kế UI bằng Figma"
    # / "Chị Thảo đã chuyển hẳn sang Sketch, không dùng Figma nữa").
    covers = bool(positive.content) and _contained(positive.content, negated.content)
    # A kind denied in one clause denies each thing of it: "Trang has no pets; her building bans them" /
    # "Trang has a corgi named Bơ".
    named = states.with_kinds(positive.content)
    # A clause denying a number alone ("…, không còn 9h30 nữa") denies it of what another clause says, which the
    # other must say too: "9h30 sáng nào team cũng standup", not a loan due on 30/6.
    shared = negated.content & positive.content
    of_a_number = bool(shared - _numbers_in(shared) - _SAYS_NOTHING - negated.named - positive.named)
    for denied in _clause_denials(negated):
        denied -= says_nothing
        if not (denied and _contained(denied, named)) or not of_a_number and denied <= _numbers_in(denied):
            continue
        # A thing denied must be said as it is, not as a word a typo away ("đường" is not "lương"), of one
        # person.
        if covers or (
            _denies_a_thing(denied, negated.named) and denied <= named and _of_one_person(negated, positive, denied)
        ):
            return True
        kinds = denied & states.kinds_of(positive.content)
        if kinds and denied - kinds <= positive.content:
            return True
    # Which verb goes with a habit does not change the habit: "has an iced matcha every afternoon" and
    # "no longer drinks matcha", "đánh cầu lông" and "ngừng chơi cầu lông"; the other must say it is
    # done too ("không ăn được cay" is not "chạy 5 cây số").
    done = negated.content - _DOING
    return (
        bool(done)
        and done != negated.content
        and bool(positive.word_set & _DOING)
        and _contained(done, states.with_kinds(positive.content))
    )


def _in_one_slot(a, b, only_a, only_b):
    """A word of each side's own stands in one place, between the same words of both: "prefers pnpm" /
    "prefers npm", "before 9am" / "before 10am"; not words each side says in another place, as the same fact
    typed two ways does ("Anh Quân đang sống ở Sài Gòn" / "a quan o sai gon, q3"). Across "is" the two sides
    may change places ("User likes jasmine tea best" / "User's favourite tea is oolong"): any place will do."""
    if IS in a.order or IS in b.order:
        return True
    order_a = [token.removesuffix(POSSESSIVE) for token in a.order]
    order_b = [token.removesuffix(POSSESSIVE) for token in b.order]
    matcher = difflib.SequenceMatcher(None, order_a, order_b, autojunk=False)
    return any(
        tag == "replace" and only_a.intersection(order_a[i1:i2]) and only_b.intersection(order_b[j1:j2])
        for tag, i1, i2, j1, j2 in matcher.get_opcodes()
    )


# What one prefers and what one prefers it to, in a clause, as written or folded: "prefers calls to texts",
# "likes tea more than coffee", "thích gọi điện hơn là nhắn tin", "ưu tiên trà hơn cà phê", or the other way
# round: "likes npm less than pnpm". Vietnamese takes English verbs into its own order ("prefer pnpm hơn npm"),
# and finds one thing better than another ("thấy MongoDB tiện hơn Postgres").
_PREFERENCE = re.compile(
    r"\b(?:prefer(?:s|red)?|likes?|loves?|wants?|chooses?|chose|picks?|picked|favou?rs?)\b([^,;.!?]+?)"
    r"\b(to|over|rather than|more than|instead of|less than)\b([^,;.!?]+)"
    r"|(?<!\w)(?:thích|thich|ưu tiên|uu tien|chuộng|chuong|muốn|muon|prefers?|likes?)(?!\w)([^,;.!?]+?)"
    r"(?<!\w)(?:hơn|hon)(?: (?:là|la))?(?!\w)([^,;.!?]+)"
    r"|(?<!\w)(?:thấy|thay)(?!\w)([^,;.!?]+?)(?<!\w)(?:tiện|tốt|ổn|dễ dùng|hợp|tien|tot|de dung|hop) (?:hơn|hon)"
    r"(?: (?:là|la))?(?!\w)([^,;.!?]+)",
    re.IGNORECASE,
)


def preference_sides(text):
    """``(preferred, other)``: the two sides of what ``text`` prefers to what, as it writes them, or None."""
    match = _PREFERENCE.search(text)
    if not match:
        return None
    if match.group(1) is not None:
        preferred, other = match.group(1), match.group(3)
        return (other, preferred) if match.group(2).lower() == "less than" else (preferred, other)
    return (match.group(4), match.group(5)) if match.group(4) is not None else (match.group(6), match.group(7))


def preferred_the_other_way(a, b):
    """Two ``(preferred, other)`` pairs of word sets put the same two things the other way round ("prefers
    calls to texts" / "prefers texts over calls"), and neither the same way."""
    (preferred_a, other_a), (preferred_b, other_b) = a, b
    crossed = bool(preferred_a & other_b) and bool(other_a & preferred_b)
    return crossed and not (preferred_a & preferred_b or other_a & other_b)


def _with_digits(words):
    return any(any(character.isdigit() for character in word) for word in words)


def _read_alike(words, variant):
    """``words`` of a Vietnamese ``variant`` an English text would write alike: names, numbers and the words
    Vietnamese is read into in English ("coffee" for "cà phê")."""
    return all(word in variant.named or _with_digits((word,)) or word in _READ_IN_ENGLISH for word in words)


# Words telling children or siblings apart by when they were born, in English and folded Vietnamese ("con
# út", "con cả", "con gái lớn", "con đầu").
_BIRTH_ORDER = frozenset("eldest oldest youngest elder older younger first second third ut ca lon nho dau".split())
# Verbs of liking, in English and folded Vietnamese.
_LIKING = frozenset(["like", "love", "enjoy", "thich"])
# Words bounding a time or an amount, folded, and which way: "before 7am", "trước 7h", "until 6pm".
_BOUNDS = {"before": "upper", "until": "upper", "till": "upper", "truoc": "upper", "after": "lower", "sau": "lower"}
# Verbs of taking part in an activity, in English and folded Vietnamese: "learns", "practises" and "plays" guitar
# may all be true at once.
_TAKING_PART = frozenset(
    ["learn", "study", "practise", "practice", "train", "do", "play", "take", "teach", "hoc", "tap", "luyen", "choi"]
)


# A value aimed at, not had (folded): "target weight", "goal", "aiming for IELTS 7.5", "mục tiêu", "phấn đấu",
# "muốn giảm xuống 65kg".
_GOAL = re.compile(
    r"\b(?:targets?|goals?|aim(?:s|ed|ing)? (?:for|to|at)|hop(?:es|ing) to|muc tieu|phan dau"
    r"|muon (?:giam|tang|dat|len|xuong))\b"
)


def sets_a_goal(folded):
    """Whether a text (folded) gives a value aimed at, not one had: "User's goal weight is 65 kg" is no value
    in place of "User weighs 72 kg", nor "Mục tiêu đường huyết lúc đói là dưới 7" of "đường huyết lúc đói là
    7,5". Both can be true."""
    return bool(_GOAL.search(folded))


def bounds_the_other_way(words_a, words_b):
    """Whether two texts' words (folded; those the other does not say) bound a time or an amount one way and
    the other: two bounds, not one changed ("no reminders after 9pm" / "no reminders before 7am", "đừng gọi
    sau 9h tối" / "đừng gọi trước 7h sáng")."""
    ways_a = {_BOUNDS[word] for word in words_a if word in _BOUNDS}
    ways_b = {_BOUNDS[word] for word in words_b if word in _BOUNDS}
    return bool(ways_a and ways_b) and not ways_a & ways_b


def _after_is(variant, words):
    """Whether ``words`` come after "is" in ``variant``: the value it gives, not whom it is said of."""
    order = [_base(token) for token in variant.order]
    if IS not in order:
        return False
    return all(word in order[order.index(IS) + 1 :] for word in words)


def _same_numbers_other_words(a, b, only_a, only_b):
    """Two variants giving the same numbers (a time, an amount, a count), each saying besides words the other
    does not that are no number, name, day or month (``only_a``, ``only_b``): the same fact in other words
    ("go to bed at 9pm" / "go to sleep at 21:00", "weekly one-on-one at 2pm" / "meets one-on-one at 14:00"),
    not one value in place of another ("on Mondays at 9am" / "on Wednesdays at 9am")."""
    if (only_a | only_b) & (a.named | b.named | _CALENDAR_WORDS):
        return False
    numbers = _numbers_in(a.content)
    return bool(numbers) and numbers == _numbers_in(b.content)


@functools.lru_cache(maxsize=8192)
def _numbers_in(content):
    """The words of ``content`` (a variant's, compared many times over in a run) written with digits."""
    return frozenset(word for word in content if _with_digits((word,)))


def _subjects_only(variant, words):
    """Whether ``words`` are only the first word of ``variant``, whom or what it says something of, with no
    "is" after it: two facts of two subjects ("Huy works at FPT" / "Minh works at FPT", "Tuấn làm ở FPT" /
    "Huy làm ở FPT") are two facts, unless what they are is one place ("Minh is the team lead" / "Lan is the
    team lead")."""
    order = variant.order
    return len(order) > 1 and set(words) == {_base(order[0])} and _base(order[1]) != IS


def contradict(a, b, has_subject):
    """``a`` and ``b`` (Variants of one user, kind and subject, not the same fact) cannot both be true."""
    if denies(a, b, has_subject):
        return True
    # One thing preferred to another, and the other way round: "prefers calls to texts" / "… texts over calls".
    if a.preference is not None and b.preference is not None and preferred_the_other_way(a.preference, b.preference):
        return True
    if a.negated == b.negated and a.words == b.words:
        # The same words with the parties in other places: "Lan owes Minh" against "Minh owes Lan".
        return not same_order(a.order, b.order)
    if a.negated == b.negated and _parties_swapped(a, b):
        return True
    if a.negated != b.negated or _someone_else(a.content, b.content):
        return False
    words_a, words_b = a.word_set, b.word_set
    extra_a, extra_b = words_a - words_b, words_b - words_a
    # Each side needs a value of its own, a name in several words being one ("San Francisco Bay Area"). Typos
    # only pair words up, so a side with more than two values beyond the other's can never get there.
    if not extra_a or not extra_b:
        return False
    if abs(len(extra_a) - len(extra_b)) > 2:
        values_a, values_b = _values(extra_a, a), _values(extra_b, b)
        if values_a > 2 + values_b or values_b > 2 + values_a:
            return False
    only_a = _unmatched(words_a, words_b, limit=2 + len(a.named & extra_a))
    if not only_a or (len(only_a) > 2 and _values(only_a, a) > 2):
        return False
    only_b = _unmatched(words_b, words_a, limit=2 + len(b.named & extra_b))
    if not only_b or (len(only_b) > 2 and _values(only_b, b) > 2):
        return False
    # A value in place of another is a word that says something on each side, not a word of the frame
    # ("đang", "on") said on one side only: "Tết 2027 cả nhà anh Quân sẽ về Huế" adds to, not changes,
    # "tet 2027 a quan ve hue an tet".
    # Nor is it an honorific or a particle ("của anh Vinh" / "Vinh là chủ"); "ba" is three too ("thứ Ba").
    if not (_says_something(only_a, a) and _says_something(only_b, b)):
        return False
    if not _in_one_slot(a, b, only_a, only_b):
        return False
    if _same_numbers_other_words(a, b, only_a, only_b):
        return False
    if _subjects_only(a, only_a) and _subjects_only(b, only_b):
        return False
    if bounds_the_other_way(only_a, only_b) or sets_a_goal(a.folded) != sets_a_goal(b.folded):
        return False
    # Liking one thing does not rule out liking another ("Thảo loves bánh xèo" / "Thảo likes gỏi cuốn"); what
    # one likes most does ("User's favourite tea is oolong" / "User likes jasmine tea best").
    if words_a & _LIKING and words_b & _LIKING and not ("most" in words_a and "most" in words_b):
        return False
    # One may be allergic to many things: "allergic to cats" / "dị ứng phấn hoa" are two allergies.
    if "allergy" in words_a and "allergy" in words_b:
        return False
    # Taking part in one activity in two ways is no change: "User learns guitar" / "User practises guitar",
    # "Người dùng tập yoga" / "Người dùng học yoga".
    if only_a <= _TAKING_PART and only_b <= _TAKING_PART:
        return False
    # A fact said of a relative the other does not say is said of someone else, not one slot with two values:
    # "User's sister lives in Huế" / "User's brother lives in Huế", "User's mother lives in Huế" / "User's
    # mother-in-law lives in Vinh", "User's daughter Mai is 8" / "User's nephew Bảo is 8"; unless the
    # relation is the value given ("Minh is the user's brother" / "… cousin").
    for variant, own in ((a, only_a), (b, only_b)):
        relatives = own & _RELATIVES
        if relatives and not _after_is(variant, relatives):
            return False
    # Two children or siblings told apart by their birth order are two people: "Con gái út học lớp 1" / "Con
    # gái lớn học lớp 5", "User's older brother lives in Hue" / "… younger brother … in Vinh".
    if only_a & _BIRTH_ORDER and only_b & _BIRTH_ORDER and a.content & b.content & _RELATIVES:
        return False
    # Across languages, a word of the Vietnamese text that is no name, number or word read in English may be
    # the other's word translated: "Người dùng đi bơi hai lần mỗi tuần" / "User swims twice a week".
    if a.vietnamese != b.vietnamese and not _read_alike(*((only_a, a) if a.vietnamese else (only_b, b))):
        return False
    # Two denials deny two things, which may both be true ("Thảo no longer drinks matcha" / "Thảo hates
    # cilantro"), unless they are one rule with another number ("Don't message Lan before 9am" / "… 10am").
    if a.negated and not (_with_digits(only_a) and _with_digits(only_b)):
        return False
    # What both say: each word of one the other says, as it is or by a synonym ("two kids" / "three children").
    shared_content = a.content - only_a
    # What both say beyond whom, when and taking part must be something: two activities at one time or as
    # often are two facts ("Tuấn đi bơi 2 lần một tuần" / "Tuấn chạy bộ 2 lần/tuần", "swims" / "runs twice a
    # week", "plays the violin" / "plays the cello").
    whom = a.named | b.named | _whom(a) | _whom(b)
    if (
        shared_content
        and not (only_a | only_b) & states.PEOPLE
        and all(
            word in _WHEN or word in _TAKING_PART or word in whom or _with_digits((word,)) for word in shared_content
        )
    ):
        return False
    shared = words_a - only_a
    # Without a subject, a shared frame word ("prefer") is not enough: "prefers tea" and "prefers dark
    # mode" are two preferences, not one changed. Two things of a kind are two things, not one slot with two
    # values: "has a cat named Mochi" / "has a dog named Lu", "budget for the new laptop" / "for the new phone".
    return bool(shared) and (has_subject or bool(shared_content)) and not states.other_things(a.content, b.content)


def _parties_swapped(a, b):
    """Whether two Variants name the same two people or more and say the same words of them (honorifics and the
    frame aside), with the parties in other places: "Phong nợ anh Khôi 8 triệu" / "Khôi đang nợ Phong 8 triệu".
    (Saying more besides is no swap to words: "Tâm dạy kèm toán cho Mai" / "Mai học kèm toán với thầy Tâm".)"""
    # Each text's first word is no name to ``named`` (it has its capital anyway): the two texts' names together.
    if len(((a.named | b.named) & a.content & b.content) - HONORIFICS) < 2:
        return False
    # Who someone is to another is ``standing``'s to read: "Lan is Minh's sister" and "Minh is Lan's older sister"
    # may both be true.
    if (a.content | b.content) & states.PEOPLE:
        return False
    if a.content - HONORIFICS != b.content - HONORIFICS:
        return False
    shared = (a.word_set & b.word_set) - HONORIFICS
    return not same_order(_restricted(a.order, shared), _restricted(b.order, shared))


def _values(said, variant):
    """How many values the words ``said`` of ``variant`` are: the words of one name, side by side and each
    capitalised, are one ("Red Hot Chili Peppers", "Trần Minh Quân"); any other word is one."""
    named = {word for word in said if word in variant.named or f"{word}s" in variant.named}
    if len(named) < 2:
        return len(said)
    count, in_a_name = 0, False
    for token in variant.order:
        word = token.removesuffix(POSSESSIVE)
        if word in named:
            count += not in_a_name
            in_a_name = True
        else:
            in_a_name = False
    return count + len(said) - len(named)


# A proposal compares itself with the newest memories of its subject, and the next one on that subject
# with mostly the same ones: their meanings are kept.
@functools.lru_cache(maxsize=4096)
def variant_of(text, subject="", kind=""):
    """The ``Variant`` of a memory of this subject and kind, kept for the next comparisons."""
    return Variant(*meaning(text, subject, kind))


def chooses_one_over_another(text):
    """Whether ``text`` says one thing is so in place of another: a thing chosen instead of one it names
    ("keeps her notes in the app instead of paper notebooks"), or a clause denying beside one affirming
    ("chuyển hết ghi chú sang app, thôi dùng sổ giấy"). Two such texts have one polarity, whichever way each
    puts it."""
    variant = variant_of(text, "", "")
    if variant.instead:
        return True
    return variant.negated and any(said & variant.content for said in _clauses_affirmed(variant))


def is_denial(text):
    """Whether ``text`` is negated (``meaning``), kept with the proposal's other readings."""
    return variant_of(text, "", "").negated


def denies_aside(text):
    """Whether ``text`` is negated only in clauses after its first, which it affirms: "User drinks green tea
    every morning, not coffee", "Lan bakes bread on Sundays; she does not sell it"."""
    variant = variant_of(text, "", "")
    if not variant.negated:
        return False
    clauses, negations = _clauses(variant), _negations(variant)
    return len(clauses) > 1 and not negations.intersection(clauses[0][0])


def denies_in_other_language(text_a, text_b):
    """``denies_across_languages`` of two texts: "uống trà xanh mỗi sáng, không uống cà phê" / "drinks coffee
    every morning"."""
    return denies_across_languages(variant_of(text_a, "", ""), variant_of(text_b, "", ""))


def denied_words(text, kind=""):
    """The words, folded as written, that a memory holding what ``text`` denies holds (all of them, but for
    a verb of doing it: ``denies``), as search needs them to find it: ("drink", "coffee") for "User does not
    drink coffee anymore", ("hokkaido",) for "Bali instead of Hokkaido", ("firebase",) for "moved its backend
    to Supabase and no longer uses Firebase"; empty when ``text`` denies nothing,
    or names it only in words read as others ("cà phê")."""
    found = variant_of(text, "", kind)
    if found.instead:
        # "Bali instead of Hokkaido" denies Hokkaido.
        return tuple(word for word in words(text) if word in found.instead)
    if not found.negated:
        return ()
    # A denial in one clause denies what that clause names: "moved its backend to Supabase and no longer
    # uses Firebase" denies Firebase.
    denied = next((clause for clause in _clause_denials(found) if clause), found.content)
    terms = []
    for word in words(text):
        verb = _GERUND.sub(_verb, word)
        if verb in denied and verb not in _DOING:
            # An "-ing" form is searched by what its verb's forms begin with: "quit smoking" by "smok".
            terms.append(word if verb == word else os.path.commonprefix([word, verb]))
    return tuple(terms)


def _spelt_in_vietnamese():
    """``{English word of a kind, thing or state: folded Vietnamese spellings}`` (``states.VIETNAMESE`` and
    the words read before folding, ``_VIETNAMESE``)."""
    known = states.KINDS_OF.keys() | states.KINDS | states.RULES_OUT.keys()
    spellings = {}
    for phrase, word in states.VIETNAMESE.items():
        spellings.setdefault(word, set()).add(phrase)
    for written, read in _VIETNAMESE.items():
        for word in read.split():
            if word in known:
                spellings.setdefault(word, set()).add(fold(written).lower())
    return spellings


_SPELT_IN_VIETNAMESE = _spelt_in_vietnamese()


def _read_in_english():
    """``{English word: the folded Vietnamese phrases written for it}`` for every English word a Vietnamese text
    is read into (``_SYNONYMS``, ``states.VIETNAMESE``, ``_VIETNAMESE``): what the two languages can be set side
    by side on."""
    spellings = {}

    def add(word, phrase):
        if word.isascii() and word.isalpha() and word not in _ALL_NEGATIONS and word not in _FRAME:
            spellings.setdefault(word, set()).add(fold(phrase).lower())

    for phrase, word in states.VIETNAMESE.items():
        add(word, phrase)
    for written, read in _VIETNAMESE.items():
        # "bia" is read as "bia beer": the Vietnamese word stays, beside its English one.
        for word in set(read.split()) - {fold(written).lower()}:
            add(word, written)
    for pattern, replacement in _SYNONYMS + _compiled(_READ_AS):
        words = replacement.split() if isinstance(replacement, str) else ()
        if len(words) == 1:
            for written in pattern.pattern.split("|"):
                written = written.replace(r"\b", "")
                if re.fullmatch(r"[a-z ]+", written) and language_of(written) == VIETNAMESE:
                    add(words[0], written)
    return {word: frozenset(phrases) for word, phrases in spellings.items()}


_READ_IN_ENGLISH = _read_in_english()
# Words of a Vietnamese text that say nothing a denial turns on: honorifics, particles, "người" (a person).
_SAYS_NOTHING = HONORIFICS | frozenset("roi het gi ai nao ca nha ne luon dau cua la va thi ma nguoi".split())
# Words a text may spell either way and say no other thing: of the frame, of when, honorifics, negations
# ("mỗi" and "mọi" both say each one, folded "moi"). Not the particles: "cả" (all) is "ca", and so are "cá"
# (a fish) and "cà".
_SPELT_EITHER_WAY = _FRAME | _WHEN | HONORIFICS | _ALL_NEGATIONS


def spelt_alike(text_a, text_b):
    """Where both texts write diacritics, the words they hold alike folded are spelt alike (``folding.marks_agree``)
    but those spelt either way (``_SPELT_EITHER_WAY``): "thích bún bò" is not "thích bún bơ", "Chị Hương" not
    "Chị Hường"; "mỗi đơn" is "mọi đơn"."""
    return marks_agree(text_a, text_b, _SPELT_EITHER_WAY)


def written_details(text):
    """What folded words leave out of ``text`` that tells it from another of the same words (a hashable
    value): its diacritics where ``spelt_alike`` reads them, and its signs ("A+", ``signs_agree``)."""
    return spelling(text, _SPELT_EITHER_WAY), _signed_letters(text)


# Nor is "làm" (to do, to work as) one: "Tuấn là kiến trúc sư" / "tuan lam kien truc su".
_NO_VALUE = _SAYS_NOTHING - {"ba"} | {"lam"}


def _says_something(words, variant):
    """Some of ``words`` (of ``variant``'s own) say something: content words, in a Vietnamese text no honorific
    or particle."""
    said = words & variant.content
    return bool(said - _NO_VALUE if variant.vietnamese else said)


def _whom(variant):
    """The words naming whom ``variant`` is about, which start it: a name or the owner ("Khôi không uống rượu
    bia", "User …"), or an honorific and the name after it ("Anh Khôi …", "a khoi …")."""
    order = variant.order
    return frozenset(order[:2] if order[:1] and order[0] in HONORIFICS else order[:1])


def _said_across(variant, content=None, loans=frozenset()):
    """The words of ``variant`` (or of its ``content`` words given) both languages are read into, or that both
    write alike (``loans``: ``_loans``), and whether it says nothing more (a verb of doing, a name, an
    honorific or a particle aside): what ``denies_across_languages`` sets side by side."""
    content = variant.content if content is None else content
    said = content & (_READ_IN_ENGLISH.keys() | loans)
    # Whom it is about starts it, named or not ("Khôi không uống rượu bia"); who that is, is asked apart.
    rest = content - said - _DOING - variant.named - _SAYS_NOTHING - _whom(variant)
    if variant.vietnamese:
        rest -= {word for english in said - loans for phrase in _READ_IN_ENGLISH[english] for word in phrase.split()}
    else:
        rest -= states.KINDS
    return said, not rest


# An allergy, and the words a negation denies, in a folded text of either language.
_ALLERGY = re.compile(r"\ballerg|\bdi ung\b")
_DENIED_WORDS = re.compile(r"\b(?:not|never|no|khong|ko|chua)\b((?:\W+\w+){1,4})")


def allergy_explains(negated, other):
    """``other`` tells of an allergy that ``negated`` (a denial) does not deny, which keeps one from what
    ``negated`` says is not had: "Người dùng không ăn được tôm vì bị dị ứng" / "The user is allergic to shrimp"
    agree; "Người dùng không bị dị ứng tôm" denies it."""
    negated, other = fold(negated).lower(), fold(other).lower()
    if not _ALLERGY.search(other):
        return False
    denied = _DENIED_WORDS.search(negated)
    return denied is None or not _ALLERGY.search(denied.group(1))


def denies_across_languages(a, b):
    """One of ``a`` and ``b`` (Variants, one Vietnamese and one English, of the same person) denies what the
    other says, on the words a Vietnamese text is read into in English (``_READ_IN_ENGLISH``: kinds, things,
    states, "allergy", "coffee"…) and the names both write: "Anh Khoa không uống rượu bia" / "Khoa drinks beer
    with his friends every Friday night", "Người dùng không nuôi thú cưng nào" / "User has a cat named Mochi".
    The denial, or one clause of it, must say nothing else (a verb of doing aside): "không uống bia sau 10 giờ
    tối" (no beer after 10pm) says more than can be set side by side, and is left alone; "Khôi không uống rượu
    bia, đã bỏ hẳn từ năm 2021" denies beer in its first clause. A state rules out a thing of the other
    language as of its own (``_rules_out``, on the kinds and states both are read into): "Người dùng ăn chay"
    / "User eats beef phở every week"."""
    if a.vietnamese == b.vietnamese:
        return False
    if _rules_out(a, b) or _rules_out(b, a):
        return True
    if a.negated == b.negated:
        return False
    negated, positive = (a, b) if a.negated else (b, a)
    if allergy_explains(negated.folded, positive.folded):
        return False
    named = states.with_kinds(positive.content)
    # Whom the denial is about starts it ("Anh Khôi …"), and is asked apart; any other name it denies must be
    # the other's too: "Anh Khôi đã nghỉ ở Hải Vân Soft" does not deny "stays up working on side projects".
    subject = _whom(negated)
    loans = _loans(negated, positive)
    for content in (negated.content, *_clause_denials(negated)):
        said, alone = _said_across(negated, content, loans)
        # A time denied is no thing denied: "không bao giờ tập buổi sáng" / "takes amlodipine every morning".
        if said - _NO_THING and alone and said <= named and content & negated.named - subject <= positive.content:
            return True
    return False


def _loans(a, b):
    """The words two texts of the two languages both write alike and that are no Vietnamese syllable: English
    words Vietnamese takes as they are ("yoga", "golf", "pilates", "podcast"), which need no lexicon to be
    read across (those it reads across, ``_READ_IN_ENGLISH``, are no loans, nor is a word of a name: "bỏ VS Code"
    denies no writing of code)."""
    return frozenset(
        word
        for word in a.content & b.content - _READ_IN_ENGLISH.keys() - a.named - b.named
        if word.isascii() and len(word) > 2 and not could_be_vietnamese(word)
    )


def across_languages_words(text, kind=""):
    """What a memory in the other language that ``text`` may deny, or be denied by (``denies_across_languages``),
    holds, as ``search.matching_any`` takes it: for an English text, the Vietnamese written for the words it
    would be set side by side on; for a Vietnamese one, those English words (as prefixes) and, for a thing, its
    kind. Empty when ``text`` has none, is a denial saying more than them, or is no denial and names no thing
    of a kind."""
    found = variant_of(text, "", kind)
    said, alone = _said_across(found)
    ruled = frozenset() if found.negated else states.kinds_ruled_out(found.content)
    if (not said and not ruled) or (found.negated and not alone):
        return []
    # What is not a denial is looked for in the other language's denials by the kinds of thing it names only
    # ("User has a cat": "không nuôi thú cưng"), as ``kind_words`` does in its own, and in its states that
    # rule them out ("ăn chay"); a state by the things it rules out ("User is teetotal": "bia", "rượu"). A
    # memory naming neither waits for the doctor.
    kinds = states.kinds_of(found.content)
    if not found.negated and not kinds and not ruled:
        return []
    if not found.negated:
        said = said | kinds | states.ruling_out(kinds) | ruled | states.words_of(ruled)
    elif found.vietnamese:
        # A kind denied is found by its things ("không nuôi thú cưng": "cat", "dog"…).
        said = said | states.words_of(said & states.KINDS)
    if found.vietnamese:
        return [((word,), True) for word in sorted(said)]
    phrases = {phrase for word in said for phrase in _READ_IN_ENGLISH.get(word, ())}
    return [(tuple(phrase.split()), False) for phrase in sorted(phrases)]


# English states a synonym reads from other words, which search must find as written ("WFH" is "remote").
_ALSO_SPELT = {"remote": (("wfh",), ("from", "home"))}


def kind_words(text, kind=""):
    """What a memory that ``text`` may deny, or be ruled out by, by the kinds of thing they name
    (``states``), holds, as ``search.matching_any`` takes it: ``(words, prefix)``, folded words as a memory
    in the language of ``text`` writes them, English ones as prefixes ("cat" for "cats"), Vietnamese ones
    whole. "User has no pets": the pets ("cat", "dog", …); "User is vegetarian": the meats;
    "User has a cat named Mochi": its kind ("pet"); "User eats beef phở": its kind and the states that rule
    it out ("meat", "vegetarian", "vegan"). Empty when ``text`` names no state, or no kind or thing of one."""
    found = variant_of(text, "", kind)
    ruled = states.kinds_ruled_out(found.content)
    if found.negated:
        ruled |= found.content & states.KINDS
    wanted = set(states.words_of(ruled))
    if not found.negated:
        kinds = states.kinds_of(found.content)
        wanted |= kinds | states.ruling_out(kinds)
    if not found.vietnamese:
        also = [(spelling, False) for word in sorted(wanted) for spelling in _ALSO_SPELT.get(word, ())]
        return [((word,), True) for word in sorted(wanted)] + also
    spelt = {spelling for word in wanted for spelling in _SPELT_IN_VIETNAMESE.get(word, ())}
    return [(tuple(spelling.split()), False) for spelling in sorted(spelt)]


def _ids_where(test, text, others, subject="", kind=""):
    """The ids of ``others`` (``{id: text}``) for which ``test(new, other)`` holds, both texts read as the
    Variants of one subject and kind."""
    new = variant_of(text, subject, kind)
    return [memory_id for memory_id, other_text in others.items() if test(new, variant_of(other_text, subject, kind))]


def denying_across_languages(text, others, kind=""):
    """The ids of ``others`` (``{id: text}``) in the other language than ``text`` that it denies or that deny it
    (``denies_across_languages``), as the doctor compares memories across kinds, subjects and languages."""
    return _ids_where(denies_across_languages, text, others, kind=kind)


def denying(text, others, kind=""):
    """The ids of ``others`` (``{id: text}``, live memories of one user whatever their kind and subject) in
    the language of ``text`` that deny it or that it denies (``denies``), as the doctor compares memories
    across kinds and subjects."""
    return _ids_where(
        lambda new, other: other.vietnamese == new.vietnamese and denies(new, other, False), text, others, kind=kind
    )


def saying_the_same(text, others, kind=""):
    """The ids of ``others`` (``{id: text}``: memories of one user and kind, whatever their subjects) that
    say the same fact as ``text`` by their words (``same_fact``), compared without a subject as the doctor
    compares memories close in meaning, and that hold all ``text`` says: a repeat merged into one of them
    loses nothing ("User's son Bin is 7 years old, in grade 2" is more than "User's son Bin is 7"). A denial
    holds more with fewer words: "User does not drink coffee" is more than "User does not drink coffee after
    2pm", and is never merged into it."""

    return _ids_where(lambda new, other: _holds_all(new, other) and same_fact(new, other), text, others, kind=kind)


def _repeats(new, other):
    """``new`` says what ``other`` does, in its content words, or all it says and more when ``new`` says a fact of
    its own (``_holds_all``, ``_says_a_fact``)."""
    return bool(new.content) and _holds_all(new, other) and (new.content == other.content or _says_a_fact(new, other))


def _says_a_fact(new, other):
    """Of ``new`` and ``other`` (Variants), the one saying less still says a fact of its own, in two content
    words or more beyond a verb of doing: "Mẹ người dùng tên Hạnh" repeats "Mẹ của người dùng tên là Nguyễn Thị
    Hạnh", but "Người dùng thích ăn" is not "Người dùng thích ăn cua", nor "User likes tea" "User likes green
    tea"."""
    smaller = min(new, other, key=lambda variant: len(variant.content))
    return len(smaller.content - _DOING) >= 2


def _holds_all(new, other):
    """``other`` (a Variant) holds all ``new`` says, by their content words: a denial holds more with fewer."""
    smaller, larger = (other, new) if new.negated else (new, other)
    return smaller.content <= larger.content


# Words of liking and wanting: the frame, but one attitude or another ("loves" and "likes" are one, "wants"
# another), which a repeat in other words, or a fact said with more, must keep ("User went hiking in Sa Pa"
# says more of hiking than "User enjoys hiking", not more of enjoying it).
_ATTITUDES = dict.fromkeys("like love enjoy prefer thich".split(), "liking") | dict.fromkeys(
    "want muon".split(), "wanting"
)


def _attitudes(variant):
    return {_ATTITUDES[word] for word in variant.word_set if word in _ATTITUDES}


def said_alike(text, others, kind=""):
    """The ids of ``others`` (``{id: text}``) in the language of ``text`` that say its fact with the same
    content words (``same_fact``) and attitude, in other frame words: "User loves jasmine tea" / "User likes
    jasmine tea", "User prefers dark mode" / "User likes using dark mode"; not "User wants a PS5" / "User
    likes the PS5"; or all it says and more, when it says a fact of its own (``_holds_all``,
    ``_says_a_fact``): "Hoa, the user's wife, is a nurse" repeats "User's wife Hoa works as a nurse at Bach
    Mai Hospital", and is dropped for it, losing nothing. Or one states what the other denies a kind to:
    "Tuấn is teetotal" / "Tuấn doesn't drink alcohol" (``_state_denied``)."""
    return _ids_where(
        lambda new, other: (
            other.vietnamese == new.vietnamese
            and (
                _repeats(new, other)
                and _attitudes(new) == _attitudes(other)
                and same_fact(new, other)
                or state_and_denial(new, other)
            )
        ),
        text,
        others,
        kind=kind,
    )


def said_with_more(text, others, subject="", kind=""):
    """The ids of ``others`` (``{id: text}``: live memories of one user and kind) whose fact ``text`` states
    again with more (``same_fact``): "User lives in Ba Dinh, Hanoi" against "User lives in Hanoi"; of two
    denials, the broader says more ("does not eat meat" against "does not eat meat on Fridays"), as in
    ``saying_the_same``. A new proposal like that may be meant to replace them, as a contradiction may. Words
    hold words only in one language: across the two, only names would be compared. The words of liking and
    wanting must be the same ones (``_ATTITUDES``)."""

    def says_more(new, other):
        smaller, larger = (new, other) if new.negated else (other, new)
        return (
            other.vietnamese == new.vietnamese
            and smaller.content < larger.content
            and new.word_set & _ATTITUDES.keys() == other.word_set & _ATTITUDES.keys()
            and same_fact(new, other)
        )

    return _ids_where(says_more, text, others, subject, kind)


def contradicted(text, others, subject="", kind=""):
    """The ids of ``others`` (``{id: text}``: live memories of one user, kind and subject) that ``text``
    contradicts the way the doctor's conflicts do: the same fact with other values, or its negation.
    A new proposal like that may be meant to replace them."""
    return _ids_where(
        lambda new, other: contradict(new, other, bool(subject)) and not same_fact(new, other),
        text,
        others,
        subject,
        kind,
    )
