"""Who stands above whom: who is whose boss, who is older than whom. Two memories setting the same two people
the other way round, or apart by another number of years, cannot both be true: "Đạt is Khoa's direct manager"
/ "Khoa là quản lý trực tiếp của Đạt", "Hiếu is Trang's boss" / "Trang manages Hiếu", "Nhi lớn hơn Long 1
tuổi" / "Long is two years older than Nhi".

A memory is read by a few patterns in each language (``_PATTERNS``), folded, and gives ``(kind, upper, lower,
years)``: kind "boss" (upper is the boss) or "older" (upper is the older), each person the owner ("the user",
"người dùng") or a name (its honorific aside: "anh Quân" is "quan"). Whether two of them are one person is
``people.same_person``'s to say. Someone's relation ("older than Lan's brother") is no one a pattern reads.
"""

import re
from typing import NamedTuple

from memories.language import people
from memories.language.folding import fold
from memories.language.meaning import HONORIFICS, SHORT_HONORIFICS, is_denial
from memories.language.translation import names_agree
from memories.language.words import ENGLISH_NUMBERS, FOLDED_VIETNAMESE_DIGITS

# Years apart in words, folded: "two years older", "hơn 3 tuổi", "lớn hơn hai tuổi".
_NUMBERS = {word: value for word, value in ENGLISH_NUMBERS.items() if 1 <= value <= 10} | FOLDED_VIETNAMESE_DIGITS

# A person, folded: the owner, or a word after an optional honorific ("anh quan", "a khoa", "chi hang").
_P = r"((?:the )?user|nguoi dung|ng dung|(?:(?:anh|chi|em|ong|ba|co|chu|a|c|mr|mrs|ms) )?[a-z]+)"
_YEARS = r"(\d+|" + "|".join(_NUMBERS) + r")"
_DIRECT = r"(?:direct |truc tiep )?"
# A person ends where a word does, not as whose someone else is ("Lan's brother").
_END = r"\b(?!['’]s\b)"

# (pattern, kind, which group is upper, which lower, which years or 0)
_PATTERNS = [
    (rf"\b{_P} is {_P}'s {_DIRECT}(?:line )?(?:manager|boss|supervisor)\b", "boss", 1, 2, 0),
    (rf"\b{_P}'s {_DIRECT}(?:manager|boss|supervisor) is {_P}{_END}", "boss", 2, 1, 0),
    (rf"\b{_P} (?:directly )?manages {_P}{_END}", "boss", 1, 2, 0),
    (rf"\b{_P} (?:directly )?reports to {_P}{_END}", "boss", 2, 1, 0),
    (rf"\b{_P} is {_P}'s {_DIRECT}report\b", "boss", 2, 1, 0),
    (rf"\b{_P} la (?:sep|quan ly) {_DIRECT}(?:cua )?{_P}{_END}", "boss", 1, 2, 0),
    (rf"\b(?:sep|quan ly) {_DIRECT}(?:cua )?{_P} la {_P}{_END}", "boss", 2, 1, 0),
    (rf"\b{_P} la nhan vien (?:duoi quyen |cap duoi )?(?:cua )?{_P}{_END}", "boss", 2, 1, 0),
    (rf"\b{_P} la cap duoi {_DIRECT}(?:cua )?{_P}{_END}", "boss", 2, 1, 0),
    (rf"\b{_P} la cap tren {_DIRECT}(?:cua )?{_P}{_END}", "boss", 1, 2, 0),
    (
        rf"\b{_P} (?:la|is) (?:\w+ )?(?:{_YEARS} (?:years? )?)?older than (?:his |her |their )?(?:\w+ )?{_P}{_END}",
        "older",
        1,
        3,
        2,
    ),
    (
        rf"\b{_P} (?:la|is) (?:{_YEARS} (?:years? )?)?younger than (?:his |her |their )?(?:\w+ )?{_P}{_END}",
        "older",
        3,
        1,
        2,
    ),
    # An older or a younger sibling: "Yến is Phong's older sister", "Tín là em trai của Quân".
    (rf"\b{_P} is {_P}'s (?:older|elder|big) (?:sister|brother)\b", "older", 1, 2, 0),
    (rf"\b{_P} is {_P}'s (?:younger|little|baby) (?:sister|brother)\b", "older", 2, 1, 0),
    (rf"\b{_P} la (?:chi gai|anh trai) (?:ruot )?(?:cua )?{_P}{_END}", "older", 1, 2, 0),
    (rf"\b{_P} la em (?:gai|trai) (?:ruot )?(?:cua )?{_P}{_END}", "older", 2, 1, 0),
    (rf"\b{_P} (?:lon |gia )?hon {_P} {_YEARS} tuoi\b", "older", 1, 2, 3),
    (rf"\b{_P} (?:nho|tre) hon {_P} {_YEARS} tuoi\b", "older", 2, 1, 3),
]
_COMPILED = [(re.compile(pattern), kind, upper, lower, years) for pattern, kind, upper, lower, years in _PATTERNS]


