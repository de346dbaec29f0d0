"""What a person has one of: a birthday, a blood type, a dose of each medicine, a salary and a pension, a length
and a language they want replies in. Two memories of one person giving it two values cannot both be true:
"Mai's birthday is March 14" / "Sinh nhật của chị Mai là ngày 14/4", "sn chi Mai 14/4 nha" / "Mai was born on 14
March 1990", "Nhóm máu của anh Khoa là A" / "Khoa's blood type is O", "Bà Hoà uống metformin 500mg" / "bs đổi
thuốc cho bà r: metformin 850mg", "Mai earns 6.5 million a month" / "tăng lương cho Mai lên 7tr5", "User prefers
short, to-the-point answers" / "Người dùng thích được giải thích dài và thật chi tiết", "User wants replies in
Vietnamese" / "Always answer the user in English".

A memory naming such an attribute gives its values as a translation keeps them (``translation.values``): for a
birthday, the day and the month (a year of birth may be left out: "14 March 1990" is "14/3"); for a blood
type, its letters; for a dose, its amounts in one unit, of the medicine named nearest before them ("metformin
500mg"); for pay, its one amount, in the period it is for (a month unless said: "25k an hour"); for replies,
short or long, read clause by clause ("keep it short, no long explanations" is short), and the one language
named beside them. Whose it is, is whom the memory is about (``slots.whose``); a dose is of whom the medicine
is said to be, pay of whom it is said to be ("lương của Mai", "tăng lương cho Mai", "Mai's salary").
"""

import re
from typing import NamedTuple

from memories.language import people, slots, states
from memories.language.folding import fold
from memories.language.meaning import HONORIFICS, WRITTEN_HONORIFICS, is_denial
from memories.language.translation import PAST, no_word_of_either, values, values_instead
from memories.language.words import ENGLISH_NUMBERS, MONTHS

# Words naming an attribute (folded) -> the attribute.
_ATTRIBUTES = re.compile(
    r"\b(?:(birthday|date of birth|born on|born in|sinh nhat|ngay sinh|sn|sinh ngay)"
    r"|(blood type|blood group|nhom mau))\b"
)
_NAMES = ("birthday", "blood type")
# How long someone wants replies: the words for each length (as written, and typed without marks), found in a
# text naming replies, clause by clause; a clause that denies one wants the other ("no long explanations").
_LENGTHS = {
    "short": r"short|shorter|brief|briefly|concise|concisely|terse|to-the-point"
    r"|ngắn gọn|ngắn|súc tích|ngan gon|suc tich",
    # Not "in the long run", "a long time", "as long as", "how long".
    "long": r"(?<!as )(?<!how )(?<!so )(?:long(?! (?:run|time|term|ago|as)\b)|longer)|lengthy|detailed|in-depth"
    r"|thorough|dài|chi tiết|dai|chi tiet",
}
_LENGTH_WORDS = {
    length: re.compile(rf"(?<![\w-])(?:{words})(?![\w-])", re.IGNORECASE) for length, words in _LENGTHS.items()
}
_REPLY_WORDS = (
    r"answers?|repl(?:y|ies)|responses?|explanations?|explain|summar(?:y|ies)|messages?|paragraphs?"
    r"|trả lời|câu trả lời|giải thích|tóm tắt|tin nhắn|tra loi|giai thich|tom tat|tin nhan"
)
_REPLIES = re.compile(rf"(?<!\w)(?:{_REPLY_WORDS})(?!\w)", re.IGNORECASE)
_REPLY_BEFORE = re.compile(rf"(?<!\w)(?:{_REPLY_WORDS})[^\w-]+(?:[\w-]+[^\w-]+)?$", re.IGNORECASE)
_REPLY_AFTER = re.compile(rf"[^\w-]+(?:[\w-]+[^\w-]+)?(?:{_REPLY_WORDS})(?!\w)", re.IGNORECASE)
_CLAUSE_END = re.compile(r"[,;.!?]")
_DENYING = re.compile(
    r"\b(?:not|no|never|avoid|don['’]t|without)\b|(?<!\w)(?:đừng|không|tránh|dung|khong|tranh)(?!\w)", re.IGNORECASE
)
_OTHER_LENGTH = {"short": "long", "long": "short"}
# What a memory naming an attribute holds (as written and typed without marks).
_PHRASES = [
    (tuple(words.split()), False)
    for words in ("birthday", "born", "sinh nhật", "sinh nhat", "ngày sinh", "ngay sinh", "sn")
    + ("blood type", "blood group", "nhóm máu", "nhom mau")
    + ("short", "brief", "concise", "long", "detailed", "ngắn", "ngan", "dài", "dai", "chi tiết", "chi tiet")
    + ("reply", "replies", "answer", "trả lời", "tra loi")
]

