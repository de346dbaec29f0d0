"""Whether someone has a husband or a wife. Two memories of one person, one saying they are single or not
married ("Vy chưa lập gia đình", "Tùng is single") and one naming their husband or wife ("Vy's husband Long
works at FPT", "Vợ anh Tùng là cô giáo"), cannot both be true; nor can two naming one person's husband or wife
by two names ("Chồng của Vy là anh Long" / "Vy's husband is Minh"), nor one saying two broke up and one naming
one the other's partner ("Tuấn với Quỳnh chia tay rồi" / "Bạn gái Tuấn tên là Quỳnh").

A memory is read by a few patterns in each language, as written and typed without marks, and gives whose
spouse it speaks of (the owner, or a name with its honorific aside, as ``standing`` reads people) and who
that spouse is: no one, someone it does not name, or a name, written with a capital. A former spouse is no
spouse ("ex-wife", "vợ cũ", "late husband"), and a denial says no one is ("User is not single").
"""

import re
from typing import NamedTuple

from memories.language import people
from memories.language.folding import fold
from memories.language.meaning import HONORIFICS, SHORT_HONORIFICS, WRITTEN_HONORIFICS, is_denial
from memories.language.translation import owner_named

NO_ONE, SOMEONE = "", None
# How two people are bound: married, or seeing each other (a girlfriend, a fiancé); or no more (parted).
MARRIED, DATING, PARTED = "married", "dating", "parted"

