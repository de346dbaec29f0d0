"""One thing in a slot: a person's main editor, their only phone, the laptop they use now. Two memories that
put different things in one slot of one person cannot both be true: "User's main editor is Neovim" / "VS Code
is the user's primary editor for all projects", "Long chỉ dùng Vim" / "Long codes in Python using VS Code",
"Laptop chính của người dùng là MacBook Pro" / "User's main work laptop is a ThinkPad X1 Carbon".

A memory puts things in a slot in either of two ways:
- it names a tool of a kind one uses one of at a time (``states.TOOLS_OF``: an editor, a browser, a package
  manager), outside a clause that denies it ("không bao giờ đụng tới VS Code", "she avoids Figma");
- it marks a word naming the slot as the one ("main laptop", "primary bank", "điện thoại chính", "a single
  phone"): the things are the names on the other side of its "is" ("… is a ThinkPad X1 Carbon", "… là
  Vietcombank").

Two memories are otherwise when they are of the same person, name things in one slot, none of the same, and
one of them says its thing is the one ("main", "only", "chỉ", "chính", or that it is new: "now", "switched
to"). Using two tools without saying either is the one ("User uses Vim" / "User uses VS Code") is not
otherwise; nor are the slots of two people ("Laptop chính của chị Thu" / "User's main laptop").
"""

import functools
import re
from dataclasses import dataclass

from memories.language import people, states
from memories.language.folding import fold
from memories.language.meaning import WRITTEN_HONORIFICS, is_denial
from memories.language.translation import PAST, SAYS_ONLY, names_in, says_changed

# Words saying a thing is the only one (``translation.SAYS_ONLY``) or is all one uses ("all of my code", "đều").
_ALL = re.compile(
    r"\b(?:single|entirely)\b"
    r"|\ball (?:of )?(?:my|his|her|their) (?:\w+ )?(?:work|notes|designs?|projects|code)\b"
    r"|(?<!\w)(?:hoàn toàn|hoan toan|đều|tất cả)(?!\w)",
    re.IGNORECASE,
)
_MAIN = re.compile(
    r"\b(?:main|primary|favou?rite|go-to)\b|(?<!\w)(?:chính|thích nhất|chinh|thich nhat)(?!\w)", re.IGNORECASE
)
# How surely a memory says its thing is the one: only it (or it is new: "now", "switched to"), the main one,
# or no more than that it is used.
ONLY, MAIN, USED = 2, 1, 0
_MARKS_SLOT_BEFORE = frozenset("main primary only sole single favourite favorite go-to".split())
_MARKS_SLOT_AFTER = frozenset({"chính", "chinh", "duy nhất", "duy nhat"})