# A text holding none of these words says no standing, and is passed over at once.
_MAY_STAND = re.compile(
    r"\b(?:manager|boss|supervisor|manages|reports|report|sep|quan ly|nhan vien|cap duoi|cap tren|hon"
    r"|older|younger|elder|big|little|baby|gai|trai)\b"
)


class Standing(NamedTuple):
    """What a text says of two people (``kind``: "boss" or "older"), who is above, who below, by how many years
    (or None), and the text it says it in."""

    kind: str
    upper: tuple
    lower: tuple
    years: int | None
    text: str = ""


# Words a pattern may take for a person that name no one.
_NO_ONE = frozenset("he she him her his they them their it who that this one team".split())
_HONORIFIC = re.compile("^(?:" + "|".join(sorted(HONORIFICS | SHORT_HONORIFICS)) + ") ")


def _person(written):
    """Whom the words a pattern took for a person are: ``("owner", OWNER)`` or ``("name", folded name)``."""
    if written in ("user", "the user", "nguoi dung", "ng dung"):
        return people.OWNER, people.OWNER
    name = _HONORIFIC.sub("", written)
    return None if name in _NO_ONE else ("name", name)


def standing(text, negated=None):
    """The ``Standing`` ``text`` says, or None. ``negated``: whether ``text`` is a denial, when the caller has
    read it (``meaning``)."""
    folded = fold(text).lower()
    if not _MAY_STAND.search(folded) or (is_denial(text) if negated is None else negated):
        return None
    for pattern, kind, upper, lower, years in _COMPILED:
        match = pattern.search(folded)
        if not match:
            continue
        above, below = _person(match.group(upper)), _person(match.group(lower))
        if above is None or below is None or above == below:
            continue
        amount = match.group(years) if years else None
        if amount is not None:
            amount = int(amount) if amount.isdigit() else _NUMBERS[amount]
        return Standing(kind, above, below, amount, text)
    return None


def otherwise(a, b, texts_naming):
    """Two ``Standing``s of one kind set the same two people the other way round, or apart by another number
    of years (``people.same_person``; ``texts_naming(name)``: the owner's memories naming someone)."""
    if a.kind != b.kind:
        return False

    def same(x, y):
        return people.same_person(x, y, texts_naming)

    if same(a.upper, b.lower) and same(a.lower, b.upper):
        return True
    return (
        a.years is not None
        and b.years is not None
        and a.years != b.years
        and same(a.upper, b.upper)
        and same(a.lower, b.lower)
    )


def same(a, b, texts_naming):
    """Two ``Standing``s set the same two people the same way, apart by the same years where both say."""
    if a.kind != b.kind or (a.years is not None and b.years is not None and a.years != b.years):
        return False
    if not names_agree(a.text, b.text):
        return False
    return people.same_person(a.upper, b.upper, texts_naming) and people.same_person(a.lower, b.lower, texts_naming)
