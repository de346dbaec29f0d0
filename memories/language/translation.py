"""What a translation keeps: how two memories in different languages, which words cannot set side by side,
are told to be the same fact, its negation, or neither (the doctor's counterparts and the write path's
check, with embeddings on), and what words leave out when they are compared in one language.

A translation keeps the polarity, the values (numbers, days and months, a letter standing for a value),
the names of people, places and things in their order, and the words one language borrows from the other
as they are. ``across_languages`` compares those; ``names_agree`` and ``details_agree`` are its parts
about names and values; ``names_instead`` says one names something else in place of the other's.
"""

import functools
import itertools
import re
import unicodedata
from collections import Counter
from typing import NamedTuple

from memories.language import states
from memories.language.folding import fold
from memories.language.lexicon import GIVEN_NAMES, LEXICON
from memories.language.meaning import (
    CHAT_WORDS,
    COMPARING,
    HALF_PAST,
    HONORIFICS,
    LETTER_VALUE,
    VIETNAMESE_NEGATIONS,
    WHEN_WORDS,
    WRITTEN_HONORIFICS,
    allergy_explains,
    another_relative,
    bounds_the_other_way,
    chooses_one_over_another,
    contradict,
    contradicted,
    denies,
    denies_aside,
    denies_in_other_language,
    is_denial,
    meaning,
    preference_sides,
    preferred_the_other_way,
    says_changed,
    set_aside,
    sets_a_goal,
    signs_agree,
    spelt_alike,
    typo_of,
    variant_of,
    words_in_common,
)
from memories.language.words import (
    DAY_BY_NAME,
    DAYS_BY_NUMBER,
    ENGLISH_NUMBERS,
    FOLDED_VIETNAMESE_DIGITS,
    IN_LAW,
    IRREGULAR_BASE,
    MONTH_NUMBERS,
    MONTH_WRITTEN,
    MONTHS,
    OWNER,
    SCALE_WORDS,
    SENTENCE_END,
    SHORTEST_PREFIX,
    VIETNAMESE,
    VIETNAMESE_WEEKDAYS,
    WEEKDAYS,
    WRITTEN_WORD,
    amount,
    amounts_in_digits,
    could_be_vietnamese,
    counts_in_digits,
    english_forms,
    is_query_stopword,
    language_of,
    names_a_room,
    phrasal_read,
    reads_as_english,
    says_nothing,
    singular,
    spelt_as_a_name,
    words,
    words_placed,
)

SAME, OPPOSED = "same", "opposed"
# An amount and its scale: "200k", "15 triệu", "2 tỷ", "1.5 billion"; "12M VND" is read before folding
# (``_MILLIONS``): a small "5m" may be metres or minutes.
_NUMBER = re.compile(rf"(\d+(?:[.,]\d{{3}})*(?:[.,]\d+)?)(?:\s*({SCALE_WORDS})\b)?")
_MILLIONS = re.compile(r"(?<=\d)M\b")


_CALENDAR = frozenset(
    "monday tuesday wednesday thursday friday saturday sunday mondays tuesdays wednesdays thursdays fridays"
    " saturdays sundays january february march april may june july august september october november december"
    " mon tue wed thu fri sat sun jan feb mar apr jun jul aug sep sept oct nov dec".split()
)
# A Vietnamese day or month is a capitalised number after "thứ" or "tháng": "thứ Hai", "tháng Tư"; a
# language a capitalised word after "tiếng".
_CALENDAR_BEFORE = frozenset({"thu", "thang", "tieng"})
_CALENDAR_AND_LANGUAGES = _CALENDAR | states.LANGUAGES
# Kinds of place a name may be written with, capitalised, in English or in Vietnamese (as written: "Hồ",
# "Trường", "Dương" and "Quân" are people's names too).
_KINDS_OF_PLACE = frozenset(
    "River Lake City Street Road Avenue District Province Village School Primary Secondary University College"
    " Hospital Clinic Market Bridge Beach Bay Island Airport Station Pagoda Temple Museum Mountain"
    " Sông TP Tp Chợ Đảo Vịnh Núi Chùa Biển Phố".split()
)
# The numbers a day or month is named by ("thứ Hai", "tháng Chạp"), folded: "Thủ Đức" is no day.
_NUMBERS_NAMED = frozenset(FOLDED_VIETNAMESE_DIGITS) | {"tu", "muoi", "gieng", "chap"}
# Currencies are the unit of an amount, which a paraphrase writes in words ("15 million VND" / "15 triệu").
_CURRENCIES = frozenset("vnd usd eur jpy gbp sgd aud cad cny krw thb".split())
_OWNER_WORDS = {"user": None, "owner": None, "nguoi": "dung", "chu": "nhan"}


@functools.lru_cache(maxsize=4096)
def _surely_named(text):
    """The folded words of ``text`` that are names wherever they stand: capitalised inside a sentence, spelt
    as a name, or, in an English text, starting a sentence but no English word."""
    english = _english(text)
    return frozenset(
        plain
        for word, plain, first in words_placed(text)
        if word[0].isupper() and _names_itself(word, plain, first, english)
    )


def _names_itself(word, plain, first, english):
    """A capitalised word is a name by itself: inside a sentence, spelt as a name, or starting a sentence of
    an English text as no English word."""
    return not first or spelt_as_a_name(word) or english and _unknown_english(plain)


# A pair's texts are compared many times over in a run (the doctor): their language is judged once.
@functools.lru_cache(maxsize=4096)
def _english(text):
    return language_of(text) != VIETNAMESE


def is_known_word(words, english):
    """Whether the first of ``words`` (lower-case, as written, with the words after it) is a word of the
    text's language rather than a name: in an English text (``english``) one without diacritics that is a
    function word or one the lexicon glosses a Vietnamese one with; in a Vietnamese one a function word, or a
    word or the start of a phrase the lexicon knows ("Trình duyệt…")."""
    first = words[0]
    folded = fold(first)
    if english:
        return folded == first and (not _unknown_english(folded) or folded in _OWNER_WORDS)
    return first in _lexicon()[0] or starts_a_phrase(words)


_FOLDED_GIVEN_NAMES = frozenset(fold(name) for name in GIVEN_NAMES)


def no_word_of_either(word):
    """Whether ``word`` (folded, lower case) is a word neither language has, as far as the lexicon tells, nor a
    given name: a medicine ("metformin", "levothyrox"), a product, a place abroad."""
    return (
        _unknown_english(word)
        and word not in _lexicon()[1]
        and not _function_word(word)
        and word not in _FOLDED_GIVEN_NAMES
    )


def starts_a_phrase(words):
    """Whether the first of ``words`` (lower case, as written, with the words after it) is a function word of
    either language or starts a phrase of two words or more the lexicon knows: "Từ tháng 10…" opens with
    "from", whoever may be called Tư; "Mai đang học" or "Đường works as…" may open with a name."""
    by_phrase, _, longest = _lexicon()
    return _function_word(words[0]) or any(" ".join(words[:size]) in by_phrase for size in range(2, longest + 1))


@functools.lru_cache(maxsize=4096)
def _unknown_first_word(text):
    """The first word of a Vietnamese ``text``, folded, when it is capitalised, written with diacritics and no
    word of the language ("Phúc có lịch…": a name), else ""."""
    if _english(text):
        return ""
    placed = list(itertools.islice(words_placed(text), 4))
    if not placed:
        return ""
    word, plain, _ = placed[0]
    if not word[:1].isupper() or word == plain:
        return ""
    return "" if is_known_word([written.lower() for written, _, _ in placed], english=False) else plain.lower()


def _unknown_english(folded):
    """A word English does not have, as far as the lexicon's glosses tell: starting an English sentence, it is a
    name ("Neovim is the main editor", "Lan is…"), where "Budget", "Coffee" or "Lanes" is not. A word is
    known as it is glossed, or as a form of one ("lanes": "lane"), never by a stem it merely spells ("Lan" is
    no form of "lane")."""
    if len(folded) <= 2 or folded in _ENGLISH_FUNCTION_WORDS or folded in _OWNER_WORDS:
        return False
    if folded in _english_glosses():
        return False
    stem = _english_stem(folded)
    return stem == folded or stem not in _english_gloss_stems()


@functools.cache
def _english_glosses():
    """Every English word the lexicon glosses a Vietnamese one with, but the syllables of a name a phrase
    spells the English way ("minh" of "hồ chí minh", "nang" of "đà nẵng"), which are names."""
    glosses = set()
    for phrase, english in LEXICON.items():
        syllables = {fold(syllable).lower() for syllable in phrase.split()} if " " in phrase else set()
        glosses.update(word for word in english if word not in syllables or not could_be_vietnamese(word))
    return frozenset(glosses)


@functools.cache
def _english_gloss_stems():
    """The stems of ``_english_glosses``."""
    return frozenset(map(_english_stem, _english_glosses()))


def _named(text, other):
    """``[(name, whose)]``: the names of people, places and things in ``text`` (its capitalised words,
    folded) and the owner (``OWNER``, for "the user", "người dùng"), in order, each with whether it is a
    possessor ("Khoa's", "của Đạt"). A sentence's first word counts only when ``other`` has it capitalised
    inside a sentence ("Lan owes Minh" / "Minh nợ Lan"; not "Sáng nào" or "Anh Huy" at the start of both).
    A thing named by another of its names is named by the one it is known by (``states.one_name``)."""
    text, other = states.one_name(text), states.one_name(other)
    english = _english(text)
    inside = _surely_named(other)
    tokens = list(WRITTEN_WORD.finditer(text))
    placed = list(words_placed(text))
    found, spans, skip, last = [], [], False, None

    def touching(index):
        """Whether the word at ``index`` follows the one before it with nothing but spaces between."""
        return not text[tokens[index - 1].end() : tokens[index].start()].strip()

    def joined_to_previous(index):
        return last == index - 1 and touching(index)

    def in_a_name(word, index):
        """A day or month written short before a capitalised word is a name's: "Thu Duc City", "Thu Trang"."""
        if len(word) > 3 or index + 1 >= len(placed):
            return False
        following_word = placed[index + 1][0]
        return following_word[:1].isupper() and following_word.lower() not in _CALENDAR and touching(index + 1)

    for index, (word, plain, first) in enumerate(placed):
        following = placed[index + 1][1] if index + 1 < len(placed) else ""
        previous = placed[index - 1][1] if index else ""
        # "Khoa's": the next token is "s" right after an apostrophe.
        end = tokens[index + 2 if _OWNER_WORDS.get(plain) == following and following else index + 1 :]
        possessive = bool(end) and end[0].group() == "s" and text[end[0].start() - 1] in "'’"
        before_previous = placed[index - 2][1] if index > 1 else ""
        # "của Đạt", "của anh Quân": whose it is.
        whose = previous == "cua" or (previous in HONORIFICS and before_previous == "cua") or possessive
        if skip:
            skip = False
        elif (
            (word.lower() in _CALENDAR_AND_LANGUAGES and not in_a_name(word, index))
            or (previous in _CALENDAR_BEFORE and (previous == "tieng" or plain in _NUMBERS_NAMED))
            or (plain, following) == ("chu", "nhat")
        ):
            # Days, months and languages are translated, not kept: "Sunday" is "Chủ nhật", "Monday" "thứ
            # Hai", "Vietnamese" "tiếng Việt".
            skip = plain == "chu"
        elif plain in _OWNER_WORDS and _OWNER_WORDS[plain] in (None, following):
            found.append((OWNER, whose))
            spans.append([index, index + (_OWNER_WORDS[plain] is not None)])
            skip = _OWNER_WORDS[plain] is not None
        elif word.lower() in WRITTEN_HONORIFICS or plain in _CURRENCIES:
            pass
        elif word in _KINDS_OF_PLACE and not first:
            # "Han River" is "sông Hàn", "Thu Duc City" "TP Thủ Đức": a name's kind of place is no part of it,
            # but the name goes on after it ("Hoa Cuong Primary School").
            if found and found[-1][0] != OWNER and joined_to_previous(index):
                last = index
        elif len(word) > 1 and word[0].isupper() and (plain in inside or _names_itself(word, plain, first, english)):
            if found and found[-1][0] != OWNER and joined_to_previous(index):
                # One name in several capitalised words: "Hà Nội" is "hanoi", as "Hanoi" is.
                found[-1] = (found[-1][0] + plain, found[-1][1] or whose)
                spans[-1][1] = index
            else:
                found.append((plain, whose))
                spans.append([index, index])
            last = index
    # Two joined by "and" are whose the one of them is: "Thảo and Khoa's wedding", "của chị Thảo và anh Khoa".
    for k in range(1, len(found)):
        between = [plain for _, plain, _ in placed[spans[k - 1][1] + 1 : spans[k][0]]]
        if between and between[0] in ("and", "va") and set(between[1:]) <= HONORIFICS:
            whose = found[k - 1][1] or found[k][1]
            found[k - 1], found[k] = (found[k - 1][0], whose), (found[k][0], whose)
    return found


def _names(text, other):
    """The names of ``_named`` without whose they are."""
    return [name for name, _ in _named(text, other)]


def names_in(text):
    """The names ``text`` writes (``_names``): its capitalised words, folded, several joined into one ("VS
    Code" is "vscode"), and ``OWNER`` for the owner."""
    return _names(text, text)


_COPULAS = frozenset({"is", "are", "was", "were", "la"})


def names_agree(text_a, text_b):
    """Whether two texts name the same people, places and things, where both name any (one maybe more), in
    the same order ("Lan owes Minh" and "Minh nợ Lan" do not; with "is" either side may come first, unless they are
    compared: "Lan is the user's wife" / "Vợ của người dùng là Lan"). The owner may be left out of one
    ("Anh dùng Neovim") or named by name ("User is vegetarian" / "Huy is a vegetarian"), as long as that
    name is not someone the other names elsewhere ("User owes Tuấn" / "Tuấn nợ anh Huy"); a name spelt in
    one word or in syllables is one name ("Hanoi" / "Hà Nội"). The owner and a relative of theirs must be in
    the same places too (``relatives_agree``), and two people each named doing something are two
    (``_two_doing``: "Khoa dẫn Mochi đi dạo" / "Thảo dắt Mochi đi dạo")."""
    if not relatives_agree(text_a, text_b) or _two_doing(text_a, text_b):
        return False
    named_a, named_b = _named(text_a, text_b), _named(text_b, text_a)
    a, b = [name for name, _ in named_a], [name for name, _ in named_b]
    if _another_first(text_a, text_b, named_b) or _another_first(text_b, text_a, named_a):
        return False
    for text, other in ((text_a, b), (text_b, a)):
        # A text typed all in lower case shows no names ("nguoi dung song o da nang"): one of the other's
        # must be spelt in it.
        others = [name for name in other if name != OWNER]
        if others and text == text.lower():
            letters = _letters(text)
            if not any(name in letters for name in others):
                return False
    if not a or not b:
        # The one naming no one may start with a name no word of its language is ("Phúc có lịch khám răng…"):
        # then it is not the one the other says whose ("Thảo's own dentist appointment…").
        named, other, bare = (named_a, text_a, text_b) if a else (named_b, text_b, text_a)
        whose = {name for name, its in named if its and name != OWNER}
        if whose and (first := _unknown_first_word(bare)) and not whose <= {first}:
            return False
        # Nor is it the owner the other names, when it calls no one anything ("anh", "chị") and starts with
        # someone maybe that the other does not say: "Bình hay ăn sáng ở nhà" / "Bình thường người dùng ăn sáng
        # ở nhà" (usually); not "Sáng nào anh cũng uống…".
        return not (
            any(name == OWNER for name, _ in named)
            and _untranslated_first_word(bare, other)
            and not any(plain in HONORIFICS for _, plain, _ in words_placed(bare))
        )
    # Whose someone is stays, whichever side of "is" they are on: "Đạt is Khoa's manager" is not "Khoa là
    # quản lý của Đạt". The owner's may be someone's by name: "the user's brother" / "em trai của anh Huy".
    whose_a = {name for name, whose in named_a if whose}
    whose_b = {name for name, whose in named_b if whose}
    owners = any(
        OWNER in mine and any(name not in named for name in theirs)
        for mine, theirs, named in ((whose_a, whose_b, a), (whose_b, whose_a, b))
    )
    if whose_a and whose_b and not whose_a & whose_b and not owners:
        return False
    if "".join(a) == "".join(b):
        return True
    said = set(re.findall(r"\w+", fold(f"{text_a} {text_b}")))
    ordered = not said & _COPULAS or bool(said & COMPARING)

    def alike(x, y, more=True):
        """One names all the other does, and maybe ``more`` ("Proxmox" / "Proxmox VE"), in its order."""
        x, y = sorted((x, y), key=len)
        if not more and len(x) != len(y):
            return False
        if not ordered:
            return not Counter(x) - Counter(y)
        rest = iter(y)
        return all(name in rest for name in x)

    if alike(a, b):
        return True
    for named, other in ((a, b), (b, a)):
        if OWNER in named and OWNER not in other:
            left_out = [name for name in named if name != OWNER]
            # Whoever the other names more may be the owner: only the same names will do.
            if not left_out or alike(left_out, other, more=False):
                return True
            extra = [name for name in other if name not in named]
            if len(extra) == 1 and alike([extra[0] if name == OWNER else name for name in named], other, more=False):
                return True
    return False