# A person as written: the owner, or a capitalised name after an optional honorific.
_HONORIFIC = (
    "(?:" + "|".join(sorted(WRITTEN_HONORIFICS | HONORIFICS | SHORT_HONORIFICS, key=len, reverse=True)) + r")\.? "
)
_NAME = r"[^\W\d_]+"
_OWNER = r"(?:the )?user|người dùng|nguoi dung|ng dung|tôi|toi|mình|minh|i|my"
_PERSON = rf"({_OWNER}|(?:{_HONORIFIC})?{_NAME})"
_SPOUSE = (
    r"(wife|husband|spouse|girlfriend|boyfriend|fianc[ée]e?|vợ sắp cưới|chồng sắp cưới|vợ|chồng|vo|chong"
    r"|bạn gái|bạn trai|người yêu|ban gai|ban trai|nguoi yeu)"
)
_MARRIED_WORDS = frozenset({"wife", "husband", "spouse", "vo", "chong"})
_THE_SPOUSE = rf"(?:{_HONORIFIC})?({_NAME})"
_NOW = r"(?:(?:is|are|'m|’m|am|has been|was) )?(?:still |now |currently |vẫn còn |vẫn |còn |hiện đang |hiện |đang )?"
# Saying there is no one: single rules out anyone, unmarried a husband or wife only.
_NO_ONE = [
    (
        rf"(?<!\w){_PERSON} {_NOW}(?:single|not seeing anyone|not dating|độc thân|doc than"
        r"|chưa (?:có người yêu|hẹn hò)|chua (?:co nguoi yeu|hen ho))(?![-\w])",
        DATING,
    ),
    (
        rf"(?<!\w){_PERSON} {_NOW}(?:unmarried|not married|never married|divorced|widowed|an? widow(?:er)?"
        r"|(?:đã )?(?:ly hôn|ly dị|góa (?:vợ|chồng))|(?:da )?(?:ly hon|ly di|goa (?:vo|chong))"
        r"|chưa (?:lập gia đình|kết hôn|lấy (?:vợ|chồng)|có (?:vợ|chồng))"
        r"|chua (?:lap gia dinh|ket hon|lay (?:vo|chong)|co (?:vo|chong)))(?![-\w])",
        MARRIED,
    ),
]
_NO_ONE_COMPILED = [(re.compile(pattern, re.IGNORECASE), bond) for pattern, bond in _NO_ONE]
# Two people who broke up: "Tuấn với Quỳnh chia tay rồi", "Long and Nhi have split up", "Long broke up with Nhi",
# "Tuấn đã chia tay Quỳnh".
_BROKE_UP = r"(?:(?:đã|da|have|has|had) )?(?:chia tay|broken up|broke up|split up|separated)"
_PARTED = [
    re.compile(rf"(?<!\w){_PERSON} (?:và|va|với|voi|and|&) {_PERSON} {_BROKE_UP}(?![-\w])", re.IGNORECASE),
    re.compile(rf"(?<!\w){_PERSON} {_BROKE_UP} (?:(?:với|voi|with) )?{_PERSON}(?![-\w])", re.IGNORECASE),
]
# (pattern, the group of whose spouse it is, the group of the spouse's word or 0 for an engagement, the group of
# the spouse's name or 0)
_SPOUSE_PATTERNS = [
    # "Mai is Tùng's wife", "Mai là vợ anh Tùng".
    (rf"(?<!\w){_THE_SPOUSE} (?:is|là|la) {_PERSON}['’]s {_SPOUSE}\b", 2, 3, 1),
    (rf"(?<!\w){_THE_SPOUSE} (?:is|là|la) {_SPOUSE} (?:của |cua )?{_PERSON}", 3, 2, 1),
    # "Vy's husband (is) Long", "the user's wife", "my wife"; "chồng (của) Vy (là anh) Long", "vợ tôi".
    (rf"(?<!\w){_PERSON}['’]s (?:\w+ )?{_SPOUSE}\b(?:,? (?:is )?{_THE_SPOUSE})?", 1, 2, 3),
    (rf"(?<!\w)(my) {_SPOUSE}\b(?:,? (?:is )?{_THE_SPOUSE})?", 1, 2, 3),
    (rf"(?<!\w){_SPOUSE} (?:của |cua )?{_PERSON}(?: (?:là |la |tên là |ten la |tên |ten ){_THE_SPOUSE})?", 2, 1, 3),
    # "Yến got engaged to Sơn", "Yến đính hôn với anh Sơn".
    (
        rf"(?<!\w){_PERSON} (?:(?:got|is|was|has been|đã|da) )?(?:engaged to|đính hôn với|dinh hon voi) {_THE_SPOUSE}",
        1,
        0,
        2,
    ),
]
_SPOUSE_COMPILED = [(re.compile(pattern, re.IGNORECASE), *groups) for pattern, *groups in _SPOUSE_PATTERNS]
# A former spouse is no spouse: taken out before the patterns are read.
_FORMER = re.compile(
    r"\b(?:ex-?|former |late )(?:wife|husband|spouse|girlfriend|boyfriend|fianc[ée]e?)\b"
    r"|(?<!\w)(?:vợ|chồng|vo|chong|người yêu|nguoi yeu|bạn gái|bạn trai|ban gai|ban trai)"
    r" (?:cũ|cu|quá cố|qua co)(?!\w)"
    # One who has died: "Bích's husband died in 2019", "chồng bà Bích đã mất".
    r"|(?<!\w)(?:wife|husband|spouse|vợ|chồng|vo|chong)(?: [^\W\d_]+){0,3}?"
    r" (?:died|passed away|qua đời|đã mất|mất|qua doi|da mat)(?!\w)",
    re.IGNORECASE,
)
# A text holding none of these words speaks of no spouse, and is passed over at once.
_MAY_SAY = re.compile(
    r"\b(?:wife|husband|spouse|girlfriend|boyfriend|fiance|fiancee|engaged|vo|chong|ban gai|ban trai|nguoi yeu"
    r"|dinh hon|single|unmarried|married|divorced|widowed|widow|widower|seeing|dating|doc than|lap gia dinh"
    r"|ket hon|ly hon|ly di|goa|hen ho|chia tay|broke|broken|split|separated)\b"
)
# Words the patterns may take for a person or a name that name no one.
_NOT_NAMES = frozenset(
    "he she him her his they them their it who that this one a an the is of and not no".split()
    + "là la của cua và va cũng cung đã da đang dang sẽ se rất rat cũ cu".split()
)
_OWNER_WORDS = frozenset({"user", "the user", "nguoi dung", "ng dung", "toi", "minh", "i", "my"})
# A word for the owner typed without its marks that is also a common name, written so: "Minh" is a name, "mình"
# (I, me) the owner ("Minh's wife Hằng" is no wife of the owner's).
_NAMES_TOO = frozenset({"Minh"})


# What a memory speaking of a spouse, or of having none, holds (as written and typed without marks).
_PHRASES = [
    ((word,), False)
    for word in "wife husband spouse girlfriend boyfriend fiance fiancee engaged vợ chồng vo chong single".split()
    + "unmarried married divorced widowed widow widower seeing dating độc doc góa goa".split()
] + [
    (tuple(words.split()), False)
    for words in ("lập gia đình", "lap gia dinh", "kết hôn", "ket hon", "ly hôn", "ly hon", "ly dị", "ly di")
    + ("bạn gái", "ban gai", "bạn trai", "ban trai", "người yêu", "nguoi yeu", "đính hôn", "dinh hon")
    + ("hẹn hò", "hen ho", "chia tay", "broke up", "broken up", "split up", "separated")
]