_PAY_PHRASES = [
    (tuple(words.split()), False)
    for words in ("salary", "wage", "wages", "earns", "pension", "take home", "takes home", "lương", "luong")
]


# A dose: an amount and its unit, in digits or an English number word ("500mg", "75 mcg", "five milligrams").
_DOSE = re.compile(
    r"(?<![\w.,])(\d+(?:[.,]\d+)?|" + "|".join(ENGLISH_NUMBERS) + r")\s?"
    r"(mg|mcg|µg|ug|milligrams?|micrograms?|ml|iu)(?![\w])",
    re.IGNORECASE,
)
# Each unit as the one its amounts are compared in, and by how much it is multiplied.
_UNITS = {
    **dict.fromkeys(("mg", "milligram"), ("mg", 1)),
    **dict.fromkeys(("mcg", "µg", "ug", "microgram"), ("mg", 0.001)),
    "ml": ("ml", 1),
    "iu": ("iu", 1),
}
# A medicine's name: a word of plain letters, five at least, that neither language has.
_MEDICINE = re.compile(r"(?<![\w-])[A-Za-z]{5,}(?![\w-])")


def _dose(text):
    """The dose of one medicine ``text`` gives: ``("dose <medicine>", frozenset of amounts)``, or None. The
    medicine is the word neither language has (``translation.no_word_of_either``) nearest before the amount,
    or after it: "metformin 500mg", "tăng liều Levothyrox của chị Hằng lên 75mcg", "Minh is on amlodipine,
    five milligrams"; a text giving doses of two medicines gives none."""
    doses = list(_DOSE.finditer(text))
    if not doses:
        return None
    medicines = [(match.start(), match.group().lower()) for match in _MEDICINE.finditer(text)]
    medicines = [(at, word) for at, word in medicines if no_word_of_either(word)]
    if not medicines:
        return None
    named, amounts = set(), set()
    for dose in doses:
        before = [word for at, word in medicines if at < dose.start()]
        named.add(before[-1] if before else next(word for at, word in medicines if at > dose.start()))
        amount, unit = dose.group(1).lower(), dose.group(2).lower().rstrip("s")
        number = ENGLISH_NUMBERS[amount] if amount in ENGLISH_NUMBERS else float(amount.replace(",", "."))
        unit, times = _UNITS[unit]
        amounts.add(f"dose {round(number * times, 4):g} {unit}")
    return (f"dose {named.pop()}", frozenset(amounts)) if len(named) == 1 else None


# Pay for work, and a pension (as written and typed without marks): "salary", "lương", "earns", "takes home".
_PENSION = re.compile(r"\bpensions?\b|(?<!\w)(?:lương hưu|luong huu)(?!\w)", re.IGNORECASE)
_SALARY = re.compile(
    r"\b(?:salary|salaries|wages?|earns|earned|earning|takes home|take-home pay)\b|(?<!\w)(?:lương|luong)(?!\w)",
    re.IGNORECASE,
)
# Words saying the amount is no pay for the work itself: a bonus, an income on the side, a share of it ("saves
# 20% of his salary"), pay before (and what ``translation.PAST`` says was so once only).
_OTHER_PAY = re.compile(
    r"\b(?:bonus(?:es)?|tutoring|side|extra|selling|sells|before|former"
    r"|old (?:salary|pay|wages?|pension)|saves?|of (?:his|her|their|my) (?:salary|pension))\b"
    # Earned from something, not from a time on: "earns 2 million a month from tutoring", not "From October …".
    rf"|\bfrom (?!(?:next |this |early |mid |late )?(?:month|week|year|{'|'.join(MONTHS)})\b|\d)"
    r"|(?<!\w)(?:thưởng|thuong|dạy kèm|day kem|làm thêm|lam them|bán|cũ"
    r"|để dành|de danh|tiết kiệm|tiet kiem|(?:từ|tu) (?:lương|luong))(?!\w)",
    re.IGNORECASE,
)
# The period pay is for, when not a month: "25k an hour", "lương theo ngày" (the English word, how often it is
# as one word, and the Vietnamese word, with marks and without).
_PERIODS = (
    ("hour", "hourly", "giờ|gio|h|hr"),
    ("day", "daily", "ngày|ngay"),
    ("week", "weekly", "tuần|tuan"),
    ("year", "yearly|annual|annually", "năm|nam"),
)
_PAY_PERIODS = tuple(
    (
        period,
        re.compile(
            rf"\b(?:an?|per|each|by the) {period}\b|\b(?:{often})\b|/\s?(?:{vietnamese})\b"
            rf"|(?<!\w)(?:theo|một|mot|mỗi|moi) (?:{vietnamese})(?!\w)",
            re.IGNORECASE,
        ),
    )
    for period, often, vietnamese in _PERIODS
)
# Whose pay it is, said beside the word for it: "lương của Mai", "tăng lương cho Mai", "Mai's salary", "the
# user's salary".
_PAY_OF = re.compile(r"(?<!\w)(?:lương|luong)(?: hưu| huu| tháng| thang)?\s+(?:(của|cua|cho)\s+)?(.+)", re.IGNORECASE)
_PAY_OWNED = re.compile(r"(?<![\w'’])(\w+['’]s\s+(?:\w+\s+)?)(?:salary|wages?|pension|pay)\b", re.IGNORECASE)
# A name, an honorific before it or not: "Mai", "bà Xuân", "anh Quân".
_NAMED = re.compile(r"(?:(?:" + "|".join(sorted(WRITTEN_HONORIFICS | HONORIFICS)) + r")\s+)?([^\W\d_]+)", re.IGNORECASE)
# An amount of money is no share or count: 100 at least.
_LEAST_PAY = 100