# The owner's relatives a fact may be said of, or between them and the owner, as one canonical word: English
# (folded) and Vietnamese written with diacritics, lower-case; "ba" (three), "con" (a classifier) and "anh",
# "chị", "em" alone (honorifics) are left out.
_RELATIVES_ENGLISH = {
    **{word: word for word in "wife husband brother sister son daughter".split()},
    # One relation by any of its words (``states.SAME_RELATION``), and a manager one's boss.
    **{word: relation for word, relation in states.SAME_RELATION.items() if relation in ("mother", "father", "boss")},
    "manager": "boss",
}
_RELATIVES_VIETNAMESE = {
    "vợ": "wife",
    "chồng": "husband",
    "mẹ": "mother",
    "bố": "father",
    "em trai": "brother",
    "anh trai": "brother",
    "chị gái": "sister",
    "em gái": "sister",
    "con trai": "son",
    "con gái": "daughter",
    "bé trai": "son",
    "bé gái": "daughter",
    "sếp": "boss",
}
# Typed without diacritics, a relative is read only where the owner follows it ("bo nguoi dung": "bỏ" is to
# quit), and so is a child ("con người dùng"; "con" is a classifier too).
_RELATIVES_TYPED = {fold(word): relation for word, relation in _RELATIVES_VIETNAMESE.items()} | {"con": "child"}
# The word a relative ends with ("vo", "trai" of "em trai"): the owner just after it is whose they are.
_RELATIVE_ENDS = frozenset(word.split()[-1] for word in _RELATIVES_TYPED)


@functools.lru_cache(maxsize=8192)
def _parties(text):
    """The owner and the owner's relatives ``text`` speaks of, in order, as ``OWNER`` and a relation ("wife"),
    a relative whose the owner is one party with them ("User's wife", "his wife", "vợ (của) người dùng" are
    "wife"); None when it speaks of someone else's relative ("Lan's wife")."""
    placed = [(word.lower(), plain.lower()) for word, plain, _ in words_placed(text)]

    def plain_at(index):
        return placed[index][1] if 0 <= index < len(placed) else ""

    parties, index = [], 0
    while index < len(placed):
        written, plain = placed[index]
        if plain in _OWNER_WORDS and _OWNER_WORDS[plain] in (None, plain_at(index + 1)):
            size = 1 if _OWNER_WORDS[plain] is None else 2
            if plain_at(index + size) == "s" and plain_at(index + size + 1) in _RELATIVES_ENGLISH:
                index += size + 1  # "User's wife": the owner is whose the wife is
                continue
            if not (parties and parties[-1] != OWNER and _just_after_relative(placed, index)):
                parties.append(OWNER)
            index += size
            continue
        pair = f"{written} {placed[index + 1][0]}" if index + 1 < len(placed) else ""
        pair_plain = f"{plain} {plain_at(index + 1)}"
        relation, size = _RELATIVES_VIETNAMESE.get(pair), 2
        if relation is None:
            relation, size = _RELATIVES_VIETNAMESE.get(written), 1
        if relation is None and (pair_plain in _RELATIVES_TYPED or plain in _RELATIVES_TYPED):
            size = 2 if pair_plain in _RELATIVES_TYPED else 1
            after = " ".join(plain_at(k) for k in range(index + size, index + size + 3))
            if after.startswith(("nguoi dung", "cua nguoi dung", "nha nguoi dung")):
                relation = _RELATIVES_TYPED[pair_plain if size == 2 else plain]
        if relation is None and plain in _RELATIVES_ENGLISH:
            if plain_at(index - 1) == "s" and plain_at(index - 2) not in _OWNER_WORDS:
                return None  # "Lan's wife": someone else's relative
            relation, size = _RELATIVES_ENGLISH[plain], 1
        if relation is not None:
            parties.append(relation)
        index += size
    return tuple(parties)


def _just_after_relative(placed, index):
    """Whether the owner at ``index`` follows a relative's word, maybe after "của" or "nhà": "vợ người dùng",
    "bé trai nhà người dùng"."""
    before = placed[index - 1][1] if index else ""
    if before in ("cua", "nha"):
        before = placed[index - 2][1] if index > 1 else ""
    return before in _RELATIVE_ENDS


def relatives_agree(text_a, text_b):
    """Two texts of the owner and a relative of theirs name them in the same places: "User borrowed 20 million
    VND from his younger brother" is not "Em trai vay người dùng 20 triệu", nor "User picks up his wife from
    work" "Vợ người dùng đón người dùng"; and one speaking of the owner alone is not of the owner's relative
    alone ("User is allergic to dust" / "bo nguoi dung di ung bui", the user's father)."""
    a, b = _parties(text_a), _parties(text_b)
    if not a or not b:
        return True
    order_a, order_b = tuple(dict.fromkeys(a)), tuple(dict.fromkeys(b))
    if OWNER not in order_a + order_b:
        return True
    if len(order_a) == len(order_b) == 2 and set(order_a) == set(order_b):
        return order_a == order_b
    return not (len(order_a) == len(order_b) == 1 and order_a != order_b)


def _another_first(text, other, named):
    """Whether ``text`` starts with a name no word of its language is (``_unknown_first_word``, which it does
    not read as a name: "Lan" is an orchid too) that ``other`` does not spell, and ``other`` names someone
    (``named``, ``_people``; the owner aside) that ``text`` does not spell: "Lan thích trà" is not "Minh
    likes tea", nor "Tuấn làm ở FPT" "Huy works at FPT". A word of its language starting ``text`` that no
    word of ``other`` translates is someone else only beside the one ``other`` starts with, whom it is of
    (``_untranslated_first_word``)."""
    letters = _letters(text)
    unspelt = {name for name, _ in named if name != OWNER and name not in letters}
    if not unspelt:
        return False
    first = _unknown_first_word(text)
    if first:
        people = _people(other, named)
    else:
        first = _untranslated_first_word(text, other)
        people = {name for name, whose in named[:1] if not whose and name == _first_plain(other)}
    return bool(first) and first not in _letters(other) and bool(unspelt & people)


def _first_plain(text):
    """The first word of ``text``, folded (``words_placed``), or None."""
    return next((plain for _, plain, _ in words_placed(text)), None)


def _written_first(text):
    """The first word of ``text`` as written (NFC), or ""."""
    return re.match(r"\W*(\w*)", unicodedata.normalize("NFC", text)).group(1)


def _untranslated_first_word(text, other):
    """The first word of a Vietnamese ``text`` (``LexiconWords.first``), a given name (``GIVEN_NAMES``), when
    ``other`` says nothing it may mean (in English, no word translating it; in Vietnamese, no word or phrase
    meaning what it may): someone, though a word too ("Hoa thích trà": not a flower, with "Lan likes tea";
    "Bình hay ăn sáng ở nhà": no "bình thường", usually)."""
    written = _written_first(text)
    if written.lower() not in GIVEN_NAMES or not written[:1].isupper():
        return ""
    mine, theirs = lexicon_words(text), lexicon_words(other)
    if not mine.first or mine.units[0] & theirs.english:
        return ""
    return mine.first


def _letters(text):
    """The letters of ``text``, folded, lower-case, nothing between them: where a name is looked for."""
    return re.sub(r"\W", "", fold(text)).lower()


# Words after which the parties of a text may change places and say the same: "Lan plays tennis with
# Minh" / "Minh chơi tennis với Lan", "Minh được Lan tặng sách" (a passive), folded; and words saying where,
# whose names are places, in either order ("sống ở quận Cầu Giấy, Hà Nội" / "lives in Hanoi, in Cầu Giấy").
_PLACES_FREE = frozenset("with and together each other by va voi cung nhau duoc bi in at o tai".split())


def parties_swapped(text_a, text_b):
    """Two texts name the same parties (two at least, the owner among them or not), not in the same order,
    with no "is" between them and nothing that lets parties change places (``_PLACES_FREE``): "Lan owes
    Minh 200k" / "Minh nợ Lan 200k", "Hiếu reports to the user" / "Người dùng báo cáo cho Hiếu"."""
    said = set(re.findall(r"\w+", fold(f"{text_a} {text_b}")))
    if said & (_COPULAS | _PLACES_FREE):
        return False
    a = [name for name, _ in _named(text_a, text_b)]
    b = [name for name, _ in _named(text_b, text_a)]
    return len(a) > 1 and a != b and Counter(a) == Counter(b)


# Lending, as written (marks kept: "mượn" is "borrow", "muốn" "want"), and owing or borrowing in what is left.
_LENDING = re.compile(
    r"\b(?:lend|lends|lent|lending|loaned)\b|(?<!\w)cho\s+(?:\w+\s+){0,5}?(?:vay|mượn)(?!\w)", re.IGNORECASE
)
_OWING = re.compile(
    r"\b(?:owe|owes|owed|owing|borrow|borrows|borrowed|borrowing)\b|(?<!\w)(?:nợ|vay|mượn)(?!\w)", re.IGNORECASE
)


def _debt_direction(text):
    """``"lend"`` for a text telling of lending ("lent Đức 5 million", "cho anh Đức vay 5 triệu"), ``"owe"`` for
    one of owing or borrowing ("owes Đức 5 million", "nợ Đức", "vay Đức"), else None (neither, or both)."""
    text = unicodedata.normalize("NFC", text)
    lends = bool(_LENDING.search(text))
    owes = bool(_OWING.search(_LENDING.sub(" ", text)))
    return ("lend" if lends else "owe") if lends != owes else None


def _debt_directions(text_a, text_b):
    """Both texts' ``_debt_direction``, or None when one of them tells of no debt."""
    directions = _debt_direction(text_a), _debt_direction(text_b)
    return None if None in directions else directions


def debts_converse(text_a, text_b):
    """One of two texts lends where the other owes or borrows (``_debt_direction``): the same debt told from
    the other side when the parties change places ("User lent Nam 2 million" / "Nam nợ người dùng 2 triệu")."""
    directions = _debt_directions(text_a, text_b)
    return directions is not None and directions[0] != directions[1]


def debts_reversed(text_a, text_b):
    """Two texts of a debt between the same parties that run it the other way: one lends where the other owes
    with the parties in the same places ("User lent Đức 5 million" / "The user still owes Đức 5 million"), or
    both lend or both owe with the parties in each other's places (``parties_swapped``). "User lent Đức 5
    million" and "Đức owes the user 5 million" are one debt."""
    directions = _debt_directions(text_a, text_b)
    return directions is not None and (directions[0] != directions[1]) != parties_swapped(text_a, text_b)


def debt_run_the_other_way(text_a, text_b):
    """Two texts of one debt between the same parties, of one amount, run the other way (``debts_reversed``),
    both stated or both denied: they cannot both hold. "Lan owes Minh 200k" / "Minh nợ Lan 200k", "Người dùng
    cho em gái Ngọc mượn 30 triệu" / "Người dùng đang vay em gái Ngọc 30 triệu"."""
    return (
        debts_reversed(text_a, text_b) and values(text_a) == values(text_b) and is_denial(text_a) == is_denial(text_b)
    )


# Saying where one was born or comes from.
_BIRTHPLACE = re.compile(r"\b(?:born|hometown|grew up)\b|(?<!\w)(?:sinh ra|quê)(?!\w)", re.IGNORECASE)


def names_instead(text_a, text_b):
    """Whether each of two texts names something and none of the same: one name in place of another
    ("User's main editor is Neovim" / "VS Code is the user's primary editor", "lives in Hanoi" / "lives in
    Da Nang"). Said of a proposal and the memory closest to it in meaning, the proposal may be meant to
    replace it: the write path flags it for the owner. (In the doctor's report it was wrong too often to
    stand as a contradiction: 7 of 14 on the blind sets.) Where one was born, or comes from, is no value
    where one lives now replaces: "User was born in Hanoi" / "User currently lives in Da Nang"."""
    if _both_may_hold(text_a, text_b):
        return False
    if bool(_BIRTHPLACE.search(text_a)) != bool(_BIRTHPLACE.search(text_b)):
        return False
    # Names said of someone one of the two speaks of and the other does not ("User's mother lives in Hue" /
    # "User's mother-in-law lives in Vinh", "his friend Khoa" / "his colleague Đức") are no value replaced; nor
    # those of two people each doing something (``_two_doing``), or of what two people have ("Khoa's monthly
    # rent is 9 million" / "Học phí mầm non của Bông là 9 triệu").
    if another_relative(meaning(text_a).content, meaning(text_b).content) or _two_doing(text_a, text_b):
        return False
    named_a, named_b = _named(text_a, text_b), _named(text_b, text_a)
    a = {name for name, _ in named_a} - {OWNER}
    b = {name for name, _ in named_b} - {OWNER}
    whose_a = {name for name, whose in named_a if whose} - {OWNER}
    whose_b = {name for name, whose in named_b if whose} - {OWNER}
    if whose_a and whose_b and not _share_a_name(whose_a, whose_b):
        return False
    return bool(a) and bool(b) and not _share_a_name(a, b)


def _share_a_name(names_a, names_b):
    """Whether two sets of names (``_named``'s, several words joined) share one, whole or, of three letters or
    more, as the end of the other's, where a name's short form is: "hondavision" is "vision", "bshung" ("BS
    Hùng") "hung"."""
    return any(_part_of(a, b) or _part_of(b, a) for a in names_a for b in names_b)


def _part_of(part, name):
    return part == name or len(part) >= 3 and name.endswith(part)


# The words a text starts with, as ``_named_doing`` reads them: words, with "'s" kept on theirs, and marks.
_OPENING = re.compile(r"[^\W\d_]+(?:['’]s)?|[^\w\s]")