# Words naming a slot (lower-case, as written; "_" joins the words of one) -> the slot.
_SLOTS = {
    **dict.fromkeys("laptop notebook".split(), "laptop"),
    **dict.fromkeys("phone smartphone điện_thoại dien_thoai".split(), "phone"),
    **dict.fromkeys("editor ide".split(), "editor"),
    **dict.fromkeys("bank ngân_hàng ngan_hang".split(), "bank"),
    **dict.fromkeys("browser trình_duyệt trinh_duyet".split(), "browser"),
    **dict.fromkeys("car xe_hơi xe_hoi ô_tô o_to".split(), "car"),
    **dict.fromkeys("motorbike scooter xe_máy xe_may".split(), "motorbike"),
    **dict.fromkeys("pet thú_cưng thu_cung".split(), "pet"),
    "shell": "shell",
    "database": "database",
}
_SLOT_WORDS = {tuple(words.split("_")): slot for words, slot in _SLOTS.items()}
_LONGEST = max(len(words) for words in _SLOT_WORDS)
# Tools written as two words ("VS Code"), as texts and the full-text index hold them.
_SPELT_APART = {"vscode": ("vs", "code")}
# The words a text saying where someone lives, or comes from, holds (folded), for ``_MAY_FILL`` and the look-ups
# of ``phrases``.
_LIVE_WORDS = ("live", "lives", "living", "resides", "reside", "based", "moved", "relocated", "song", "chuyen", "don")
_FROM_WORDS = ("hometown", "originally", "que")
_PLACE_WORDS = _LIVE_WORDS + _FROM_WORDS
# And where someone works.
_WORK_WORDS = ("work", "works", "working", "worked", "employed", "joined", "lam")
# Words that may stand between a marker and its slot: "main work laptop", "only personal phone".
_BETWEEN = frozenset("work personal daily home office design coding code text".split())
_WORD = re.compile(r"[^\W_]+(?:-[^\W_]+)?")
# A clause that denies, or turns away from, what it names ("migrated off PostgreSQL"): its tools are not in
# the slot.
_DENYING = re.compile(
    r"\b(?:not|never|no|n['’]t|avoids?|avoided|hates?|hated|dislikes?|instead of|rather than|from|off)\b"
    r"|(?<!\w)(?:không|ko|k|chưa|chẳng|ghét|tránh|thay vì|bỏ|từ)(?!\w)",
    re.IGNORECASE,
)
# "Only" saying when or what for a thing is used, not that it is the one: "uses Python only for data scripts",
# "opens IntelliJ only when he has to touch the Java service", "chỉ mở IntelliJ khi sửa code Java". Such a
# thing is used beside the one, not instead of it.
_ONLY_WHEN = re.compile(
    r"\b(?:only|solely|exclusively) (?:for|when|if|on|at|during|while|to|in case)\b"
    r"|(?<!\w)chỉ (?:\w+ ){0,4}?(?:khi|lúc|để|trong lúc)(?!\w)",
    re.IGNORECASE,
)
# A language named as what something is used for, not as the thing used: "uses Bun for every JavaScript
# project", "prefers pnpm over npm for JS repos", "cho mấy project JavaScript".
_PROJECTS = r"(?:projects?|repos?|repositories|codebases?|apps?|services?|dự án|du an)"
_FOR_PROJECTS = re.compile(
    r"\b(?:for|cho)\s+(?:(?:every|all|all of|my|his|her|their|the|mấy|mọi|các|những|tất cả|may|moi|cac|nhung)\s+)*"
    rf"(?:[^\W\d_]+(?=\s+{_PROJECTS}\b)|{_PROJECTS}\s+[^\W\d_]+)",
    re.IGNORECASE,
)
# What a text says was left for another: "switched from Neovim to VS Code", "chuyển từ Vim sang VS Code".
_LEFT = re.compile(r"\b(?:from|từ|tu)\s.*?\s(?:to|sang)\b", re.IGNORECASE)
# Where a clause ends: what the tools of a clause denying them are not, and what replies are wanted in is read
# from (``attributes``).
CLAUSE = re.compile(r"[,;.!?]+|\s(?:but|nhưng|and no longer|và không)\s", re.IGNORECASE)
# A first word whose something is: "Lan's main laptop".
_WHOSE_FIRST = re.compile(r"\s*([^\W\d_]+)['’]s\b")
# Where a slot is said to hold its thing: "… is a ThinkPad", "… là Vietcombank", "a single phone, an iPhone".
_HOLDS = re.compile(r"\s(?:is|là|la)\s|,\s+(?:an?|một)\s", re.IGNORECASE)


@dataclass(eq=False)
class Slot:
    """The things a memory puts in each slot (``{slot: frozenset of folded names}``) and how surely it says
    each holds them (``{slot: ONLY, MAIN or USED}``); whose slots they are is read from its text when a
    comparison needs it (``whose``, ``first``)."""

    text: str
    things: dict
    sure: dict

    @functools.cached_property
    def whose(self):
        """Whom the memory is about (``_whose``), None when it mentions no one."""
        return _whose(self.text, frozenset().union(*self.things.values()))

    @functools.cached_property
    def first(self):
        """The capitalised word it starts with, folded, unless that is a thing it names: a name a dictionary
        knows ("Lan lives in Hanoi now") is someone's when the owner's memories say who
        (``people.owner_or_first``)."""
        first = people.first_word(self.text)
        return "" if any(first in things for things in self.things.values()) else first


# A text that names no tool and no slot fills none, and is passed over at once (the doctor reads every memory).
_MAY_FILL = re.compile(
    r"(?<![^\W_])(?:"
    + "|".join(
        sorted(
            {re.escape(word) for word in states.TOOLS_OF}
            | {r"\s*".join(map(re.escape, words)) for words in _SPELT_APART.values()}
            | {r"\s+".join(re.escape(fold(word)) for word in words) for words in _SLOT_WORDS}
            | set(_PLACE_WORDS)
            | set(_WORK_WORDS),
            key=len,
            reverse=True,
        )
    )
    + r")(?![^\W_])"
)


