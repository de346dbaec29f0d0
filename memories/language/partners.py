"""Whether someone has a husband or a wife. Two memories of one person, one saying they are single or not
married ("Vy chưa lập gia đình", "Tùng is single") and one naming their husband or wife ("Vy's husband Long
works at FPT", "Vợ anh Tùng là cô giáo"), cannot both be true; nor can two naming one person's husband or wife
by two names ("Chồng của Vy là anh Long" / "Vy's husband is Minh").

A memory is read by a few patterns in each language, as written and typed without marks, and gives whose
spouse it speaks of (the owner, or a name with its honorific aside, as ``standing`` reads people) and who
that spouse is: no one, someone it does not name, or a name, written with a capital. A former spouse is no
spouse ("ex-wife", "vợ cũ", "late husband"), and a denial says no one is ("User is not single").
"""

import re
from typing import NamedTuple

from memories.language import people
from memories.language.folding import fold
from memories.language.meaning import is_denial
from memories.language.translation import owner_named

NO_ONE, SOMEONE = "", None

# A person as written: the owner, or a capitalised name after an optional honorific.
_HONORIFIC = r"(?:anh|chị|chi|em|ông|ong|bà|ba|cô|co|chú|chu|a|c|mr|mrs|ms)\.? "
_NAME = r"[^\W\d_]+"
_OWNER = r"(?:the )?user|người dùng|nguoi dung|ng dung|tôi|toi|mình|minh|i|my"
_PERSON = rf"({_OWNER}|(?:{_HONORIFIC})?{_NAME})"
_SPOUSE = r"(wife|husband|spouse|vợ|chồng|vo|chong)"
_THE_SPOUSE = rf"(?:{_HONORIFIC})?({_NAME})"
_SINGLE = re.compile(
    rf"(?<!\w){_PERSON} (?:(?:is|are|'m|’m|am) )?(?:still |vẫn còn |vẫn |còn |van con |van |con )?"
    r"(?:single|unmarried|not married|never married|độc thân|doc than"
    r"|chưa (?:lập gia đình|kết hôn|lấy (?:vợ|chồng)|có (?:vợ|chồng))"
    r"|chua (?:lap gia dinh|ket hon|lay (?:vo|chong)|co (?:vo|chong)))(?![-\w])",
    re.IGNORECASE,
)
# (pattern, the group of whose spouse it is, the group of the spouse's name or 0)
_SPOUSE_PATTERNS = [
    # "Mai is Tùng's wife", "Mai là vợ anh Tùng".
    (rf"(?<!\w){_THE_SPOUSE} (?:is|là|la) {_PERSON}['’]s {_SPOUSE}\b", 2, 1),
    (rf"(?<!\w){_THE_SPOUSE} (?:is|là|la) {_SPOUSE} (?:của |cua )?{_PERSON}", 3, 1),
    # "Vy's husband (is) Long", "the user's wife", "my wife"; "chồng (của) Vy (là anh) Long", "vợ tôi".
    (rf"(?<!\w){_PERSON}['’]s (?:\w+ )?{_SPOUSE}\b(?:,? (?:is )?{_THE_SPOUSE})?", 1, 3),
    (rf"(?<!\w)(my) {_SPOUSE}\b(?:,? (?:is )?{_THE_SPOUSE})?", 1, 3),
    (rf"(?<!\w){_SPOUSE} (?:của |cua )?{_PERSON}(?:,? (?:là |la |tên là |ten la ){_THE_SPOUSE})?", 2, 3),
]
_SPOUSE_COMPILED = [(re.compile(pattern, re.IGNORECASE), whose, named) for pattern, whose, named in _SPOUSE_PATTERNS]
# A former spouse is no spouse: taken out before the patterns are read.
_FORMER = re.compile(
    r"\b(?:ex-?|former |late )(?:wife|husband|spouse)\b|(?<!\w)(?:vợ|chồng|vo|chong) (?:cũ|cu|quá cố|qua co)(?!\w)",
    re.IGNORECASE,
)
# A text holding none of these words speaks of no spouse, and is passed over at once.
_MAY_SAY = re.compile(r"\b(?:wife|husband|spouse|vo|chong|single|unmarried|married|doc than|lap gia dinh|ket hon)\b")
# Words the patterns may take for a person or a name that name no one.
_NOT_NAMES = frozenset(
    "he she him her his they them their it who that this one a an the is of and not no".split()
    + "là la của cua và va cũng cung đã da đang dang sẽ se rất rat cũ cu".split()
)
_OWNER_WORDS = frozenset({"user", "the user", "nguoi dung", "ng dung", "toi", "minh", "i", "my"})