@functools.lru_cache(maxsize=8192)
def _named_doing(text):
    """The name (folded) of someone ``text`` starts with doing something, after an honorific if it has one:
    "khoa" for "Khoa hates cilantro", "tu" for "Tú nuôi một con corgi", "hanh" for "Chị Hạnh sống ở Huế". None
    when its first word is a word of its language or the owner's, or the name is no one doing but a value
    ("Neovim is the main editor", "Sakura Logistics: main client") or whose something is ("Mochi's vet")."""
    tokens = _OPENING.findall(unicodedata.normalize("NFC", text))[:6]
    titled = bool(tokens) and tokens[0].lower() in WRITTEN_HONORIFICS
    start = index = int(titled)
    while index < len(tokens) and tokens[index].isalpha() and tokens[index][:1].isupper():
        index += 1
    if index == start or index == len(tokens):
        return None
    after = tokens[index]
    if not (after.isalpha() and after.islower()) or _a_value_given(after, tokens[index + 1 :]):
        return None
    name = fold(" ".join(tokens[start:index])).lower()
    if name.split()[0] in _OWNER_WORDS or name in _CALENDAR:
        return None
    written = [token.lower() for token in tokens]
    # A word with diacritics starting an English text may be Vietnamese: "Bún bò Huế is one of …".
    if not titled and (is_known_word(written, _english(text)) or is_known_word(written, False)):
        return None
    return name


# After "is", the words saying the name is the value of something: "Neovim is the main editor", "VS Code is now
# the user's editor" (not "Bin is in grade 5", "Phúc is 38", "Trang is a nurse").
_THE = frozenset("the my our his her their its".split())
_MEANWHILE = frozenset("now currently still also".split())


def _a_value_given(after, following):
    """Whether a name followed by the word ``after`` and then ``following`` (words and marks) is a value given,
    not someone doing or being something: after "is", the thing it is ("is the main editor", "is the user's");
    after Vietnamese "là" whatever follows."""
    copula = fold(after)
    if copula not in _COPULAS:
        return False
    if copula == "la":
        return True
    rest = [token for token in following if token.lower() not in _MEANWHILE]
    return not rest or rest[0].lower() in _THE or rest[0].lower().endswith(("'s", "’s"))


def _two_doing(text_a, text_b):
    """Whether two texts each start with someone named doing something (``_named_doing``), two people, neither
    named by the other: "Khoa hates cilantro" / "Thảo loves cilantro", "Khoa có một bé corgi tên Mochi" / "Tú
    nuôi một con corgi tên Bơ". Facts of two people, neither in place of the other's."""
    a, b = _named_doing(text_a), _named_doing(text_b)
    if not a or not b or a == b:
        return False
    return not _says_name(text_b, a) and not _says_name(text_a, b)


def _says_name(text, name):
    """Whether ``text`` has ``name`` (folded, maybe in several words) as words of its own."""
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", fold(text).lower()) is not None


def changed_names(text_a, text_b):
    """One of two texts says what it states is new (``says_changed``) and each names something the other
    does not (``names_instead``): "User uses VS Code now" / "Neovim is the main editor". Not of what one
    tells was so once only (``PAST``): "Từ 2012 đến 2016 chị Diệp từng làm trình dược viên" / "chị Diệp
    chuyển qua làm dược sĩ ở bệnh viện Phúc Khang"."""
    return (
        (says_changed(text_a) or says_changed(text_b))
        and not (PAST.search(text_a) or PAST.search(text_b))
        and names_instead(text_a, text_b)
    )


# Words telling what was so once, and is not now: "used to", "formerly", "từng", "trước đây", a span of years
# past ("from 2012 to 2016", "từ 2012 đến 2016").
PAST = re.compile(
    r"\b(?:used to|formerly|previously)\b|(?<!\w)(?:từng|trước đây|hồi trước|hồi xưa|truoc day|hoi truoc)(?!\w)"
    r"|(?<!\w)(?:from|between|từ|tu) (?:19|20)\d\d (?:to|until|and|đến|tới|den|toi|-|–) (?:19|20)\d\d\b",
    re.IGNORECASE,
)


def named_for_owner(text_a, text_b, owner_names=frozenset()):
    """The name one of two texts starts with where the other speaks of the owner (``_first_name``): "Lan"
    for "User is vegetarian" and "Lan ăn chay", "Huy" for "Anh Huy ăn chay". Either the owner called by name,
    or someone else; ``owner_names`` (folded) are the owner's own and are left out. Empty when both or
    neither speak of the owner, or the other names no one in the owner's place."""
    for text, other in ((text_a, text_b), (text_b, text_a)):
        if speaks_of_owner(other) and not speaks_of_owner(text):
            name = _first_name(text, other)
            return {name} - set(owner_names) if name else set()
    return set()


def names_someone(text, name):
    """Whether ``text`` writes ``name`` (folded) as a name: a word of its own, with a capital ("Lan is the
    user's wife"; not "lan" in "lane", nor the verb of "User lives in Hanoi" for "lives")."""
    return any(
        word[:1].isupper() and fold(word).lower() == name for word in re.findall(r"[^\W\d_]+", text)
    ) or name in {found.replace(" ", "") for found in _names(text, text)}


# A memory saying the owner's name: "User's name is Huy", "The user goes by Huy", "Address the user as 'chị
# Thảo'", "The owner wants to be called 'anh Minh'", "Tên người dùng là Huy", "Người dùng tên là Huy", "Gọi người
# dùng là anh Huy", "Người dùng muốn được gọi thẳng tên 'Thảo'" (not "Vợ người dùng tên là Lan"). The name may
# come in quotes and after an honorific.
_OWNER_NAME = r"['\"‘’“”]?(?:(?:mr|mrs|ms|anh|chị|em)\.? )?(\w+)"
_OWNER_NAMED = re.compile(
    "|".join(
        rf"\b{said}{_OWNER_NAME}"
        for said in (
            r"(?:user|owner)(?:['’]s)? (?:full |first |nick)?name is ",
            r"(?:user|owner) (?:goes by|is called|is named) ",
            r"(?:user|owner) (?:wants|likes|prefers|asks) to be (?:called|addressed as|addressed) ",
            r"(?:address|call)(?:es|s)? the (?:user|owner) (?:as )?",
            r"tên (?:của )?người dùng là ",
            r"(?<!\w\s)người dùng tên (?:là )?",
            r"gọi người dùng là ",
            r"(?<!\w\s)người dùng (?:muốn )?được gọi (?:thẳng )?(?:tên )?(?:là )?",
        )
    ),
    re.IGNORECASE,
)


def owner_named(text):
    """The names (folded) ``text`` says the owner goes by: {"huy"} for "User's name is Huy"."""
    return {fold(name).lower() for match in _OWNER_NAMED.finditer(text) for name in match.groups() if name}


def speaks_of_owner(text):
    """Whether ``text`` speaks of the owner ("the user", "người dùng")."""
    return OWNER in _names(text, text)


# A text's first word, after an honorific if it has one ("Anh Huy", "Mrs Ngọc").
_FIRST_NAMED = re.compile(r"\s*(?:(" + "|".join(WRITTEN_HONORIFICS) + r")\.?\s+)?([^\W\d_]+)", re.IGNORECASE)


def _first_name(text, other):
    """The name ``text`` starts with (folded), where a memory puts whom it is about, or None: a word in
    capitals that ``other`` does not have, after an honorific ("Anh Huy ăn chay"), or one that is no function
    word, no word for the owner and, as written, no word the lexicon knows ("Lan ăn chay", "Minh works at
    FPT"; not "Prefers pnpm" beside "User prefers pnpm", nor "Sáng nào anh cũng uống cà phê")."""
    first = _FIRST_NAMED.match(unicodedata.normalize("NFC", text))
    if not first or not first.group(2)[:1].isupper():
        return None
    written = first.group(2).lower()
    word = fold(written)
    if word in re.findall(r"[a-z0-9]+", fold(other).lower()):
        return None
    if first.group(1):
        return word
    by_phrase, _, _ = _lexicon()
    if (
        written in by_phrase
        or written in WRITTEN_HONORIFICS | _VIETNAMESE_FUNCTION_WORDS
        or word in _OWNER_WORDS
        or word in _ENGLISH_FUNCTION_WORDS
    ):
        return None
    return word


def _letter_values(text):
    """The letters, without a sign: "O+" is "O" told more exactly."""
    return {value.rstrip("+-") for value in LETTER_VALUE.findall(text)}


def details_agree(text_a, text_b):
    """For two texts whose words ``same_fact`` has set side by side, what words leave out: a capital letter
    standing for a value and its sign ("nhóm máu O" / "nhom mau A", "A+" / "A-"), the language asked for, a
    change told with a name the other does not give, diacritics where both write them ("bún bò" / "bún bơ",
    "Chị Hương" / "Chị Hường": ``spelt_alike``), and, when only one mentions the owner, whether the other names
    them by name or names someone else where they stand ("User owes Tuấn" / "Tuấn nợ anh Huy"), which
    ``names_agree`` decides, and when both do in two languages, whether they put the parties in each other's
    places (``parties_swapped``)."""
    letters_a, letters_b = _letter_values(text_a), _letter_values(text_b)
    if letters_a and letters_b and not (letters_a & letters_b and signs_agree(text_a, text_b)):
        return False
    # A language asked for, beside the one said to be written ("Always answer in English, even when I write in
    # Vietnamese" is not "Luôn trả lời bằng tiếng Việt").
    languages_a, languages_b = _languages_asked(fold(text_a)), _languages_asked(fold(text_b))
    if languages_a and languages_b and not languages_a & languages_b:
        return False
    # One saying what it states is new, and naming what the other does not, tells of a change, not the same
    # again: "Khoa's contract with Sakura Logistics ended; his main client is now Koala Pay" / "Main client:
    # Sakura Logistics".
    if tells_a_change(text_a, text_b) or tells_a_change(text_b, text_a):
        return False
    if not spelt_alike(text_a, text_b) or debts_reversed(text_a, text_b):
        return False
    if (OWNER in _names(text_a, text_b)) == (OWNER in _names(text_b, text_a)):
        # Both may speak of the owner as a party, in each other's places across languages: "Người dùng còn nợ
        # Tuấn 500 nghìn" / "Tuấn owes the user 500k" (words set side by side leave the owner out, and a
        # Vietnamese subject gives the English one "nợ"). In one language the order of their words tells it,
        # and a name may have moved alone: "For JavaScript, the user prefers pnpm over npm".
        if _english(text_a) == _english(text_b):
            return True
        return not parties_swapped(text_a, text_b) or debts_converse(text_a, text_b)
    return names_agree(text_a, text_b)


def tells_a_change(text, other):
    """Whether ``text`` says what it states is new (``says_changed``) and ``other`` does not, and ``text`` names
    something ``other`` does not (whom it is about aside): a change of what ``other`` says, which may be meant
    to replace it, never a repeat of it."""
    if not says_changed(text) or says_changed(other):
        return False
    mine = {name for name, _ in _named(text, other)} - {OWNER}
    theirs = {name for name, _ in _named(other, text)} - {OWNER}
    return any(not _share_a_name({name}, theirs) for name in mine - {_named_doing(text)})


def _loanwords_kept(vietnamese, english):
    """Words a Vietnamese text borrows as they are ("dị ứng penicillin", "dùng Zalo", "freeship"): spelt
    alike in an English translation, so one of them at least is in ``english`` when it has any. A tool of a
    kind one uses one at a time (``states.TOOLS_OF``) is a name: each one named is in the other too, by the
    name it is known by (``states.one_name``: "Go" is "Golang"); "dùng pnpm cho phần deploy" is not "uses
    Django for the deploy work", nor "dùng uv" "uses pnpm"."""
    vietnamese, english = states.one_name(vietnamese), states.one_name(english)
    kept = set(words(english)) | {fold(word).lower() for word in re.findall(r"\w+", english)}
    written = {fold(word).lower() for word in re.findall(r"\w+", vietnamese)}
    for tools, other in ((written, kept), (kept, written)):
        if any(tool not in other for tool in tools & states.TOOLS_OF.keys()):
            return False
    borrowed = {
        fold(word)
        for word in re.findall(r"(?<![\w'’])[A-Za-z]{3,}(?![\w'’])", vietnamese)
        if not could_be_vietnamese(fold(word)) and fold(word).lower() not in VIETNAMESE_NEGATIONS | CHAT_WORDS.keys()
    }
    if not borrowed:
        return True
    return any(
        word in kept or singular(word) in kept or any(typo_of(word, other) for other in kept) for word in borrowed
    )


# "thứ 2, 4, 6", "t3", "thứ 3 và thứ 5": days by number.
_DAYS = re.compile(DAYS_BY_NUMBER)
_MONTH_NUMBER = re.compile(r"\bthang\s*$")
_AFTERNOON = re.compile(r"(?::\d+)?\s*(?:pm\b|(?:gio|h)(?:\s*\d+)?(?:\s+phut)?\s+(?:chieu|toi|dem)\b)")
# A length in metres is read in centimetres: "1m62", "1,62 m" and "162 cm" are one height.
_METRES_AND = re.compile(r"\b(\d)m(\d\d)\b")
_METRES = re.compile(r"\s*m\b")
# A run's "k" is kilometres, not thousands: "a 5k run", "the 10k race" ("5 km").
_RACE = re.compile(r"\b(\d+)k(?=\s+(?:(?:fun\s+)?runs?|races?|walks?)\b)")
# "30/5/2027", "15/6": a day of a month (and a year).
_DATE = re.compile(r"\b(\d{1,2})/(\d{1,2})(?:/(\d{4}))?\b")
# Capitalised English months and weekdays, one a plural ("Mondays"), and their short forms ("Aug").
_CALENDAR_WORD = re.compile(r"\b(" + "|".join(w.capitalize() for w in MONTHS + WEEKDAYS) + r")s?\b")
_VIETNAMESE_DAY = re.compile(DAY_BY_NAME)


def _calendar(text, folded):
    """Days and months as values a translation keeps: "August" and "tháng 8" are ``month 8``, "Monday",
    "thứ Hai", "thứ 2" and "t2" are ``day 2`` (Sunday, "Chủ nhật", is ``day 8``)."""
    found = set()
    for word in _CALENDAR_WORD.findall(text):
        name = word.lower()
        found.add(f"month {MONTHS.index(name) + 1}" if name in MONTHS else f"day {WEEKDAYS.index(name) + 2}")
    for match in _VIETNAMESE_DAY.finditer(folded):
        found.add(f"day {VIETNAMESE_WEEKDAYS[match.group(1)]}" if match.group(1) else "day 8")
    return found


# Languages are values too: "tiếng Việt" / "English" are two ("replies in Vietnamese" / "trả lời bằng
# tiếng Anh" cannot both hold).
_LANGUAGE_NAMES = {
    "tieng viet": "vietnamese",
    "tieng anh": "english",
    "tieng nhat": "japanese",
    "tieng trung": "chinese",
    "tieng hoa": "chinese",
    "mandarin": "chinese",
    "tieng han": "korean",
    "tieng phap": "french",
    "tieng duc": "german",
} | {name: name for name in ("vietnamese", "english", "japanese", "chinese", "korean", "french", "german")}
_LANGUAGE_NAME = re.compile(r"\b(" + "|".join(_LANGUAGE_NAMES) + r")\b")
# A clause saying when (folded): the language named there is the owner's, not the one asked for ("Always answer
# in English, even when I write in Vietnamese", "trả lời bằng tiếng Anh kể cả khi tôi nhắn tiếng Việt").
_CONDITION = re.compile(r"\b(?:when|whenever|if|even if|khi|neu)\b[^,;.!?]*")