# Where someone lives, and where they come from: the verb, then the place to the end of its clause ("User lives
# in Saigon, District 3", "Khoa has moved to Đà Nẵng", "Bà Ngọc sống một mình ở Đà Nẵng", "Quê chị Thảo ở Cần
# Thơ", "Thảo is originally from Huế"). Where one lives is one place at a time, but a district is in a city
# ("lives in Ba Đình" / "lives in Hanoi"): only a move, or a text saying it is new, says the other place is
# no more. Where one comes from is one place.
_LIVES = re.compile(
    r"\b(?:lives?|living|resides?|(?:is )?based) (?:alone |now |together |with (?:[\w'’]+ ){1,3}?)?in\s"
    r"|(?<!\w)(?:sống|song) (?:một mình |mot minh |(?:cùng|với|cung|voi) (?:\w+ ){1,3}?)?(?:ở|tại|o|tai)\s",
    re.IGNORECASE,
)
_MOVED_TO = re.compile(
    r"\b(?:moved|relocated) (?:back )?to\s"
    r"|(?<!\w)(?:chuyển|dọn|chuyen|don)(?: nhà| nha)? (?:vào|ra|đến|tới|về|lên|vao|den|toi|ve|len)\s"
    # A room or a house moved over to a place, as chat says it: "chuyển trọ qua Hải Châu".
    r"|(?<!\w)(?:chuyển|dọn|chuyen|don) (?:nhà|nha|trọ|tro) (?:qua|sang)\s",
    re.IGNORECASE,
)
# Where someone works, one employer at a time unless they say otherwise ("User works as a data analyst at
# Viettel", "Người dùng làm kế toán ở Vinamilk", "giờ làm cho Shopee"); joining one, or leaving another, says
# it is new ("User joined MoMo in March", "nghỉ Vinamilk rồi, giờ làm cho Shopee").
_WORKS_AT = re.compile(
    r"\b(?:works?|working|worked|is employed|employed) (?:now |full[- ]time |part[- ]time )?"
    r"(?:as (?:an? )?(?:\w+ ){1,3}?)?(?:at|for)\s"
    r"|(?<!\w)(?:làm|lam)(?: việc| viec)?(?: \w+){0,3}? (?:ở|tại|cho|o|tai)\s",
    re.IGNORECASE,
)
# Where one works may be a city ("làm việc ở Hà Nội"), which is no employer.
_HONORIFIC_AFTER = tuple(f"{word} " for word in WRITTEN_HONORIFICS)
_CITIES = frozenset("hanoi saigon hcmc hochiminh danang hue haiphong cantho nhatrang dalat vietnam".split())
_JOINED = re.compile(r"\b(?:joined|started (?:a (?:new )?job |working )?at)\s", re.IGNORECASE)
_LEFT_WORK = re.compile(
    r"\b(?:left|quit|resigned from)\s|(?<!\w)(?:nghỉ|thôi|nghi|thoi)\s(?!làm\b|lam\b)", re.IGNORECASE
)
_FROM = re.compile(
    r"\bhometown (?:is|was)\s|\b(?:is|comes|was) originally from\s"
    r"|(?<!\w)(?:quê|que)(?: quán| nhà| quan| nha)?(?: \w+){0,3}? (?:ở|là|tại|o|la)\s",
    re.IGNORECASE,
)
_PLACE_ENDS = re.compile(r"[.;!?(]|\s(?:and|to|with|for|since|và|để|với|cùng|từ|va|de|voi|cung|tu)\s", re.IGNORECASE)


_PLACE_SLOTS = frozenset({"home", "hometown"})
# Slots of one place at a time, where a text saying it is new says the other place is no more.
_CHANGING = {"home": says_changed, "employer": lambda text: says_changed(text) or bool(_LEFT_WORK.search(text))}


def _places(text):
    """``{slot: (places, sure)}`` for where ``text`` says someone lives ("home"), comes from ("hometown") and
    works ("employer"): the things named after the verb, to the end of its clause. One works for a company, a
    city is where ("làm việc ở Hà Nội"), and one called by an honorific is whom ("làm trợ lý cho anh Đạt")."""
    found = {}
    names = None
    readers = (
        (_MOVED_TO, "home", ONLY),
        (_LIVES, "home", USED),
        (_FROM, "hometown", MAIN),
        (_JOINED, "employer", ONLY),
        (_WORKS_AT, "employer", USED),
    )
    for pattern, slot, sure in readers:
        match = pattern.search(text)
        if match is None or slot in found:
            continue
        rest = text[match.end() :]
        if slot == "employer" and rest.lstrip().lower().startswith(_HONORIFIC_AFTER):
            continue
        end = _PLACE_ENDS.search(rest)
        rest = re.sub(r"\W", "", fold(rest[: end.start()] if end else rest).lower())
        if names is None:
            names = _named(text)
        places = frozenset(name for name in names if name in rest and not (slot == "employer" and name in _CITIES))
        if places:
            found[slot] = (places, ONLY if slot in _CHANGING and _CHANGING[slot](text) else sure)
    return found