def _pay(text):
    """What a person is paid for their work, or their pension: ``("salary month", frozenset of one amount)``
    ("Lương của Mai là 6,5 triệu/tháng", "Mai earns 6.5 million VND a month", "tăng lương cho Mai lên 7,5
    triệu"), its period in the name when not a month ("salary hour"), or None: the text names no pay, gives
    not one amount, or speaks of pay besides it (a bonus, tutoring, a share saved, pay before)."""
    pension = _PENSION.search(text)
    if not (pension or _SALARY.search(text)) or _OTHER_PAY.search(text) or PAST.search(text):
        return None
    amounts = {value for value in values(text) if isinstance(value, float) and value >= _LEAST_PAY}
    if len(amounts) != 1:
        return None
    period = next((name for name, pattern in _PAY_PERIODS if pattern.search(text)), "month")
    return (f"{'pension' if pension else 'salary'} {period}", frozenset(amounts))


class Attribute(NamedTuple):
    """The attribute a text gives (``"birthday"``, ``"blood type"``, ``"reply length"`` or ``"reply
    language"``), its values, and the text."""

    name: str
    values: frozenset
    text: str


def _birthday(found):
    """A birthday's day and month: a year (or any number beyond a day of a month) is left out; without a month
    it is no date ("Mai's birthday party is at 7pm")."""
    months = {value for value in found if isinstance(value, str) and value.startswith("month")}
    return frozenset(months | {value for value in found if _a_day(value)}) if months else frozenset()


def _a_day(value):
    return isinstance(value, float) and value.is_integer() and 1 <= value <= 31


def _reply_length(text):
    """The length ``text`` wants replies, ``frozenset({"short"})`` or ``{"long"}``, or None: it names no length
    beside a word for replies (at most one word between: "short, to-the-point answers", "câu trả lời ngắn
    gọn"; not "a long commute and answers emails"), or both lengths. A length after a denial in its clause
    wants the other ("keep it short, no long explanations")."""
    if not _REPLIES.search(text):
        return None
    wanted = set()
    for length, words in _LENGTH_WORDS.items():
        for match in words.finditer(text):
            before, after = text[: match.start()], text[match.end() :]
            if not (_REPLY_BEFORE.search(before) or _REPLY_AFTER.match(after)):
                continue
            clause = _CLAUSE_END.split(before)[-1]
            wanted.add(_OTHER_LENGTH[length] if _DENYING.search(clause) else length)
    return frozenset(wanted) if len(wanted) == 1 else None


# Words for the assistant's replies themselves (not messages one writes: "writes commit messages in English").
_ANSWERS = re.compile(
    r"(?<!\w)(?:answers?|answering|repl(?:y|ies|ying)|respon(?:d|ds|se|ses)|trả lời|tra loi)(?!\w)", re.IGNORECASE
)