def _languages_asked(folded):
    """The languages a text (folded) names as values ("language english"), but in a clause saying when."""
    said = _CONDITION.sub(" ", folded)
    return {f"language {_LANGUAGE_NAMES[name]}" for name in _LANGUAGE_NAME.findall(said)}


def _numbers(text):
    """The numbers of ``text`` as values: "200k", "200.000" and "200 nghìn" are one amount; "7:30" two;
    days and months as ``_calendar`` has them, whether by name or by number ("30/5/2027" is 30, month 5
    and 2027)."""
    text = counts_in_digits(text)
    folded = HALF_PAST.sub(r"\1:30", fold(_MILLIONS.sub(" million", text)))
    values = _calendar(text, folded)
    values.update(_languages_asked(folded))
    for day, month, year in _DATE.findall(folded):
        values.update({float(day), f"month {int(month)}", *([float(year)] if year else [])})
    for days in _DAYS.findall(folded):
        values.update(f"day {day}" for day in re.findall(r"\d", days))
    folded = _DAYS.sub(" ", _DATE.sub(" ", folded))
    folded = _METRES_AND.sub(r"\1.\2 m", folded)
    folded = _RACE.sub(r"\1 km", folded)
    # An amount as chat types it is one number: "7tr5" is 7.5 million, "1k5" 1,500.
    folded = amounts_in_digits(folded)
    # English number words in English texts only: folded, "tên" (a name) is "ten".
    if _english(text):
        values.update(float(ENGLISH_NUMBERS[word]) for word in re.findall(r"[a-z]+", folded) if word in ENGLISH_NUMBERS)
    for match in _NUMBER.finditer(folded):
        digits, scale = match.groups()
        # "tháng 4" is April, but "mỗi tháng 4 triệu" is four million a month.
        if _MONTH_NUMBER.search(folded[: match.start()]) and digits.isdigit() and int(digits) <= 12 and not scale:
            values.add(f"month {int(digits)}")
            continue
        value = amount(digits, scale or "")
        values.add(value)
        if _AFTERNOON.match(folded, match.end()) and value < 12:
            values.add(value + 12)  # "3pm" and "3 giờ chiều" are 15h too
        elif _METRES.match(folded, match.end()) and value < 3 and not value.is_integer():
            values.discard(value)
            values.add(round(value * 100, 1))
    return values


def across_languages(text_a, text_b):
    """Whether two memories in different languages, which the model finds each other's closest, say the
    same fact (``SAME``), its negation (``OPPOSED``) or cannot be told apart by what a translation keeps
    (None). Their words cannot be set side by side, but a translation keeps the polarity, the numbers and
    the names: the same fact has the same numbers and names where both give them (``names_agree``: "Lan
    owes Minh" is not "Minh nợ Lan"; the numbers of one all among the other's), and the same polarity.
    A word the Vietnamese one borrows as it is ("penicillin") must be in the English one. One that differs
    only in polarity is its negation; one with one value in place of another says the same of another
    value ("size 42" / "cỡ giày 43"): both cannot be true; but a value aimed at is no value had in its
    place (``sets_a_goal``: "User's goal weight is 65 kg" / "Người dùng nặng 72kg")."""
    verdict = _across_languages(text_a, text_b)
    if verdict == OPPOSED and sets_a_goal(meaning(text_a).folded) != sets_a_goal(meaning(text_b).folded):
        return None
    return verdict


def _across_languages(text_a, text_b):
    """``across_languages``' verdict by what a translation keeps, before a value aimed at is set apart."""
    negated_a, negated_b = is_denial(text_a), is_denial(text_b)
    # A debt run the other way is no translation of it, and of the same amount cannot both hold: "User lent Đức
    # 5 million" / "Anh Tùng nợ anh Đức 5 triệu" (of Tùng), "Lan owes Minh 200k" / "Minh nợ Lan 200k".
    if debts_reversed(text_a, text_b):
        return OPPOSED if debt_run_the_other_way(text_a, text_b) else None
    if not names_agree(text_a, text_b):
        # The same words with the parties in each other's places: "Lan owes Minh 200k" / "Minh nợ Lan 200k".
        # (Not a debt told from the other side: "User lent Nam 2 million" / "Nam nợ người dùng 2 triệu".)
        swapped = (
            parties_swapped(text_a, text_b)
            and not debts_converse(text_a, text_b)
            and values(text_a) == values(text_b)
            and negated_a == negated_b
        )
        return OPPOSED if swapped else None
    if _only_some(text_a, text_b) or _preference_reversed(text_a, text_b):
        return OPPOSED
    if _sets_aside(text_a, text_b) or _sets_aside(text_b, text_a):
        return OPPOSED
    # A thing chosen instead of another is one said done and the other not, however each text puts it.
    alike = negated_a == negated_b or (chooses_one_over_another(text_a) and chooses_one_over_another(text_b))
    if not alike and (
        _denies_telling(*((text_a, text_b) if negated_a else (text_b, text_a)))
        or allergy_explains(*((text_a, text_b) if negated_a else (text_b, text_a)))
    ):
        return None
    # A clause after the first that denies what the other does not say is more said, not the other negated:
    # "Người dùng uống trà xanh mỗi sáng, không uống cà phê" / "User drinks green tea every morning".
    aside_a = not alike and denies_aside(text_a)
    if aside_a or (not alike and denies_aside(text_b)):
        negated, positive = (text_a, text_b) if aside_a else (text_b, text_a)
        denied = denies_in_other_language(text_a, text_b) or _denied_aside(negated, positive)
        return OPPOSED if denied else None
    vietnamese, english = (text_a, text_b) if language_of(text_a) == VIETNAMESE else (text_b, text_a)
    if not _loanwords_kept(vietnamese, english):
        return None
    # One may leave out what the other spells out ("7:30" / "7 rưỡi", "August 12" / "12 tháng 8").
    values_a, values_b = _set_against(values(text_a), values(text_b))
    if values_a and values_b and not (values_a <= values_b or values_b <= values_a):
        # One value in place of another: "size 42" / "cỡ 43", "blood type O" / "nhóm máu A"; not the values of
        # two things of a kind ("màn hình" 5 triệu / "phone" 10 million).
        instead = alike and values_instead(values_a, values_b) and not _other_things(text_a, text_b)
        return OPPOSED if instead else None
    return SAME if alike else OPPOSED


# Where a text's first clause ends; where any of its clauses ends, its reasons ("vì", "because") included.
_FIRST_CLAUSE_END = re.compile(r"[,;]|\b(?:but|and)\b|(?<!\w)(?:nhưng|và|nhung|va)(?!\w)", re.IGNORECASE)
_CLAUSE_END = re.compile(
    _FIRST_CLAUSE_END.pattern + r"|\b(?:because|since)\b|(?<!\w)(?:bởi vì|tại vì|vì|vi)(?!\w)", re.IGNORECASE
)
# A negation as written, in either language.
_NEGATION = re.compile(r"n't\b|(?<!\w)(?:not|never|no|cannot|không|chưa|chẳng|đừng|chớ|ko|khong)(?!\w)", re.IGNORECASE)
# The words after a negation, and the verbs of what an agent is told to do (as English stems; "gửi email" is
# read as "email").
_AFTER_NEGATION = re.compile(r"(?:n't|(?<!\w)(?:not|never|no|đừng|không|chớ|ko|khong))(?!\w)((?:\W+\w+){1,4})", re.I)
_TOLD = frozenset(
    "suggest recommend propos remind mention send email mail offer book order schedul call messag text invit".split()
)


def _denied_aside(text, other):
    """``text``, negated after its first clause (``denies_aside``), gives there a value or a word of
    ``other``'s, in English, that its first clause does not: "Đức chỉ muốn họp buổi sáng, không họp chiều" /
    "Đức prefers meetings in the afternoon", "Vy takes piano lessons, not drawing" / "Bé Vy học vẽ". What
    ``other`` denies too is no such word: "Only write to Vinh in Vietnamese; he can't read English" / "Vinh
    dặn chỉ nhắn bằng tiếng Việt vì anh không đọc được tiếng Anh"."""
    first, *rest = _FIRST_CLAUSE_END.split(text, maxsplit=1)
    if not rest:
        return False
    said = _affirmed(other)
    if (values(rest[0]) - values(first)) & values(said):
        return True
    vietnamese = language_of(text) == VIETNAMESE
    denied = _in_english(rest[0], vietnamese) - _in_english(first, vietnamese) - _PEOPLE_STEMS
    return bool(denied & _in_english(said, not vietnamese))


def _affirmed(text):
    """The clauses of ``text`` that deny nothing (its reasons are clauses too), joined: what it says is so. What
    one is preferred to is not ("User prefers Zalo messages over phone calls" affirms no calls)."""
    kept = []
    for clause in _CLAUSE_END.split(text):
        if clause and not _NEGATION.search(clause):
            sides = preference_sides(clause)
            kept.append(clause.replace(sides[1], " ") if sides else clause)
    return " ".join(kept)


def _denies_telling(negated, other):
    """``negated`` denies an agent's doing something (a verb of ``_TOLD`` right after its negation) that
    ``other`` does not speak of: "Never suggest shrimp dishes to Khoi, he is allergic to shrimp" is no
    negation of "Khôi bị dị ứng tôm", nor "Đừng nhắn cho Lan sau 10 giờ tối" of "Lan goes to bed at 10pm"."""
    found = _AFTER_NEGATION.search(negated)
    if not found:
        return False
    vietnamese = language_of(negated) == VIETNAMESE
    told = _in_english(found[1], vietnamese) & _TOLD
    return bool(told) and not told & _in_english(other, not vietnamese)


def _in_english(text, vietnamese):
    """The English stems of ``text``'s words, or of what the lexicon reads them as."""
    found = lexicon_words(text, vietnamese)
    return found.english if vietnamese else found.stems


def _sets_aside(text, other):
    """``text`` sets aside a thing ``other`` says (``set_aside``), by a name (capitalised in one of them):
    "đi Bali hưởng tuần trăng mật thay vì Hokkaido" / "will go to Hokkaido for their honeymoon", "Tuan wants
    reminders on Telegram, not Zalo" / "nhac a tuan qua zalo nhe, a k dung telegram"."""
    aside, _, named = set_aside(text)
    if not aside:
        return False
    _, said, named_there = set_aside(other)
    found = aside & said & (named | named_there)
    # Whom either speaks of is nothing set aside ("Đừng cho ngò rí vào món của chị Thảo" / "Thảo hates cilantro").
    return bool(found and found - _people(text, _named(text, other)) - _people(other, _named(other, text)))


def _preference(text):
    """``(preferred, other)``, the English stems of each side of what ``text`` prefers to what, or None."""
    sides = preference_sides(text)
    if sides is None:
        return None
    if language_of(text) == VIETNAMESE:
        return tuple(lexicon_words(side, True).english for side in sides)
    return tuple(_english_stems(side) for side in sides)


def _preference_reversed(text_a, text_b):
    """Two texts prefer the same two things the other way round: "Bà Bích thích được gọi điện hơn là nhắn tin"
    / "Bích now prefers Zalo text messages to phone calls"."""
    a, b = _preference(text_a), _preference(text_b)
    return a is not None and b is not None and preferred_the_other_way(a, b)


# "Only", in either language ("địa chỉ" is an address, "chỉ số" an index). Typed plainly, "chỉ" is "chi", as
# "chị" (an elder sister) is, so there only "duy nhat" and "thôi" ending a clause ("xài vim thôi") count.
SAYS_ONLY = re.compile(
    r"\b(?:only|solely|sole|exclusively)\b|(?<!\w)(?:duy nhất|duy nhat)(?!\w)"
    r"|(?<!\w)(?<!địa )chỉ(?! (?:số|đạo|huy|dẫn|tiêu|định|trích|thị|vàng|may|khâu))(?!\w)"
    r"|(?<!\w)th[oô]i(?=\s*(?:[,.;!?]|$))",
    re.IGNORECASE,
)


def _only_some(text_a, text_b):
    """One of two texts says "only" of some of the names the other gives: "Bếp Nhà lúc ra mắt sẽ chỉ có bản
    iOS" / "Bếp Nhà will launch on iOS and Android". It must name one at least: a name one side gives and
    the other leaves out is the owner's as often ("Anh Phong chỉ uống cà phê đen" / "Only drinks black
    coffee")."""
    only_a, only_b = bool(SAYS_ONLY.search(text_a)), bool(SAYS_ONLY.search(text_b))
    if not (only_a or only_b):
        return False
    named_a = set(_names(text_a, text_b)) - {OWNER}
    named_b = set(_names(text_b, text_a)) - {OWNER}
    if named_a and named_a < named_b:
        return only_a
    return bool(named_b) and named_b < named_a and only_b


# The times of day, which a translation keeps ("mỗi sáng" / "every morning"); Vietnamese as written, not as a
# meal ("ăn tối" is dinner, "bữa trưa" lunch) nor in other words ("ánh sáng" is light, "sáng tạo" creative,
# "chiều cao" height, "tối ưu" optimal). Typed plainly only where nothing else is meant ("buoi sang", "7h
# toi", "sang nao"): "sang" is also going over, "toi" "I". An evening and a night are one: "tối" is either.
_PLAIN_TIME = r"|(?<!\w)(?:buoi|gio|\d+h?) {0}(?!\w)|(?<!\w){0} nao(?!\w)"
_TIMES_OF_DAY = (
    (
        "morning",
        r"\bmornings?\b|(?<!\w)(?<!ánh )(?<!ăn )(?<!bữa )sáng(?! (?:tạo|kiến|suốt|chói|lập|tác|sủa))(?!\w)"
        + _PLAIN_TIME.format("sang"),
    ),
    ("noon", r"\b(?:noon|midday)\b|(?<!\w)(?<!ăn )(?<!bữa )(?<!ngủ )trưa(?!\w)" + _PLAIN_TIME.format("trua")),
    (
        "afternoon",
        r"\bafternoons?\b|(?<!\w)chiều(?! (?:cao|dài|rộng|sâu|chuộng|lòng|theo|ngang))(?!\w)"
        + _PLAIN_TIME.format("chieu"),
    ),
    (
        "evening",
        r"\b(?:evenings?|night|tonight)\b|(?<!\w)(?:đêm|khuya)(?!\w)"
        r"|(?<!\w)(?<!ăn )(?<!bữa )tối(?! (?:ưu|đa|thiểu|mật|giản|cổ|thượng|hậu|tân))(?!\w)"
        + _PLAIN_TIME.format("(?:toi|dem|khuya)"),
    ),
)
_TIME_OF_DAY = [(f"time {time}", re.compile(pattern, re.IGNORECASE)) for time, pattern in _TIMES_OF_DAY]


def _of_kind(found, kind):
    """The values of a kind (``_value_kind``) among ``found``."""
    return {value for value in found if isinstance(value, str) and value.startswith(kind + " ")}


def _fixed(found):
    """``found`` values but times of day and how often."""
    return found - _of_kind(found, "time") - _of_kind(found, "often")


def _set_against(values_a, values_b):
    """Two texts' values as they are set against each other: a time of day, or how often, against one only
    ("tap gym t2 t4 t6 luc 6h30" / "… Mon, Wed and Fri at 6:30am", "metformin 500mg sang 1 vien toi 1 vien" /
    "metformin 500 mg twice a day")."""
    for kind in ("time", "often"):
        kind_a, kind_b = _of_kind(values_a, kind), _of_kind(values_b, kind)
        if not (kind_a and kind_b):
            values_a, values_b = values_a - kind_a, values_b - kind_b
    return values_a, values_b