def _marked(words):
    """The slots ``words`` (lower-case) mark as the one, with where their word stands."""
    found = []
    for index in range(len(words)):
        for size in range(min(_LONGEST, len(words) - index), 0, -1):
            slot = _SLOT_WORDS.get(tuple(words[index : index + size]))
            if slot is None:
                continue
            before = [word for word in words[max(0, index - 3) : index] if word not in _BETWEEN]
            after = words[index + size : index + size + 2]
            if (before and before[-1] in _MARKS_SLOT_BEFORE) or (
                after and (after[0] in _MARKS_SLOT_AFTER or " ".join(after) in _MARKS_SLOT_AFTER)
            ):
                found.append(slot)
            break
    return found


def _tools(text):
    """``{kind: {tool}}``: the tools ``text`` names outside the clauses that deny them, in one word or two ("VS
    Code" is "vscode"), however they are written ("xài vim thôi")."""
    kinds = {}
    for clause in CLAUSE.split(_LEFT.sub(" ", _FOR_PROJECTS.sub(" ", text))):
        if not clause.strip() or _DENYING.search(clause):
            continue
        written = [fold(match.group()).lower() for match in _WORD.finditer(clause)]
        candidates = {*written, *(a + b for a, b in zip(written, written[1:]))}
        for word in candidates:
            for kind in states.TOOLS_OF.get(word, ()):
                kinds.setdefault(kind, set()).add(word)
    return kinds


def _named(text):
    """The things ``text`` names: its names (``names_in``), and its words with a capital inside ("iPhone",
    "macOS")."""
    names = frozenset(name for name in names_in(text) if name != people.OWNER)
    inner = {fold(word).lower() for word in _WORD.findall(text) if any(letter.isupper() for letter in word[1:])}
    return names | {word for word in inner if not any(word in name for name in names)}


def _whose(text, things):
    """Whom ``text`` is about (``people.about``), not counting a thing it names as someone ("Neovim is the user's
    main editor", "VS Code is …"), or None when it names no one else ("Neovim is the main editor"). A
    capitalised word whose something is, first, names someone, even one a dictionary knows ("Lan's main
    laptop")."""
    whose = _WHOSE_FIRST.match(text)
    if whose and whose.group(1)[0].isupper():
        first = people.about(whose.group(0))
        if first is None or first[0] == "name":
            return "name", fold(whose.group(1)).lower()
    words = {fold(word).lower() for word in _WORD.findall(text)}
    besides = {word for word in words if word in states.TOOLS_OF or any(word in thing for thing in things)}
    return people.about(text, besides)


@functools.lru_cache(maxsize=4096)
def slot(text, negated=None):
    """The ``Slot`` of ``text``, or None when it puts nothing in a slot. ``negated``: whether ``text`` is a
    denial, when the caller has read it (``meaning``). A tool named by another of its names is the one it is
    known by (``states.one_name``: "nvim" is Neovim)."""
    text = states.one_name(text)
    if not _MAY_FILL.search(fold(text).lower()):
        return None
    tools = _tools(text)
    # A denial puts nothing in a slot but by the tools its other clauses name ("User no longer lives in
    # Hanoi", "User has no main bank"); nor does what was so once only ("Từ 2012 đến 2016 chị Diệp từng làm
    # trình dược viên cho công ty Hoàng Nguyên").
    if (is_denial(text) if negated is None else negated) or PAST.search(text):
        marked, places = [], {}
    else:
        marked, places = _marked([match.group().lower() for match in _WORD.finditer(text)]), _places(text)
    if not marked and not tools and not places:
        return None
    things = {kind: frozenset(found) for kind, found in tools.items()}
    if marked:
        sides = _HOLDS.split(text, maxsplit=1)
        if len(sides) == 2:
            slot_side = next(
                (side for side in sides if _marked([w.group().lower() for w in _WORD.finditer(side)])), None
            )
            thing_side = sides[1] if slot_side is sides[0] else sides[0]
            named = _named(thing_side)
            if slot_side is not None and named:
                for found in marked:
                    things[found] = things.get(found, frozenset()) | named
    if (SAYS_ONLY.search(text) and not _ONLY_WHEN.search(text)) or _ALL.search(text) or says_changed(text):
        level = ONLY
    else:
        level = MAIN if marked or _MAIN.search(text) else USED
    sure = dict.fromkeys(things, level)
    for kind, (found, place_sure) in places.items():
        things[kind], sure[kind] = found, place_sure
    if not things:
        return None
    return Slot(text, things, sure)