class Spouse(NamedTuple):
    """Whose spouse a text speaks of (``("owner", OWNER)`` or ``("name", folded name)``), who the spouse is
    (``NO_ONE``, ``SOMEONE`` or a folded name), how they are bound (``MARRIED`` or ``DATING``; for ``NO_ONE``,
    the bond it rules out: single is no one at all, unmarried no husband or wife), and the text."""

    whose: tuple
    spouse: str | None
    bond: str
    text: str

    @property
    def people(self):
        """The two a breakup (``PARTED``) speaks of, or whose spouse it is and the spouse."""
        return frozenset({self.whose, ("name", self.spouse)})


def _person(written):
    """Whom the words a pattern took for a person are, or None: a name must be written with a capital."""
    folded = fold(written).lower()
    if folded in _OWNER_WORDS and written not in _NAMES_TOO:
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
    for pattern, bond in _NO_ONE_COMPILED:
        single = pattern.search(text)
        whose = _person(single.group(1)) if single else None
        if whose is not None:
            return Spouse(whose, NO_ONE, bond, text)
    # A breakup reads as a denial ("stopped seeing"); its patterns take no negation ("chưa chia tay").
    parted = _parted(text)
    if parted is not None:
        return parted
    if is_denial(text) if negated is None else negated:
        return None
    text_now = _FORMER.sub(" ", text)
    for pattern, whose_group, word_group, named_group in _SPOUSE_COMPILED:
        for match in pattern.finditer(text_now):
            whose = _person(match.group(whose_group))
            if whose is not None:
                word = fold(match.group(word_group)).lower() if word_group else ""
                bond = MARRIED if word in _MARRIED_WORDS else DATING
                return Spouse(whose, _named(match.group(named_group)), bond, text)
    return None


def _parted(text):
    """The breakup ``text`` tells of (``_PARTED``): a ``Spouse`` whose ``spouse`` is a name, bound ``PARTED``;
    or None."""
    for pattern in _PARTED:
        for match in pattern.finditer(text):
            first, second = _person(match.group(1)), _person(match.group(2))
            if first is None or second is None or first == second:
                continue
            if second[0] == people.OWNER:
                first, second = second, first
            return Spouse(first, second[1], PARTED, text)
    return None


def keys(found):
    """Whom a ``Spouse`` speaks of, as the doctor looks for others of them: whose spouse, or both who parted."""
    return tuple(found.people) if found.bond == PARTED else (found.whose,)


def otherwise(a, b, texts_naming):
    """Two ``Spouse``s of one person (``people.same_person``, but the owner and a name only where a memory says it
    is the owner's name; ``texts_naming(name)``: the owner's memories naming someone) that cannot both be true:
    one says there is no one, the other that there is someone it rules out ("Long is single" / "Bạn gái Long
    tên Nhi"; "Vy is not married" / "Vy's boyfriend Minh" may both be); or they name two husbands or wives."""
    if PARTED in (a.bond, b.bond):
        # Two who broke up are no couple: "Tuấn với Quỳnh chia tay rồi" / "Bạn gái Tuấn tên là Quỳnh".
        parted, other = (a, b) if a.bond == PARTED else (b, a)
        named = other.bond != PARTED and other.spouse not in (NO_ONE, SOMEONE)
        return named and parted.people == other.people
    if a.spouse == NO_ONE and b.spouse == NO_ONE:
        return False
    if a.spouse == NO_ONE or b.spouse == NO_ONE:
        none, someone = (a, b) if a.spouse == NO_ONE else (b, a)
        # Unmarried is no husband or wife, and may be seeing someone.
        if none.bond == MARRIED and someone.bond == DATING:
            return False
    elif a.spouse is SOMEONE or b.spouse is SOMEONE or a.spouse == b.spouse or DATING in (a.bond, b.bond):
        return False
    if {a.whose[0], b.whose[0]} == {people.OWNER, "name"}:
        # The owner and a name are one person here only where the owner's memories say it is the owner's name:
        # an owner speaks of other people's husbands and wives far more often than of their own by name.
        name = a.whose[1] if a.whose[0] == "name" else b.whose[1]
        return any(name in owner_named(text) for text in texts_naming(name))
    return people.same_person(a.whose, b.whose, texts_naming)


def phrases(_found):
    """What a memory that a ``Spouse`` may say otherwise than holds, as ``search.matching_any`` takes it: a word
    for a spouse or for having none, whoever's."""
    return _PHRASES


def same(_a, _b, _texts_naming):
    """Two memories saying the same of someone's spouse may say more besides: they are grouped by their words
    and meaning, never by this."""
    return False