# A time of day after an hour is part of it, which the hour gives: "6 giờ chiều" is "6pm", "4 giờ sáng"
# "4am" (where "chiều" ends and "tối" starts, the languages do not agree).
_HOUR_OF_DAY = re.compile(
    r"\d+\s*(?:giờ|gio|h)?(?:\s*\d+)?(?:\s*(?:phút|phut|rưỡi|ruoi))?\s+(?:sáng|trưa|chiều|tối|đêm|khuya|sang|trua|chieu|toi|dem)(?!\w)",
    re.IGNORECASE,
)


def _times_of_day(text):
    text = _HOUR_OF_DAY.sub(" ", text)
    return {time for time, pattern in _TIME_OF_DAY if pattern.search(text)}


_PERIODS = frozenset({"day", "week", "month"})


def _how_often(order):
    """How often a text says a thing is done, from its words in ``order`` as ``meaning`` reads them one way
    ("3 lần một tuần" and "three times a week" are "3x week", "mỗi ngày" and "daily" "every day"): ``{"often
    3/week"}``. Every week or month is said of amounts as often ("Monthly rent is 6 million" / "8M VND a
    month"), and is none."""
    found = set()
    for word, period in itertools.pairwise(order):
        if period in _PERIODS and re.fullmatch(r"\d+x", word):
            found.add(f"often {word[:-1]}/{period}")
        elif (word, period) == ("every", "day"):
            found.add("often 1/day")
    return found


# An email address, a value no other address is: "minh.tran88@gmail.com" / "minh@acme.com".
_ADDRESS = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
# The word the assistant calls itself by, a value too: "xưng em" is not "xưng tôi".
_SELF_CALLED = re.compile(r"(?<!\w)xưng (?:là )?[\"“'‘]?(\w+)", re.IGNORECASE)


# When a value said to be new became so is no value of it: "Giá croissant đã tăng lên 38 nghìn từ tháng 10",
# "Since September 2026 …", "Tháng 11/2026 bác sĩ đã tăng liều … lên 75mcg" give one price or dose each, as
# the old value does (not "from 20 December to 5 January", a span, nor "is now in April 2027", the value).
_SINCE_WHEN = re.compile(
    r"(?:\b(?:since|from|as of|starting|effective)|^\s*in)"
    r" (?:(?:early|mid|late|the (?:start|beginning|end|middle) of) )?"
    rf"(?:{MONTH_WRITTEN}(?: \d{{1,2}}(?:st|nd|rd|th)?)?(?:,? \d{{4}})?"
    rf"|\d{{1,2}}(?:st|nd|rd|th)? (?:of )?{MONTH_WRITTEN}(?:,? \d{{4}})?"
    r"|\d{1,2}/\d{1,2}(?:/\d{2,4})?|\d{4}|(?:last|this|next) (?:week|month|year))\b"
    r"(?![,/]? ?\d)(?!\s*(?:to|until|till|through|-|–)\s)"
    r"|(?<!\w)(?:(?:kể |bắt đầu |ke |bat dau )?(?:từ|tu)|^\s*)(?: (?:đầu|giữa|cuối|dau|giua|cuoi))? ?"
    r"(?:(?:tháng|thang) \d{1,2}(?:/\d{4})?|T\d{1,2}|\d{1,2}/\d{1,2}"
    r"(?:/\d{2,4})?|năm \d{4}|(?:tuần|tháng|năm) (?:này|sau|trước|tới))(?![\w/])(?!\s*(?:đến|tới|-|–)\s)",
    re.IGNORECASE,
)


# The write path compares a proposal with the newest memories of its subject, and the next one with mostly
# the same ones: their values are kept.
@functools.lru_cache(maxsize=4096)
def values(text):
    """The values a text gives, which a translation or a paraphrase keeps: numbers, days, months,
    languages, letters ("nhóm máu O"), times of day, how often (whose count is no number apart), email
    addresses, the word the assistant calls itself by; a frozenset. When a text says a value is new, when it
    became so is none (``_SINCE_WHEN``)."""
    text = unicodedata.normalize("NFC", text)
    if says_changed(text):
        text = _SINCE_WHEN.sub(" ", text)
    order = meaning(text).order
    addresses = _ADDRESS.findall(text) if "@" in text else []
    # The digits of an email address are no number: "minh.tran88@gmail.com".
    numbers, often = _numbers(_ADDRESS.sub(" ", text) if addresses else text), _how_often(order)
    # Every day of the week named, at a time of day or not, is once a week: "mỗi tối Chủ nhật" / "every Sunday
    # evening".
    if _of_kind(numbers, "day") and ("often 1/day" in often or "every" in order):
        often = (often - {"often 1/day"}) | {"often 1/week"}
    counts = {float(value.split()[1].partition("/")[0]) for value in often}
    named = {f"address {address.lower()}" for address in addresses}
    if "xưng" in text.lower():
        named |= {f"self {fold(word).lower()}" for word in _SELF_CALLED.findall(text)}
    return frozenset((numbers - counts) | _letter_values(text) | _times_of_day(text) | often | named)


def _value_kind(value):
    """What a value is: a number, a letter, or what a named one names ("month 8" is a month, "day 2" a day)."""
    if isinstance(value, float):
        return "number"
    kind, _, rest = value.partition(" ")
    return kind if rest else "letter"


def values_instead(values_a, values_b):
    """Two texts' values are as many of the same kinds, and not the same ones: one value in place of
    another ("size 42" / "cỡ 43", "June 15, 2027" / "30/5/2027"), not one that only leaves a value out
    ("7:30" / "7 rưỡi") or gives another kind of one ("2 tiếng" / "Chủ nhật")."""
    one_a, one_b = _one_time(values_a), _one_time(values_b)
    return (
        bool(values_a and values_b)
        and not (values_a <= values_b or values_b <= values_a)
        and sorted(map(_value_kind, one_a)) == sorted(map(_value_kind, one_b))
    )


def _one_time(found):
    """``found`` (a text's values) with an hour read both ways ("11pm": 11 and 23, ``values``) as one: "goes
    to bed at 11pm" gives one time, as "đi ngủ lúc 1 giờ sáng" does."""
    return frozenset(value for value in found if not isinstance(value, float) or value + 12 not in found)


# Words that say what a text states holds besides something else ("Project Orion is also due on 15 March",
# "Bố mẹ của người dùng cũng sống ở Hà Nội"), but not "nào … cũng" (every: "Sáng Chủ nhật nào chị Thảo cũng
# chạy").
_ADDS = re.compile(r"\b(?:also|as well)\b|(?<!\w)cũng(?!\w)", re.IGNORECASE)
_EVERY = re.compile(r"(?<!\w)nào(?!\w)[^,;.!?]*?(?<!\w)cũng(?!\w)", re.IGNORECASE)


def adds(text):
    """Whether ``text`` says that what it states holds besides something else: it puts nothing in the place
    of what another says."""
    return bool(_ADDS.search(_EVERY.sub(" ", text)))


# Something had among others, told with "a": an event ("User has a dental cleaning on June 5", "Người dùng có
# lịch khám răng sáng thứ 2", "có một chuyến bay đi Bangkok ngày 20/3"), or a thing ("has a cat named Mochi").
_ONE_OF_MANY = re.compile(
    r"\b(?:has|have|had|got|booked) (?:a|an|another)\b"
    r"|(?<!\w)(?:có|co|đặt|dat) (?:một |1 )?(?:lịch|lich|hẹn|hen|chuyến|chuyen|buổi|buoi|cuộc|cuoc)(?!\w)",
    re.IGNORECASE,
)


def _two_of_many(text_a, text_b):
    """Whether each of two texts tells of something the one it is about has among others (``_ONE_OF_MANY``), so
    two dates, places or names are two of them, not one value in the other's place ("User has a dental cleaning
    on June 5" / "User has a follow-up dental visit on June 20", "has a cat named Mochi" / "has a cat named
    Miu"). A text saying what it tells is new is of one: "The dentist appointment moved to June 20"."""
    return all(_ONE_OF_MANY.search(text) and not says_changed(text) for text in (text_a, text_b))


def _both_may_hold(text_a, text_b):
    """Whether two texts naming or giving different things may both be true, so that neither names
    (``names_instead``) nor gives (``another_value``) something in the other's place: one says it holds besides
    something else (``adds``: "also", "cũng"), they name two things of a kind (``_other_things``: a cat and a
    dog), things kept for other uses ("Windows ở máy nhà" / "Ubuntu ở máy công ty": ``_kept_for_other_uses``),
    or two of what one has among others (``_two_of_many``: "has a dental cleaning on June 5" / "… on June 20")."""
    if adds(text_a) or adds(text_b) or _other_things(text_a, text_b):
        return True
    return _kept_for_other_uses(meaning(text_a).content, meaning(text_b).content) or _two_of_many(text_a, text_b)


def another_value(text_a, text_b):
    """Whether two texts, in one language or in two, that the model finds close in meaning say the same of
    another value: the same polarity, names that agree, one value in place of another ("Lan's thesis
    deadline is June 15" / "Lan's thesis is due on May 30", "Ngân sách mua laptop là 15 triệu" / "Ngân sách
    cho laptop mới là 10 triệu đồng"). Both cannot be true now. A time of day or how often is no such value:
    things of every kind are done then ("chạy bộ 3 lần một tuần" / "đi bơi hai lần mỗi tuần"); nor a bound
    one way and one the other ("sau 9 giờ tối" / "trước 7 giờ sáng": ``bounds_the_other_way``)."""
    if not values_instead(_fixed(values(text_a)), _fixed(values(text_b))):
        return False
    read_a, read_b = meaning(text_a), meaning(text_b)
    return (
        read_a.negated == read_b.negated
        and not bounds_the_other_way(read_a.content - read_b.content, read_b.content - read_a.content)
        and names_agree(text_a, text_b)
        and not _both_may_hold(text_a, text_b)
        and sets_a_goal(read_a.folded) == sets_a_goal(read_b.folded)
        and _of_one_thing(read_a, read_b)
    )


def _of_one_thing(read_a, read_b):
    """Whether two texts in one language give their values of one thing: of the words of one of them that are no
    name, number or word of when (``words_in_common``), half at least said by the other. "User's rent is 8
    million VND per month" and "User's electricity bill is about 800k a month" are two bills, "Người dùng dậy
    lúc 6 giờ sáng" and "Người dùng đi làm lúc 7 giờ sáng" two times. Across the languages, the words cannot be
    set side by side: a translation's verdict has looked at them."""
    if read_a.vietnamese != read_b.vietnamese:
        return True
    for mine, theirs in ((read_a, read_b), (read_b, read_a)):
        common, of = words_in_common(mine, theirs, WHEN_WORDS)
        if 2 * common >= of:
            return True
    return False


# What one thing of a kind is kept for, by the words saying it, folded ("cá nhân", "riêng"; "công ty", "công
# việc"; "nhà"; "full", "half"): a personal email and a work one are two addresses, not one changed.
_USES = {
    **dict.fromkeys("personal private nhan rieng".split(), "personal"),
    **dict.fromkeys("work business office company cong".split(), "work"),
    **dict.fromkeys("home nha".split(), "home"),
    # How long what is priced lasts: a full-day tour and a half-day one are two prices.
    "full": "full",
    "half": "half",
}


def _kept_for_other_uses(content_a, content_b):
    """Each of two contents says what its thing is for, and not the same: "User's personal email is …" /
    "User's work email is …", "SĐT cá nhân …" / "Số điện thoại công ty …"."""
    uses_a = {_USES[word] for word in content_a if word in _USES}
    uses_b = {_USES[word] for word in content_b if word in _USES}
    return bool(uses_a - uses_b) and bool(uses_b - uses_a)


# Content words of each of two texts in other words the other must say too, as they are, with a typo or a
# synonym: at least so many, and at least this share of its own (chosen on the blind open sets; on those
# measured only, 2 alone joined as many wrong pairs as right ones, with the share 3 right ones to 2 wrong).
IN_OTHER_WORDS_SHARED = 2
IN_OTHER_WORDS_SAID = 0.5


def in_other_words(first, second, text_a, text_b, values_a, values_b):
    """Whether two memories in one language that the model finds closest to each other, standing out from the
    rest (the doctor's counterparts), state one fact in other words: "Don't book meetings for the user on
    Tuesday mornings" / "The user keeps Tuesday mornings free of meetings", "Bà Lan đi bơi hai buổi mỗi tuần"
    / "Mỗi tuần bà Lan bơi 2 lần". ``first`` and ``second`` are their ``Variant``s, ``values_a`` and
    ``values_b`` their ``values`` (which a caller comparing many pairs keeps). The model puts one
    topic's memories close together ("Lan's thesis is due on 30 May" / "Lan writes her thesis in LaTeX"), so
    the words must agree too: at least ``IN_OTHER_WORDS_SHARED`` content words of each that are no names or
    numbers, and ``IN_OTHER_WORDS_SAID`` of them, said by the other (``words_in_common``), and nothing saying
    otherwise:
    - one negated and not the other, a thing chosen instead of another, someone's relative on one side only
      or another one on each;
    - two things of a kind (``states.other_things``), or words that contradict (``contradict``, ``denies``);
    - names that do not agree (``names_agree``: another project, the parties the other way round);
    - another value: numbers neither of which gives all the other's, or values of one kind (a month, a
      time of day, how often, a language) none the same."""
    if first.vietnamese != second.vietnamese or first.negated != second.negated or first.instead or second.instead:
        return False
    if first.content & states.PEOPLE != second.content & states.PEOPLE:
        return False
    if states.other_things(first.content, second.content) or contradict(first, second, False):
        return False
    if denies(first, second, False) or not names_agree(text_a, text_b):
        return False
    if values_instead(values_a, values_b):
        return False
    numbers_a = {value for value in values_a if isinstance(value, float) and value}
    numbers_b = {value for value in values_b if isinstance(value, float) and value}
    if not (numbers_a <= numbers_b or numbers_b <= numbers_a):
        return False
    kinds = {_value_kind(value) for value in values_a | values_b} - {"number", "letter"}
    for kind in kinds:
        kind_a, kind_b = _of_kind(values_a, kind), _of_kind(values_b, kind)
        if kind_a and kind_b and not kind_a & kind_b:
            return False
    names = _names_of_both(text_a, text_b)
    said = [words_in_common(first, second, names), words_in_common(second, first, names)]
    enough = all(common >= IN_OTHER_WORDS_SHARED and common >= IN_OTHER_WORDS_SAID * of for common, of in said)
    return enough and details_agree(text_a, text_b)


def repeated_in_other_words(new, old):
    """Whether the text ``new`` says ``old`` again in other words of its language (``in_other_words``) and
    nothing more, so that it can be merged into it: no denial (a broader one is no repeat of a narrower, "User
    does not drink coffee" / "… after 2pm"), no more content words and no value ``old`` does not give ("User's son
    Bin is 7 years old and very shy" / "User's son Bin is 7 years old")."""
    first, second, values_new, values_old = variant_of(new), variant_of(old), values(new), values(old)
    if first.negated or len(first.content) > len(second.content) or not values_new <= values_old:
        return False
    return in_other_words(first, second, new, old, values_new, values_old)


def _names_of_both(text_a, text_b):
    """The names of two texts, named inside one or first: whom a text is about is no word of what it says
    ("Hằng wakes up at 4am")."""
    first_names = {_first_name(text_a, ""), _first_name(text_b, "")} - {None}
    return frozenset(names_in(text_a) + names_in(text_b)) | first_names