def otherwise(a, b, texts_naming):
    """Two ``Slot``s put different things in one slot of one person (``people.same_person``;
    ``texts_naming(name)``: the owner's memories naming someone), and say so surely enough: one that its thing
    is the only one, or both that it is the main one ("User's main editor is Neovim" / "User uses VS Code for
    notebooks" may both be true). A slot that one fills with something the other also names is not
    otherwise."""
    for kind in a.things.keys() & b.things.keys():
        surely = max(a.sure[kind], b.sure[kind]) >= ONLY or min(a.sure[kind], b.sure[kind]) >= MAIN
        if surely and a.things[kind] and b.things[kind] and not a.things[kind] & b.things[kind]:
            return people.same_person(_who(a, texts_naming), _who(b, texts_naming), texts_naming)
    return False


def same(a, b, texts_naming):
    """Two ``Slot``s put the same things in the same slots of one person, as surely (both at least the main
    one, or, for a place, alike; a tool merely used is only part of what a memory says): "The user carries a
    single phone, an iPhone 15" / "User's only phone is an iPhone 15", "Tháng 10 Vy đã chuyển vào Sài Gòn
    sống" / "Vy relocated to Saigon in October and lives there now". A place both name is the same place
    ("User lives in Saigon, District 3" / "Anh Khoa đang sống ở quận 3, Sài Gòn")."""
    if a.things.keys() != b.things.keys():
        return False
    for kind, things in a.things.items():
        if not things & b.things[kind] or (kind not in _PLACE_SLOTS and things != b.things[kind]):
            return False
        # A tool used is only part of what a memory says ("User prefers 4-space indentation in Python").
        if min(a.sure[kind], b.sure[kind]) < (USED if kind in _PLACE_SLOTS else MAIN):
            return False
        if a.sure[kind] != b.sure[kind] and min(a.sure[kind], b.sure[kind]) < MAIN:
            return False
    # Whom else they speak of must agree: "Anna is the owner's sister and lives in Sài Gòn" is not "Anna là bạn
    # thân của chủ nhân, sống ở Sài Gòn" (a friend).
    if people.relations_in(a.text) != people.relations_in(b.text):
        return False
    return people.same_person(_who(a, texts_naming), _who(b, texts_naming), texts_naming)


def _who(found, texts_naming):
    """Whose a ``Slot`` is (``people.owner_or_first`` when it mentions no one)."""
    return found.whose or people.owner_or_first(found.first, texts_naming)


def whose(text, texts_naming):
    """Whom ``text`` is about, as a ``Slot`` of it would be: a capitalised first word whose something is names
    someone ("Lan's birthday"), even one a dictionary knows; else ``people.about``, or the one its first word
    names where the owner's memories say who, else the owner. ``texts_naming(name)``: the owner's memories
    naming someone."""
    return _whose(text, frozenset()) or people.owner_or_first(people.first_word(text), texts_naming)


# slot -> what a memory filling it holds, as ``search.matching_any`` takes its words: the tools of its kind
# and the words naming it.
_HELD_BY = {}
for _tool, _kinds in states.TOOLS_OF.items():
    for _kind in _kinds:
        _HELD_BY.setdefault(_kind, set()).add(_SPELT_APART.get(_tool, (_tool,)))
for _words, _slot in _SLOT_WORDS.items():
    _HELD_BY.setdefault(_slot, set()).add(_words)
# A place is no tool: a memory saying where someone lives, or comes from, holds a word saying so.
_HELD_BY["home"] = {(word,) for word in _LIVE_WORDS}
_HELD_BY["hometown"] = {(word,) for word in _FROM_WORDS}
_HELD_BY["employer"] = {(word,) for word in _WORK_WORDS}


def phrases(found):
    """What a memory putting something in one of the slots of ``found`` (a ``Slot``) holds, as
    ``search.matching_any`` takes it: the tools of its kinds, and the words naming its slots."""
    wanted = set().union(*(_HELD_BY.get(kind, ()) for kind in found.things))
    return [(words, False) for words in sorted(wanted)]
