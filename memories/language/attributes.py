"""What a person has one of: a birthday, a blood type. Two memories of one person giving it two values cannot
both be true: "Mai's birthday is March 14" / "Sinh nhật của chị Mai là ngày 14/4", "sn chi Mai 14/4 nha" /
"Mai was born on 14 March 1990", "Nhóm máu của anh Khoa là A" / "Khoa's blood type is O".

A memory naming such an attribute gives its values as a translation keeps them (``translation.values``): for a
birthday, the day and the month (a year of birth may be left out: "14 March 1990" is "14/3"); for a blood
type, its letters. Whose it is, is whom the memory is about (``slots.whose``).
"""

import re
from typing import NamedTuple

from memories.language import people, slots
from memories.language.folding import fold
from memories.language.meaning import is_denial
from memories.language.translation import values, values_instead

# Words naming an attribute (folded) -> the attribute.
_ATTRIBUTES = re.compile(
    r"\b(?:(birthday|date of birth|born on|born in|sinh nhat|ngay sinh|sn|sinh ngay)"
    r"|(blood type|blood group|nhom mau))\b"
)
_NAMES = ("birthday", "blood type")
# What a memory naming an attribute holds, as ``search.matching_any`` takes it (as written and typed without
# marks).
PHRASES = [
    (tuple(words.split()), False)
    for words in ("birthday", "born", "sinh nhật", "sinh nhat", "ngày sinh", "ngay sinh", "sn")
    + ("blood type", "blood group", "nhóm máu", "nhom mau")
]


class Attribute(NamedTuple):
    """The attribute a text gives (``"birthday"`` or ``"blood type"``), its values, and the text."""

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


def attribute(text, negated=None):
    """The ``Attribute`` ``text`` gives, or None (it names none, gives no value, or is a denial). ``negated``:
    whether ``text`` is a denial, when the caller has read it (``meaning``)."""
    match = _ATTRIBUTES.search(fold(text).lower())
    if match is None or (is_denial(text) if negated is None else negated):
        return None
    name = _NAMES[0] if match.group(1) else _NAMES[1]
    found = values(text)
    found = _birthday(found) if name == "birthday" else frozenset(value for value in found if isinstance(value, str))
    if not found:
        return None
    return Attribute(name, found, text)


def otherwise(a, b, texts_naming):
    """Two ``Attribute``s give one attribute of one person (``people.same_person`` of whom each is about,
    ``slots.whose``; ``texts_naming(name)``: the owner's memories naming someone) one value in place of another
    (``translation.values_instead``)."""
    return (
        a.name == b.name
        and values_instead(a.values, b.values)
        and people.same_person(slots.whose(a.text, texts_naming), slots.whose(b.text, texts_naming), texts_naming)
    )


def same(_a, _b, _texts_naming):
    """Two memories giving the same value may say more besides: they are grouped by their words and meaning,
    never by this."""
    return False