def value_changed(first, second, text_a, text_b, said=IN_OTHER_WORDS_SAID):
    """Whether, of two memories in one language (``first`` and ``second`` their ``Variant``s), one says its
    value is new (``says_changed``) and the other gives another value of the same thing: "Từ tháng này ngân
    sách đi chợ tăng lên 10 triệu/tháng" / "Ngân sách đi chợ hằng tháng của nhà anh Khoa là 8 triệu đồng". The
    same thing: of the other's content words, no names or numbers, at least ``IN_OTHER_WORDS_SHARED`` and
    ``said`` of them (``IN_OTHER_WORDS_SAID`` unless given) said by the one saying it changed, which may say
    more ("từ tháng này")."""
    if first.vietnamese != second.vietnamese:
        return False
    changed = [says_changed(text_a), says_changed(text_b)]
    if not any(changed):
        return False
    # The names left out can only lessen the words in common: most pairs are told apart before the names
    # are looked for.
    sides = [(new, old) for new, old, is_new in ((first, second, changed[0]), (second, first, changed[1])) if is_new]
    sides = [(new, old) for new, old in sides if _same_thing(old, new, *words_in_common(old, new), said=said)]
    if not sides:
        return False
    names = _names_of_both(text_a, text_b)
    for new, old in sides:
        if _same_thing(old, new, *words_in_common(old, new, names), said=said):
            return another_value(text_a, text_b)
    return False


def _same_thing(old, new, common, of, said=IN_OTHER_WORDS_SAID):
    """Whether ``new`` (a Variant saying its value is new) speaks of what ``old`` gives a value of, ``common``
    of ``old``'s ``of`` content words being said by ``new``: enough of them (``IN_OTHER_WORDS_SHARED`` and
    ``IN_OTHER_WORDS_SAID``), or all of one or two, of the same people: "User's salary is 30 million VND" /
    "User got a raise; salary is now 35 million VND"."""
    if common >= IN_OTHER_WORDS_SHARED and common >= said * of:
        return True
    return 1 <= common == of <= 2 and old.content & states.PEOPLE == new.content & states.PEOPLE


def said_otherwise(text, others, subject="", kind=""):
    """The ids of ``others`` (``{id: text}``: live memories of one user and kind, of ``subject`` when given)
    that ``text`` says otherwise than: the doctor's conflicts by the words (``meaning.contradicted``), and a
    value said to be new against another value of the same thing (``value_changed``). A new proposal like
    that may be meant to replace them."""
    found = contradicted(text, others, subject, kind)
    new = variant_of(text, subject, kind)
    return found + [
        pk
        for pk, other in others.items()
        if pk not in found and value_changed(new, variant_of(other, subject, kind), text, other)
    ]


def _other_things(text_a, text_b):
    """Two texts name two things of a kind (``states.other_things``): a cat and a dog, a laptop and a phone."""
    return states.other_things(meaning(text_a).content, meaning(text_b).content)


# ---------------------------------------------------------------------------------------------------
# Words that translate each other

# English endings a word's lexicon form leaves off ("lives", "lived", "living" are "live").
_ENDINGS = ("ingly", "edly", "ings", "ing", "ied", "ies", "ed", "es", "s", "ly")
# English words a translation need not carry: function words, the owner, pronouns, negations (polarity is
# compared on its own).
_ENGLISH_FUNCTION_WORDS = frozenset(
    """a an the is are was were be been being am of for by with and or that this these those its it as very
    really just also does did do has have had user users owner in on at to into from i me my he she his her
    him they them their we our you your not no never can could will would should must may might than then
    there here who whom which what when where why how s t don didn doesn isn wasn aren weren about over
    under after before up down out off so too only most more much many any some each every all both own
    same other another such one anymore longer""".split()
)
# Vietnamese words a translation need not carry, likewise (the owner among them: "người dùng").
# ("nuôi" a pet is having one; "nuôi con", raising a child, is read as a phrase.)
_VIETNAMESE_FUNCTION_WORDS = frozenset(
    """là của và thì mà những các một cũng đã đang sẽ rất lắm nhé ạ với cho để được bị người dùng anh chị
    em ông bà cô chú không chưa chẳng này đó kia ấy nó họ mình tôi bạn có nuôi""".split()
)
_FOLDED_VIETNAMESE_FUNCTION_WORDS = frozenset(fold(word) for word in _VIETNAMESE_FUNCTION_WORDS)


def _english_stem(word):
    """A word's stem as the lexicon keeps it: "lives", "lived" and "living" are "liv", "replies" and "reply"
    are "reply" ("-ly" leaves four letters at least: "reply", "apply", "daily" are no adverbs), "employees"
    and "employee" are "employe"; an irregular verb's forms are its base's ("goes", "went": "go")."""
    if word in IRREGULAR_BASE:
        word = IRREGULAR_BASE[word]
    if word.endswith(("ees", "eed")) and len(word) > 4:
        word = word[:-1]  # "employees", "agreed": the stem of "employee", "agree"
    for ending in _ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= (4 if ending == "ly" else 3):
            word = word[: -len(ending)] + ("y" if ending in ("ied", "ies") else "")
            break
    return word[:-1] if word.endswith("e") and len(word) > 3 else word


@functools.cache
def _lexicon():
    """``(by phrase, by folded phrase, longest)``: each phrase's English stems; a folded phrase has those of
    every phrase that folds to it ("chay" is "chay", vegetarian, and "chạy", run)."""
    by_phrase, by_folded = {}, {}
    for phrase, english in LEXICON.items():
        stems = frozenset(_english_stem(word) for word in english)
        by_phrase[phrase] = by_phrase.get(phrase, frozenset()) | stems
        by_folded[fold(phrase)] = by_folded.get(fold(phrase), frozenset()) | stems
    return by_phrase, by_folded, max(len(phrase.split()) for phrase in LEXICON)


# Who a fact is about when it is not the owner: a word of these on one side only says the two are about
# different people ("Vợ anh Khoa bị dị ứng tôm" / "User is allergic to shrimp").
_PEOPLE_STEMS = frozenset(_english_stem(word) for word in states.PEOPLE)


# The words of a date, a day of the week, a time or an amount that its value stands for ("ngày 5 tháng 3",
# "năm 2019", "thứ Bảy", "lúc 6 giờ sáng", "7h tối", "200 nghìn"), as the English one writes none or as a name
# ("March 5", "Saturday", "6am", "200k"): ``values`` compares the values themselves.
# Not before an amount: "mỗi tháng 12 triệu" is 12 million a month.
_VALUE_WORDS = re.compile(
    r"(?<!\w)(?:ngày|ngay|tháng|thang|năm|nam|lúc|luc)"
    r"(?=\s*\d+(?:[.,]\d+)?(?![.,]?\d|\s*(?:k|nghìn|nghin|ngàn|ngan|tr|triệu|trieu|tỷ|ty)(?!\w)))"
    r"|(?<=\d)\s*(?:giờ|gio|h)(?:\s*(?:sáng|sang|trưa|trua|chiều|chieu|tối|toi))?(?!\w)"
    r"|(?<=\d)\s*(?:nghìn|nghin|ngàn|ngan|triệu|trieu|tỷ|tỉ|ty)(?!\w)"
    r"|(?<!\w)(?:thứ|thu)\s+(?:hai|ba|tư|tu|năm|nam|sáu|sau|bảy|bay|[2-7])(?!\w)|(?<!\w)(?:chủ nhật|chu nhat)(?!\w)",
    re.IGNORECASE,
)


# "bằng" before a language or a way of going is "in" or "by" ("trả lời bằng tiếng Việt": "replies in
# Vietnamese", "đi làm bằng xe buýt": "takes the bus to work"), not a degree.
_BY_OR_IN = re.compile(
    r"(?<!\w)(?:bằng|bang)(?=\s+(?:tiếng|tieng|xe|tàu|tau|máy bay|may bay|thuyền|ô tô|o to|taxi|grab)(?!\w))",
    re.IGNORECASE,
)


def _vietnamese_units(text):
    """The English stems of each word or phrase of a Vietnamese text the lexicon knows, longest phrase first,
    and of each word it borrows as it is; names (capitalised inside the text), function words, the words of a
    date or a time (``_VALUE_WORDS``) and "bằng" before a language left out. A text typed without diacritics
    is looked up folded."""
    return tuple(stems for _, stems in _vietnamese_read_units(text))


def _vietnamese_read_units(text):
    """``_vietnamese_read`` of a Vietnamese text with what ``_vietnamese_units`` leaves out taken out."""
    return _vietnamese_read(_BY_OR_IN.sub(" ", _VALUE_WORDS.sub(" . ", text)))


def _first_unit_word(text, read):
    """The first word of a Vietnamese ``text``, folded, when it is capitalised and the first unit ``read``
    (``_vietnamese_read_units``) is that word alone: a name maybe, which its language also has as a word
    ("Mai", apricot, "Lan", orchid); else ""."""
    first = _written_first(text)
    if not (read and first[:1].isupper() and len(read[0][0]) == 1):
        return ""
    word = fold(first).lower()
    return word if read[0][0][0] == word else ""


def _vietnamese_read(text):
    """``_vietnamese_units`` with the folded words each unit is read from: ``[(words, stems), …]``."""
    by_phrase, by_folded, longest = _lexicon()
    text = unicodedata.normalize("NFC", text)
    found = list(re.finditer(r"\w+", text))
    tokens = [match.group() for match in found]
    # A capital starts a sentence, or a name.
    starts = [
        not i or bool(SENTENCE_END.search(text[found[i - 1].end() : match.start()])) for i, match in enumerate(found)
    ]
    marked = any(fold(token) != token.lower() for token in tokens)
    # Looked up as written, or folded when the text has no diacritics to tell words apart.
    table, function_words = (
        (by_phrase, _VIETNAMESE_FUNCTION_WORDS) if marked else (by_folded, _FOLDED_VIETNAMESE_FUNCTION_WORDS)
    )
    keys = [token.lower() if marked else fold(token) for token in tokens]
    units, i, after_unit = [], 0, -1
    while i < len(tokens):
        if tokens[i][:1].isupper() and not starts[i]:
            i += 1
            continue
        if _BEFORE_A_NAME.get(keys[i]) and any(
            token[:1].isupper() for token in tokens[i + 1 : i + 1 + _BEFORE_A_NAME[keys[i]]]
        ):
            i += 1  # "Bé Na", "Chị Mai", "tên là Lan" say who, not a word: no baby, no sister, no name
            continue
        for size in range(min(longest, len(tokens) - i), 1, -1):
            stems = table.get(" ".join(keys[i : i + size]))
            if stems:
                units.append((tuple(fold(token).lower() for token in tokens[i : i + size]), stems))
                i += size
                after_unit = i
                break
        else:
            word, key = tokens[i].lower(), keys[i]
            read, before = (fold(word),), len(units)
            if key in _AT and i == after_unit and not units[-1][1] & table.get(key, frozenset()):
                pass  # "ở" after a verb is where it is done ("làm ở Viettel", "học ở trường"), not living there
            elif key in table and key not in function_words:
                units.append((read, table[key]))
            elif (
                word in CHAT_WORDS
                and CHAT_WORDS[word] in by_folded
                and CHAT_WORDS[word] not in _FOLDED_VIETNAMESE_FUNCTION_WORDS
            ):
                units.append((read, by_folded[CHAT_WORDS[word]]))  # "cf" is "cà phê"
            elif word.isascii() and word.isalpha() and len(word) > 2 and not could_be_vietnamese(word):
                units.append((read, frozenset({_english_stem(word)})))
            i += 1
            if len(units) > before:
                after_unit = i
    return units


# Words before a name that say who it is, not a word of their own (how many words later the name may come):
# an honorific ("Bé Na", "chị Mai"), "thằng" ("cho thang Phuc muon": no month) and "tên" ("tên là Lan", "tên
# Lan"), as written and folded.
_BEFORE_A_NAME = {**dict.fromkeys(HONORIFICS | WRITTEN_HONORIFICS | {"thằng", "thang"}, 1), "tên": 2, "ten": 2}


# "ở" (as written, and folded in a text without diacritics): to live or stay somewhere ("sống ở" too), or, after
# another verb, where it is done.
_AT = frozenset({"ở", "o"})


# The unit of a number ("10 pm", "5 mg", "3km", "2 million"): the number's value says it (``values``), not a
# word.
_UNITS = re.compile(
    r"(?<=\d)\s*(?:[ap]\.?m\.?|mg|kg|km|cm|mm|ml|gb|tb|mb|k|h|hrs?|mins?|thousand|million|billion)\b",
    re.IGNORECASE,
)


def _english_stems(text):
    """The stems of an English text's words a translation carries; names (capitalised inside a sentence, or
    starting one but no English word: "Bích takes …") and the units of numbers left out, as the other compares
    them (``names_agree``, ``values``)."""
    text = _NAMING.sub(" ", _UNITS.sub(" ", text))
    text = IN_LAW.sub(" inlaw", phrasal_read(text))
    return frozenset(
        _english_stem(word)
        for word in re.findall(r"[a-z]+", fold(_CAPITALISED.sub(_unless_name, text)))
        if word not in _ENGLISH_FUNCTION_WORDS and word not in ENGLISH_NUMBERS and len(word) > 1
    )


# Words marking a kind of what a unit says, which the other text must say too for the unit to translate one of
# its words: a mother-in-law ("mẹ vợ") is no mother, a tomcat ("mèo đực") no female cat.
_MARKING = frozenset({"inlaw", _english_stem("male"), _english_stem("female")})
_PEOPLE_OR_MARKING = _PEOPLE_STEMS | _MARKING


# Words before a name that say it is one ("named Lan", "called Bin", "whose name is Na"), as "tên là" does.
_NAMING = re.compile(r"\b(?:named|called|(?:whose\s+)?name\s+is)\s+(?=[^\W\d_a-z])")


# A word not starting with a lower-case ASCII letter: maybe capitalised ("Bích", "Đà").
_CAPITALISED = re.compile(r"(?<!\w)[^\W\da-z_]\w*")


def _unless_name(match):
    """A capitalised word as it is, or a space for a name (``_names_itself``, as in an English text); a
    language is a word the other translates ("Japanese": "tiếng Nhật")."""
    word = match.group()
    if not word[0].isupper() or word.lower() in states.LANGUAGES:
        return word
    before = match.string[: match.start()].rstrip()
    first = not before or before[-1] in ".!?;"
    return " " if _names_itself(word, fold(word).lower(), first, True) else word


class LexiconWords(NamedTuple):
    """What the lexicon makes of a text (``lexicon_words``): for a Vietnamese one, the English stems of each
    of its words and phrases it knows (``units``); for an English one, its stems (``stems``); and whether it
    says a number, and of which kinds (``counts``: in digits or in words), which a translation keeps as it is."""

    vietnamese: bool
    units: tuple = ()
    stems: frozenset = frozenset()
    kin: frozenset = frozenset()
    counts: frozenset = frozenset()
    first: str = ""  # a Vietnamese text's capitalised first word, read as its first unit (``_first_unit_word``)
    names: frozenset = frozenset()  # an English text's capitalised words, folded: its names, maybe
    # An English text's words saying who someone is beside their name, with the name (``_introduced``); a
    # Vietnamese text's words, folded, where the names are looked for.
    introduced: frozenset = frozenset()
    plain: frozenset = frozenset()

    @property
    def english(self):
        """The English stems the text has or translates into, every sense of its words together."""
        return frozenset().union(*self.units) if self.vietnamese else self.stems