# A word that may name a language, folded: what a text must hold for its values to be read for one.
_A_LANGUAGE = re.compile(r"\b(?:tieng|" + "|".join(sorted(states.LANGUAGES)) + r")\b", re.IGNORECASE)


def _reply_language(text, negated):
    """The language ``text`` wants replies in (``frozenset({"language english"})``, as ``translation.values``
    gives it), or None: it names no replies (``_ANSWERS``), or not one language ("Answer in English unless the
    user writes in Vietnamese"). The clauses naming replies that deny nothing say it before the others: "reply
    in Vietnamese but keep technical terms in English" and "từ giờ trả lời bằng tiếng Việt, đừng dùng tiếng Anh
    nữa" want Vietnamese; a text denying it as a whole wants none ("Don't answer the user in English")."""
    if not (_ANSWERS.search(text) and _A_LANGUAGE.search(fold(text))):
        return None
    clauses = [clause for clause in slots.CLAUSE.split(text) if _ANSWERS.search(clause) and not is_denial(clause)]
    for said in (clauses, [] if negated else [text]):
        languages = frozenset(
            value
            for clause in said
            for value in values(clause)
            if isinstance(value, str) and value.startswith("language ")
        )
        if languages:
            return languages if len(languages) == 1 else None
    return None


def attribute(text, negated=None):
    """The ``Attribute`` ``text`` gives, or None (it names none, gives no value, or is a denial). ``negated``:
    whether ``text`` is a denial, when the caller has read it (``meaning``); how long replies should be is
    read clause by clause, whatever the text denies."""
    length = _reply_length(text)
    if length is not None:
        return Attribute("reply length", length, text)
    negated = is_denial(text) if negated is None else negated
    language = _reply_language(text, negated)
    if language is not None:
        return Attribute("reply language", language, text)
    if negated:
        return None
    match = _ATTRIBUTES.search(fold(text).lower())
    if match is None:
        found = _dose(text) or _pay(text)
        return None if found is None else Attribute(*found, text)
    name = _NAMES[0] if match.group(1) else _NAMES[1]
    found = values(text)
    found = _birthday(found) if name == "birthday" else frozenset(value for value in found if isinstance(value, str))
    if not found:
        return None
    return Attribute(name, found, text)


def _whose(found, texts_naming):
    """Whom an ``Attribute`` is of (``slots.whose``); a medicine's dose is of whom the medicine is said to be
    ("Bác sĩ đã tăng liều Levothyrox của chị Hằng lên 75mcg", "The doctor raised Minh's amlodipine to 10 mg")."""
    text = found.text
    if found.name.startswith(("salary ", "pension ")):
        of = _PAY_OF.search(text)
        # Pay said to be of someone by name is theirs, whatever else the name may be a word for ("lương của
        # Mai", "luong huu ba Xuan").
        named = of and _NAMED.match(of.group(2))
        if named and named.group(1)[0].isupper():
            return "name", fold(named.group(1)).lower()
        of = of if of and of.group(1) else _PAY_OWNED.search(text)
        if of is not None:
            text = of.groups()[-1]
    if found.name.startswith("dose "):
        medicine = re.escape(found.name.removeprefix("dose "))
        of = re.search(rf"(?<!\w){medicine}\s+(?:của|cua)\s+(.+)", text, re.IGNORECASE) or re.search(
            rf"(?<!\w)(\w+['’]s\s+(?:\w+\s+)?){medicine}(?!\w)", text, re.IGNORECASE
        )
        if of is not None:
            text = of.group(1)
    return slots.whose(text, texts_naming)


def otherwise(a, b, texts_naming):
    """Two ``Attribute``s give one attribute of one person (``people.same_person`` of whom each is about,
    ``_whose``; ``texts_naming(name)``: the owner's memories naming someone) one value in place of another
    (``translation.values_instead``)."""
    return (
        a.name == b.name
        and values_instead(a.values, b.values)
        and people.same_person(_whose(a, texts_naming), _whose(b, texts_naming), texts_naming)
    )


def phrases(found):
    """What a memory that an ``Attribute`` may say otherwise than holds, as ``search.matching_any`` takes it: a
    word naming an attribute, whichever; for a dose, the medicine's name."""
    if found.name.startswith("dose "):
        return [((found.name.removeprefix("dose "),), False)]
    if found.name.startswith(("salary ", "pension ")):
        return _PAY_PHRASES
    return _PHRASES


def same(_a, _b, _texts_naming):
    """Two memories giving the same value may say more besides: they are grouped by their words and meaning,
    never by this."""
    return False