# What a memory speaking of a spouse, or of having none, holds, as ``search.matching_any`` takes it (as written
# and typed without marks).
PHRASES = [
    ((word,), False) for word in "wife husband spouse vợ chồng vo chong single unmarried married độc doc".split()
] + [(tuple(words.split()), False) for words in ("lập gia đình", "lap gia dinh", "kết hôn", "ket hon")]


class Spouse(NamedTuple):
    """Whose spouse a text speaks of (``("owner", OWNER)`` or ``("name", folded name)``), who the spouse is
    (``NO_ONE``, ``SOMEONE`` or a folded name), and the text."""

    whose: tuple
    spouse: str | None
    text: str = ""


def _person(written):
    """Whom the words a pattern took for a person are, or None: a name must be written with a capital."""
    folded = fold(written).lower()
    if folded in _OWNER_WORDS:
        return people.OWNER, people.OWNER
    name = re.sub(rf"^(?:{_HONORIFIC})", "", written, flags=re.IGNORECASE)
    if not name or not name[0].isupper() or fold(name).lower() in _NOT_NAMES:
        return None
    return "name", fold(name).lower()


def _named(written):
    """A spouse's name as written, when it is one (capitalised, not a word of the sentence), else ``SOMEONE``."""
    if not written or not written[0].isupper() or fold(written).lower() in _NOT_NAMES:
        return SOMEONE
    return fold(written).lower()


def spouse(text, negated=None):
    """The ``Spouse`` ``text`` speaks of, or None. ``negated``: whether ``text`` is a denial, when the caller has
    read it (``meaning``): "not married" and "chưa lập gia đình" say there is no one; any other denial
    ("User is not single") says nothing here."""
    if not _MAY_SAY.search(fold(text).lower()):
        return None
    single = _SINGLE.search(text)
    if single is not None:
        whose = _person(single.group(1))
        if whose is not None:
            return Spouse(whose, NO_ONE, text)
    if is_denial(text) if negated is None else negated:
        return None
    text_now = _FORMER.sub(" ", text)
    for pattern, whose_group, named_group in _SPOUSE_COMPILED:
        for match in pattern.finditer(text_now):
            whose = _person(match.group(whose_group))
            if whose is not None:
                return Spouse(whose, _named(match.group(named_group)), text)
    return None


def otherwise(a, b, texts_naming):
    """Two ``Spouse``s of one person (``people.same_person``, but the owner and a name only where a memory says it
    is the owner's name; ``texts_naming(name)``: the owner's memories naming someone) that cannot both be true:
    one says there is no one, the other that there is someone; or they name two people."""
    if a.spouse == NO_ONE and b.spouse == NO_ONE:
        return False
    if NO_ONE not in (a.spouse, b.spouse) and (a.spouse is SOMEONE or b.spouse is SOMEONE or a.spouse == b.spouse):
        return False
    if {a.whose[0], b.whose[0]} == {people.OWNER, "name"}:
        # The owner and a name are one person here only where the owner's memories say it is the owner's name:
        # an owner speaks of other people's husbands and wives far more often than of their own by name.
        name = a.whose[1] if a.whose[0] == "name" else b.whose[1]
        return any(name in owner_named(text) for text in texts_naming(name))
    return people.same_person(a.whose, b.whose, texts_naming)


def same(_a, _b, _texts_naming):
    """Two memories saying the same of someone's spouse may say more besides: they are grouped by their words
    and meaning, never by this."""
    return False