@functools.lru_cache(maxsize=8192)
def lexicon_words(text, vietnamese=None):
    """The ``LexiconWords`` of ``text``; worked out once for a text compared many times (the doctor), which
    knows whether it is ``vietnamese`` (``language_of``)."""
    text = states.one_name(text)
    if vietnamese is None:
        vietnamese = language_of(text) == VIETNAMESE
    if vietnamese:
        text = counts_in_digits(text)
        read = _vietnamese_read_units(text)
        units = tuple(stems for _, stems in read)
        first = _first_unit_word(text, read)
        plain = frozenset(re.findall(r"\w+", fold(text).lower()))
        return LexiconWords(True, units=units, kin=_kin(text), counts=_counts(text), first=first, plain=plain)
    counts = _counts(text) | ({"number"} if _COUNT_WORD.search(text) else set())
    names = frozenset(fold(word).lower() for word in _CAPITALISED.findall(text) if word[0].isupper())
    return LexiconWords(False, stems=_english_stems(text), counts=counts, names=names, introduced=_introduced(text))


# A word of an English text, or a comma, for ``_introduced``.
_WORD_OR_COMMA = re.compile(r"[^\W_]+(?:['’]s)?|,")
# Words saying whose someone is, before the word for who they are: "the user's son", "his shipmate".
_WHOSE_WORDS = frozenset(["his", "her", "their", "my", "our"])


def _capitalised_name(word):
    return word[0].isupper() and word.lower() not in _WHOSE_WORDS and word.lower() != "the"


def _introduced(text):
    """The stems of the words of an English text saying who someone is to another just beside their name,
    each with the name (folded): "his shipmate Dũng", "Her husband Tuấn", "Tuấn's mother, bà Hoa,", "Bin, the
    user's son,". Such a word speaks of the one named, whom a Vietnamese text may call by name alone ("Bin dị
    ứng tôm" / "Bin, the user's son, is allergic to shrimp")."""
    tokens = [match.group() for match in _WORD_OR_COMMA.finditer(text)]
    found = set()
    for index, token in enumerate(tokens):
        stem = _english_stem(token.lower())
        if stem not in _PEOPLE_STEMS:
            continue
        # The name after the word, a comma or an honorific between: "his shipmate Dũng", "mother, bà Hoa".
        after = index + 1
        while after < len(tokens) and (tokens[after] == "," or fold(tokens[after]).lower() in HONORIFICS):
            after += 1
        if after < len(tokens) and _capitalised_name(tokens[after]):
            found.add((stem, fold(tokens[after]).lower()))
        # Or before it, whose between: "Bin, the user's son", "Hùng, her brother".
        before = index - 1
        if before >= 0 and (tokens[before].lower() in _WHOSE_WORDS or tokens[before].endswith(("'s", "’s"))):
            before -= 1
            before -= before >= 0 and tokens[before].lower() == "the"
            if before >= 1 and tokens[before] == "," and _capitalised_name(tokens[before - 1]):
                found.add((stem, fold(tokens[before - 1]).lower()))
    return frozenset(found)


# A number and what follows it, and the word before it: a name's ("iPhone 14", "Windows 11", "tax-2026",
# "#34509") is part of the name, one after a word of the calendar or written as a day and a month ("ngày 5",
# "June 15", "15/6") a date; one of a clock ("7am", "5 giờ sáng", "19:30") is a time, one before "%" a share
# and one before a currency or a scale ("200k", "8 triệu") an amount.
_NUMBER_AFTER = re.compile(
    r"(?<![\w:/#-])(\d+(?:[:.,/]\d+)*)"
    r"(?:(\s*(?:[ap]\.?m\b|h\b|h\d|giờ|gio\b|g\d|tiếng|rưỡi|ruoi\b|o'?clock))"
    r"|(\s*%)|(\s*(?:k|nghìn|nghin|ngàn|ngan|triệu|trieu|tr|tỷ|tỉ|ty|million|thousand|billion|đ|đồng|vnd|usd)\b))?",
    re.IGNORECASE,
)
# The word before a number, looked for in the few characters before it (a long word costs no more).
_WORD_BEFORE = re.compile(r"(\w*)[^\w:/#-]*$")
# Words before a number of the calendar, folded: "ngày 5", "thứ 2", "tháng 3", "năm 2019", "on 5", "since 2019".
_DATE_WORDS = frozenset("ngay mung thu thang nam on since in".split())


def _counts(text):
    """The kinds of the numbers ``text`` says in digits that are no part of a name: "date", "time", "share",
    "amount" or "number"."""
    kinds = set()
    for match in _NUMBER_AFTER.finditer(text):
        number, time, share, amount = match.groups()
        before = _WORD_BEFORE.search(text, max(0, match.start() - 24), match.start()).group(1)
        kind = "time" if time or ":" in number else "share" if share else "amount" if amount else "number"
        if "/" in number or fold(before).lower() in _DATE_WORDS or before.lower() in MONTH_NUMBERS:
            kind = "date"
        # A plain number after a name is the name's ("iPhone 14"); an amount or a date is not ("owes Minh 200k",
        # "June 15").
        if kind != "number" or not any(letter.isupper() for letter in before):
            kinds.add(kind)
    return frozenset(kinds)


# An English number in words ("one" is as often no number).
_COUNT_WORD = re.compile(
    r"\b(?:" + "|".join(word for word, value in ENGLISH_NUMBERS.items() if value > 1) + r")\b", re.IGNORECASE
)


# The relatives an honorific before a name may say someone is: "Phong nợ anh Khôi" / "Phong owes his brother
# Khoi".
_HONORIFIC_KIN = {
    "anh": ("brother",),
    "chi": ("sister",),
    "em": ("brother", "sister", "sibling"),
    "ong": ("grandfather", "grandpa"),
    "ba": ("grandmother", "grandma"),
    "co": ("aunt",),
    "chu": ("uncle",),
    "bac": ("uncle", "aunt"),
}
_KIN_STEMS = {word: frozenset(map(_english_stem, kin)) for word, kin in _HONORIFIC_KIN.items()}
# The honorifics as written or as chat types them short ("a" is "anh", "c" "chị": ``CHAT_WORDS``).
_KIN_WORD = re.compile(
    r"\b(?:"
    + "|".join([*_HONORIFIC_KIN, *(short for short, word in CHAT_WORDS.items() if word in _HONORIFIC_KIN)])
    + r")\b"
)


def _kin(text):
    """The English stems of the relatives the honorifics of a Vietnamese text may stand for (``_HONORIFIC_KIN``),
    typed short too."""
    found = {CHAT_WORDS.get(word, word) for word in _KIN_WORD.findall(fold(text).lower())}
    return frozenset().union(*(_KIN_STEMS[word] for word in found))


def translated_share(text_a, text_b):
    """Of the words of a Vietnamese text and an English one (either order) that carry meaning, the share the
    lexicon pairs with a word of the other: 1.0 when every word of each translates one of the other's,
    0.0 when none does or when one speaks of someone the other does not (a wife, a colleague). None when
    either has no word the lexicon or the other text knows, or both are in one language: the words cannot
    tell."""
    return share_between(lexicon_words(text_a), lexicon_words(text_b))


def share_between(words_a, words_b):
    """``translated_share`` of two texts' ``lexicon_words``."""
    if words_a.vietnamese == words_b.vietnamese:
        return None
    vietnamese, english = (words_a, words_b) if words_a.vietnamese else (words_b, words_a)
    units, stems = vietnamese.units, english.stems
    if vietnamese.first in english.names and not units[0] & stems:
        # A name starting the Vietnamese text that its language has as a word too: "Mai học tiếng Nhật" is not
        # about apricots when "Mai is learning Japanese".
        units = units[1:]
    if not units or not stems:
        return None
    covered = stems & vietnamese.english
    # Who someone is, said beside a name the Vietnamese text gives alone, is that one: "Bin, the user's son".
    covered |= {stem for stem, name in english.introduced if name in vietnamese.plain}
    # A word of the Vietnamese text that may name a relative among other things ("bo" typed without diacritics
    # is "bố", father, but mostly "bỏ" or "bò") speaks of no one.
    people = (
        any(unit & _PEOPLE_STEMS and not unit & stems and len(unit & _PEOPLE_STEMS) * 4 >= len(unit) for unit in units)
        or (stems - covered - vietnamese.kin) & _PEOPLE_OR_MARKING
        # A relative by marriage is not the relative: "mẹ vợ" / "mother".
        or any(unit & _MARKING - stems and unit & _PEOPLE_STEMS for unit in units)
    )
    if people:
        return 0.0
    matched = sum(1 for unit in units if unit & stems and not unit & _MARKING - stems)
    # A number of one kind in each of two texts sharing words is one word translated: which numbers, and
    # whether they agree, the values tell.
    counted = int(bool(matched and vietnamese.counts & english.counts))
    return (matched + len(covered) + 2 * counted) / (len(units) + len(stems) + 2 * counted)


# Words of an amount ("200 nghìn"), which its value stands for, and languages, which are values too ("tiếng
# Việt" is "Vietnamese", a name in an English text).
_AMOUNT_WORDS = frozenset({"thousand", "million", "billion", "hundred"})
# An age ("60 tuổi") is its number too, which an English text may give alone ("User's father is 60").
_VALUE_STEMS = _AMOUNT_WORDS | {_english_stem(word) for word in (*states.LANGUAGES, "age", "old", "year")}


# Where a Vietnamese text places something: "ở", "tại" (typed with marks or without), and the words after.
_PLACED = re.compile(r"(?<!\w)(?:ở|tại|o|tai)\s+([^,;.!?()]*)")
# Words of a place's kind, folded, which the other language writes in its own ("Quận 3" is "District 3").
_KIND_OF_PLACE_WORDS = frozenset("tp q p quan huyen phuong tinh xa".split())


def _places_named(text):
    """The places ``text`` names after "ở" or "tại": the words with a capital that follow, each a set of its
    words (folded; "TP Thủ Đức" is {"thu", "duc"}, "TP.HCM" Sài Gòn), its kind and numbers aside."""
    places = []
    for after in _PLACED.findall(states.one_name(unicodedata.normalize("NFC", text))):
        written = itertools.takewhile(lambda word: word[:1].isupper(), after.split())
        words = set(re.findall(r"[a-z]+", fold(" ".join(written)).lower().replace("thanh pho", " ")))
        if words := words - _KIND_OF_PLACE_WORDS:
            places.append(words)
    return places


def adds_nothing(text, other):
    """Whether ``text``, in one language, tells nothing that ``other``, in the other, does not: each of its
    words the lexicon knows translates one of ``other``'s, and its values (numbers, days, letters) are all
    in ``other``. A repeat is dropped for a memory, or merged into it, only then: "Người dùng bị dị ứng
    đậu phộng rất nặng" (severely) tells more than "User is allergic to peanuts", "Người dùng sống ở Hà Nội
    từ năm 2019" more than "User lives in Hanoi". A denial tells more with fewer words: "Người dùng không
    uống cà phê" tells more than "User does not drink coffee after 2pm", so of two denials it is ``other``
    whose words must all be found in ``text``."""
    if meaning(text).negated and meaning(other).negated:
        text, other = other, text
    values_mine, values_theirs = _set_against(values(text), values(other))
    if not values_mine <= values_theirs:
        return False
    mine, theirs = lexicon_words(text), lexicon_words(other)
    if mine.vietnamese == theirs.vietnamese:
        return False
    if mine.vietnamese:
        # Where it places something tells something too: "Cô Hoa sinh ra ở Thanh Hoá" tells more than "Hoa was
        # born in 1958" (not "chị Mai ở Sài Gòn" than "Mai lives in Ho Chi Minh City": one place by two names).
        theirs_named = _letters(states.one_name(other))
        if any(not all(word in theirs_named for word in place) for place in _places_named(text)):
            return False
        return all(unit & theirs.stems or unit <= _VALUE_STEMS for unit in mine.units)
    # A name is written the same in both ("Lan owes Minh" / "Lan nợ Minh").
    return mine.stems <= theirs.english | set(re.findall(r"[a-z0-9]+", fold(other).lower()))


# A query read in the other language (retrieval with the words alone)


class QueryUnit(NamedTuple):
    """A word or phrase of a query as a memory in the other language would write it: what it means (English
    stems; a name means itself) and its ``spellings`` there, each a tuple of lower-case words side by side:
    Vietnamese words with their diacritics, or, when ``english``, English stems ("liv" for "lives").
    ``read_from``: the query's words it stands for, folded. ``typed``: the spellings are the query's own
    (a name), with diacritics only if it was typed with them."""

    meaning: frozenset
    spellings: tuple
    english: bool
    read_from: tuple
    typed: bool = False
    # For a Vietnamese query's word naming a kind, read into English: how Vietnamese spells the things of
    # it, so that memories in the query's own language are found by them too ("thú cưng" finds "nuôi chó").
    spelt_here: tuple = ()
    # For a word naming a relation, the names the owner's memories give it, folded ("vợ": "thao"), which
    # spell it in either language.
    names: tuple = ()

    @property
    def every_spelling(self):
        """Its spellings in the other language, then in the query's own, then its names."""
        return self.spellings + self.spelt_here + tuple((name,) for name in self.names)

    def found_in(self, memory):
        """Whether a memory (its ``MemoryWords``) spells this unit. An English word spells a stem when its
        stem is that stem. The lexicon's Vietnamese words are compared with their diacritics ("chay" is not
        "chạy") unless the memory has none and is no English text; a name as typed, with them when both
        sides have them ("Hue" is "Huế"); a relation's names folded."""
        if self.names and any(name in memory.folded for name in self.names):
            return True
        if self.english:
            return any(stem in memory.stems for (stem,) in self.spellings) or _spelt_in_vietnamese(
                memory, self.spelt_here, typed=False
            )
        return _spelt_in_vietnamese(memory, self.spellings, self.typed)


def _spelt_in_vietnamese(memory, spellings, typed):
    if not spellings or (not memory.marked and not typed and memory.english):
        return False  # Vietnamese words folded are often English ones ("ăn" and "an", "tô" and "to")
    for spelling in spellings:
        plain = tuple(fold(word) for word in spelling)
        as_written = memory.marked and (plain != spelling or not typed)
        if memory.holds(spelling if as_written else plain, as_written):
            return True
    return False


class MemoryWords:
    """A memory's words as ``QueryUnit.found_in`` compares them, worked out once for all the units of a
    query: as written and folded, their English stems, whether the memory has diacritics and whether it
    reads as English."""

    def __init__(self, words):
        self.written = [written for written, _ in words]
        self.folded = [folded for _, folded in words]
        self.marked = self.written != self.folded

    @functools.cached_property
    def stems(self):
        return {
            _english_stem(folded) for place, folded in enumerate(self.folded) if not names_a_room(self.folded, place)
        }

    @functools.cached_property
    def english(self):
        return reads_as_english(self.folded)

    def holds(self, phrase, as_written):
        """Whether the memory has ``phrase`` (a tuple of words) side by side, as written or folded."""
        side, size = (self.written if as_written else self.folded), len(phrase)
        return any(tuple(side[i : i + size]) == phrase for i in range(len(side) - size + 1))


# A query is a question, not a document: at most this many of its names and words are read in the other
# language.
MOST_UNITS = 24


@functools.cache
def _vietnamese_spellings():
    """``{English stem: the Vietnamese words and phrases that translate it}``; a phrase holding a shorter
    one of the same stem is left out ("ăn chay" finds what "ăn chay trường" would)."""
    found = {}
    for phrase, english in LEXICON.items():
        for word in english:
            found.setdefault(_english_stem(word), set()).add(tuple(phrase.split()))
    return {
        stem: tuple(
            sorted(
                phrase for phrase in phrases if not any(other != phrase and _holds(phrase, other) for other in phrases)
            )
        )
        for stem, phrases in found.items()
    }


def _holds(phrase, part):
    return any(phrase[i : i + len(part)] == part for i in range(len(phrase) - len(part) + 1))


# The word that starts a sentence.
_FIRST_WORD = re.compile(r"(?:^|[.!?;:\n])\s*([^\W\d_]+)")


def _query_names(query):
    """The names a query gives, each a tuple of its lower-case words: words spelt with a capital side by
    side ("Hà Nội"), but for function words of either language; a word that starts a sentence not when it
    starts a phrase the lexicon knows ("Điện thoại…" names nothing, "Hoa dị ứng gì?" names Hoa)."""
    by_phrase, by_folded, longest = _lexicon()
    found = list(re.finditer(r"[^\W\d_]+", query))
    names, previous = [], None
    for i, match in enumerate(found):
        word, lower = match.group(), match.group().lower()
        if len(word) < 2 or not word[0].isupper() or _function_word(lower):
            continue
        before = query[: match.start()].rstrip()
        if not before or before[-1] in ".!?;:\n":
            following = [other.group().lower() for other in found[i : i + longest]]
            if any(
                " ".join(following[:size]) in by_phrase or fold(" ".join(following[:size])) in by_folded
                for size in range(2, len(following) + 1)
            ):
                continue
        if previous is not None and previous == i - 1 and not query[found[i - 1].end() : match.start()].strip():
            names[-1] += (lower,)
        else:
            names.append((lower,))
        previous = i
    return names


def _name_unit(name):
    """The ``QueryUnit`` of a name: spelt as typed, and as the other language writes it when the lexicon
    knows it: "Hà Nội" and "Hanoi", but a name of one syllable is no word ("Hoa" is no flower, "Lan" no
    orchid)."""
    by_phrase, by_folded, _ = _lexicon()
    key = " ".join(name)
    english, vietnamese = frozenset(), ()
    if len(name) > 1:
        english = by_phrase.get(key) or by_folded.get(fold(key)) or frozenset()
    elif not could_be_vietnamese(fold(key)):
        vietnamese = tuple(
            phrase for phrase in _vietnamese_spellings().get(_english_stem(fold(key)), ()) if len(phrase) > 1
        )
    spellings = (name, *((stem,) for stem in sorted(english)), *vietnamese)
    return QueryUnit(frozenset({fold(key)}) | english, spellings, False, tuple(fold(word) for word in name), typed=True)


# The English stem of each kind a single word names: "languag" -> ("language",).
_KIND_STEMS = {_english_stem(name[0]): name for name in states.KIND_NAMES if len(name) == 1}


def spelt_as_things_of_kinds(units):
    """For retrieval: ``units`` where one meaning a kind (``states.things_of_kind``) is also spelt by each
    thing of it, in the other language: "Người dùng có thú cưng không?" finds "User has a cat named Mochi",
    "What pets do I have?" finds "Người dùng nuôi một con chó" (``_things_in_vietnamese``). Never for the
    write path: a pet is not a cat's translation."""
    found = []
    for unit in units:
        kinds = [_KIND_STEMS[stem] for stem in unit.meaning if stem in _KIND_STEMS]
        things = frozenset().union(*(states.things_of_kind(kind) for kind in kinds))
        in_vietnamese = tuple(dict.fromkeys(s for kind in kinds for s in _things_in_vietnamese(kind)))
        if things and unit.english:
            more = tuple((_english_stem(thing),) for thing in sorted(things))
            unit = unit._replace(spelt_here=in_vietnamese)
        elif things:
            more = in_vietnamese
        else:
            more = ()
        if more:
            more = tuple(dict.fromkeys(s for s in more if s not in unit.spellings))
            unit = unit._replace(spellings=unit.spellings + more)
        found.append(unit)
    return tuple(found)


@functools.cache
def _things_in_vietnamese(kind):
    """How Vietnamese writes the things of ``kind`` (a ``states.KIND_NAMES`` key): the lexicon's words for
    each whose first sense is one of them, or the kind ("mèo", "chạy bộ", "rượu"; not "thắng", to win before
    wine, nor "Việt Nam", a country before a language), and the names Vietnamese borrows as they are
    ("Neovim", "pnpm")."""
    things = states.things_of_kind(kind)
    named = things | set(kind)

    def first_sense_named(phrase):
        first = LEXICON[" ".join(phrase)][0]
        return first in named or bool(english_forms(first) & named)

    spellings = []
    for thing in sorted(things):
        phrases = _vietnamese_spellings().get(_english_stem(thing), ())
        spellings += [phrase for phrase in phrases if first_sense_named(phrase)] if phrases else [(thing,)]
    return tuple(dict.fromkeys(spellings))


def in_other_language(query, first_words_too=False):
    """The ``QueryUnit`` of each name ``query`` gives and of each of its words the lexicon carries into the
    other language: a Vietnamese query's words as English stems, an English query's as Vietnamese words and
    phrases. Empty when there are none. ``first_words_too``: a word that starts a sentence is read as a word
    too, not only as a name (a memory's "Vợ của người dùng là Lan" speaks of a wife; a question's "Hoa dị
    ứng gì?" of Hoa)."""
    query = unicodedata.normalize("NFC", query)
    names = _query_names(query)
    units = [_name_unit(name) for name in names]
    named = {word for unit in units for word in unit.read_from}
    if first_words_too:
        named -= {fold(match.group(1)).lower() for match in _FIRST_WORD.finditer(query)}
    if language_of(query) == VIETNAMESE:
        hours = bool(_HOURS.search(query))
        read = _BY_OR_IN.sub(" ", _without_query_stopwords(counts_in_digits(query)))
        for read_from, unit in _vietnamese_read(read):
            spellings = tuple((stem,) for stem in sorted(unit) if len(stem) >= SHORTEST_PREFIX)
            if spellings and not set(read_from) <= named:
                found = QueryUnit(unit, spellings, True, read_from)
                units.append(_tieng(found, hours) if read_from == ("tieng",) else found)
    else:
        spellings = _vietnamese_spellings()
        named_stems = {_english_stem(word) for word in named}
        read_from = {}
        for word in dict.fromkeys(re.findall(r"[a-z]+", fold(phrasal_read(query)).lower())):
            read_from.setdefault(_english_stem(word), []).append(word)
        units += [
            QueryUnit(frozenset({stem}), spellings[stem], False, tuple(read_from.get(stem, ())))
            for stem in sorted(_english_stems(query) - named_stems)
            if stem in spellings
        ]
    return tuple(units[:MOST_UNITS])


# "tiếng" is an hour after a number ("mỗi 2 tiếng", "mấy tiếng"), and only then: else a language, a sound or
# a voice ("trả lời bằng tiếng gì?": in which language).
_HOURS = re.compile(
    r"(?:\d|(?<!\w)(?:một|hai|ba|bốn|năm|sáu|bảy|tám|chín|mười|mấy|may|vài|vai|nửa|nua))\s*(?:tiếng|tieng)(?!\w)",
    re.IGNORECASE,
)


def _tieng(unit, hours):
    """A query's "tiếng" read as an hour only (``hours``) or as anything but one."""
    hour = _english_stem("hour")
    meaning = unit.meaning & {hour} if hours else unit.meaning - {hour}
    return unit._replace(meaning=meaning, spellings=tuple((stem,) for stem in sorted(meaning)))


def _function_word(word):
    """Whether a lower-case word, as written, is a function word of either language."""
    return word in _ENGLISH_FUNCTION_WORDS or word in _VIETNAMESE_FUNCTION_WORDS or is_query_stopword(word, fold(word))


def carries_nothing(word):
    """Whether a folded word of a query is one that no translation carries: a function word of either
    language, or one that says nothing about which memory is meant ("what", "của", "gì")."""
    return word in _ENGLISH_FUNCTION_WORDS or word in _FOLDED_VIETNAMESE_FUNCTION_WORDS or is_query_stopword(word, word)


def _without_query_stopwords(query):
    """``query`` with the words that say nothing about which memory is meant ("gì", "ở", "có") as full
    stops, so that no phrase is read across them."""
    pieces = re.split(r"(\w+)", query)
    words = [(piece.lower(), fold(piece).lower()) for piece in pieces[1::2]]
    for i, nothing in enumerate(says_nothing(words)):
        if nothing:
            pieces[2 * i + 1] = "."
    return "".join(pieces)


# Two texts in the two languages whose words mostly translate each other (``translated_share``): the share
# from which what a translation keeps decides between them with the words alone.
WORDS_TRANSLATED = 0.7


# Two texts in the two languages fewer than this share of whose words translate each other
# (``translated_share``) are the same fact only when what it is about agrees too (``_about_the_same``).
FEW_TRANSLATED = 0.5


def translated_verdict(text_a, text_b, share):
    """``SAME``, ``OPPOSED`` or None for two texts in the two languages of which ``share`` of the words
    translate each other: what a translation keeps (``across_languages``) decides; two that mostly
    translate each other but name one place or thing each, not the same one, contradict each other ("User
    lives in Hanoi" / "Người dùng sống ở Đà Nẵng"). Two of which few words translate each other agree on
    the people they name whatever fact they state of them: they must give a value or a thing alike too."""
    verdict = across_languages(text_a, text_b)
    if verdict is None and share is not None and share >= WORDS_TRANSLATED and one_name_instead(text_a, text_b):
        return OPPOSED
    if verdict == OPPOSED and share is not None and share < WORDS_TRANSLATED and parties_swapped(text_a, text_b):
        # Parties in each other's places are one fact the other way round only in words that translate each
        # other: "His cousin Bảo teaches the user the guitar" / "Người dùng kèm toán cho em họ Bảo" are two.
        return None
    if verdict == SAME and share is not None and share < FEW_TRANSLATED and not _about_the_same(text_a, text_b):
        return None
    if verdict == SAME and share is not None and share < 1 and _each_says_more(text_a, text_b):
        return None
    return verdict


def _each_says_more(text_a, text_b):
    """Whether each of two texts in the two languages names someone or something the other does not (the owner
    aside; a name however many syllables it is written in, "Hà Nội" / "Hanoi"), or gives values where the other
    gives none ("Lan writes her thesis in LaTeX on Overleaf" / "Lan đã viết xong chương 3 của luận văn"): two
    facts, not one said twice. (One saying more than the other may be a fuller repeat.)"""
    names_a = {name.replace(" ", "") for name, _ in _named(text_a, text_b)} - {OWNER}
    names_b = {name.replace(" ", "") for name, _ in _named(text_b, text_a)} - {OWNER}
    values_a, values_b = values(text_a), values(text_b)
    return bool(names_a - names_b or values_a and not values_b) and bool(names_b - names_a or values_b and not values_a)


def _about_the_same(text_a, text_b):
    """Whether two texts give a value alike ("iPhone 15", "Saturday", "tiếng Pháp") or name a thing alike
    that is no person ("Bếp Nhà", "PostgreSQL"): not "Bà Ngọc cần chữ to" and "Bà Ngọc prefers phone calls",
    nor "Luận án của Long là …" and "Long's thesis is on …"."""
    # A time of day or how often alike says little ("mỗi sáng"): things of every kind are done then.
    if _fixed(values(text_a) & values(text_b)):
        return True
    named_a, named_b = _named(text_a, text_b), _named(text_b, text_a)
    people = _people(text_a, named_a) | _people(text_b, named_b)
    return bool(({name for name, _ in named_a} & {name for name, _ in named_b}) - people - {OWNER})


def _people(text, named):
    """Of the names ``text`` gives (``_named``), those of people: its first word, whom a memory is about
    ("Trang đi làm bằng Grab": Grab is a thing), one whose something is ("Hằng's shop", "của Phong"), one
    after an honorific ("anh Phong", "Mrs Ngọc"), and one a pet is called ("dog Lu", "con chó tên Lu")."""
    return _whose(text, named) | _pets_named(text) | {_first_plain(text)} - {None}


# Words for a pet, plain and folded, and those between it and its name ("con chó tên Lu", "a cat named Mochi").
# ("cho" is "for" too: whom something is for is someone as well.)
_PETS = frozenset(word for word, kinds in states.KINDS_OF.items() if "pet" in kinds) | {"pet", "cho", "meo", "cun"}
_CALLED = frozenset(["ten", "named", "called", "la"])


def _pets_named(text):
    """The names ``text`` calls a pet by: the word after a pet's ("User's dog Lu"), or after its name's
    ("Người dùng nuôi một con chó tên Lu")."""
    plain = [word for _, word, _ in words_placed(text)]
    found = set()
    for index, word in enumerate(plain[:-1]):
        if word in _PETS:
            after = plain[index + 1]
            if after in _CALLED and index + 2 < len(plain):
                after = plain[index + 2]
            found.add(after)
    return found


def one_name_instead(text_a, text_b):
    """Each of two texts names one thing besides the owner and whom both name, not the same one, and the owner
    is in both or in neither, with the same polarity: "User lives in Hanoi" / "Người dùng sống ở Đà Nẵng",
    "Khoa lives in Da Nang" / "Khoa sống ở Hà Nội". Not someone whose
    the fact is ("Lan's birthday" / "Sinh nhật của chị Hoa"): that is another person's fact."""
    named_a, named_b = _named(text_a, text_b), _named(text_b, text_a)
    names_a, names_b = {name for name, _ in named_a}, {name for name, _ in named_b}
    a, b = names_a - names_b - {OWNER}, names_b - names_a - {OWNER}
    return (
        not (adds(text_a) or adds(text_b))
        and len(a) == len(b) == 1
        and not a & _whose(text_a, named_a)
        and not b & _whose(text_b, named_b)
        and _named_as_a_value(text_a, *a)
        and _named_as_a_value(text_b, *b)
        and (OWNER in names_a) == (OWNER in names_b)
        and meaning(text_a).negated == meaning(text_b).negated
    )


# Words after which a name is the value a fact gives (a place, a thing used, what something is), folded: not
# the one it is said of, nor one someone does something to ("Don't message Minh", "Minh likes tea").
_BEFORE_A_VALUE = "in|at|to|from|is|are|was|uses|use|using|o|tai|la|dung|sang|ve|den|toi|bang"


def _named_as_a_value(text, name):
    """Whether ``name`` (folded, from ``_named``) comes after a word that makes it a fact's value, one word
    between at most ("lives in Hanoi", "sống ở quận Ba Đình", "main editor is Neovim", "dùng VS Code")."""
    spelt = r"\s*".join(map(re.escape, name))  # a name is its syllables joined ("danang" is "Đà Nẵng")
    return bool(re.search(rf"\b(?:{_BEFORE_A_VALUE})\s+(?:\w+\s+)?{spelt}\b", fold(text).lower()))


def _whose(text, named):
    """Of the names ``text`` gives (``_named``), those of people the fact is of: one whose something is ("Lan's
    birthday", "của Phong") and one after an honorific ("chị Hoa")."""
    placed = list(words_placed(text))
    after_honorific = {plain for (_, before, _), (_, plain, _) in itertools.pairwise(placed) if before in HONORIFICS}
    return {name for name, whose in named if whose} | after_honorific
