"""What some words say beyond themselves, for contradictions: the kind of thing a word names (a cat is a
pet, beer is alcohol, badminton is exercise), and the states that rule things out (a vegetarian eats no
meat, a single person has no wife).

A denial of a kind denies each thing of it: "User has no pets" / "User has a cat named Mochi", "Anh Khoa
không uống rượu bia" / "Khoa drinks beer every Friday". A state and a thing it rules out, said of the same
person, cannot both hold: "User is vegetarian" / "User eats beef phở every week", "User is single" / "Lan
is the user's wife"; "User has no food allergies" / "User is allergic to peanuts".

The words are ``memories.language.meaning``'s content words: folded, singular, Vietnamese ones mostly read
into English first (``meaning._VIETNAMESE``: "thú cưng" is "pet", "ăn chay" "vegetarian"). A few common
kinds only, where a personal assistant's memories often disagree; anything else is left to the words.
"""

import functools
import re

# Words naming someone by who they are to another: "the user's wife" is not the user.
PEOPLE = frozenset(
    (
        "wife husband spouse son daughter child children kid mother mom mum father dad parent brother sister sibling"
        " grandmother grandma grandfather grandpa grandparent uncle aunt cousin nephew niece friend girlfriend"
        " boyfriend partner fiance fiancee colleague coworker boss manager neighbour neighbor baby teacher student"
        " classmate roommate landlord"
    ).split()
)

# English words for one relation, any of which may stand for another: "Mom" is "mother", "kids" are
# "children" (word -> the first of its words). "manager" is left out: a package manager is nobody's boss.
SAME_RELATION = {
    word: words.split()[0]
    for words in (
        "mother mom mum mommy mummy mama",
        "father dad daddy papa",
        "boss supervisor",
        "children kids kid child",
        "colleague coworker teammate",
        "grandmother grandma granny",
        "grandfather grandpa",
    )
    for word in words.split()
}

# word -> the kinds of thing it names
KINDS_OF = {
    **dict.fromkeys("cat dog puppy kitten corgi poodle husky hamster rabbit parrot".split(), {"pet"}),
    **dict.fromkeys("beef pork chicken duck lamb bacon ham steak sausage".split(), {"meat"}),
    **dict.fromkeys("beer wine whisky whiskey vodka soju cocktail".split(), {"alcohol"}),
    # Coffee as it is ordered: "has an oat latte every morning" is drinking coffee.
    **dict.fromkeys("latte cappuccino espresso americano macchiato mocha frappuccino".split(), {"coffee"}),
    **dict.fromkeys("gym yoga jogging running swimming badminton tennis football pilate".split(), {"exercise"}),
    **dict.fromkeys("wife husband spouse".split(), {"partner", "married"}),
    **dict.fromkeys("girlfriend boyfriend fiance fiancee".split(), {"partner"}),
    # A son or a daughter is a child: "User has no kids" / "User has a 2-year-old daughter".
    **dict.fromkeys("son daughter".split(), {"children"}),
    # What people are allergic to.
    **dict.fromkeys(
        "peanut nut shrimp prawn crab shellfish seafood fish egg milk dairy gluten wheat soy sesame".split(), {"food"}
    ),
    **dict.fromkeys("penicillin amoxicillin aspirin ibuprofen paracetamol antibiotic sulfa".split(), {"drug"}),
    # Where one works: working remotely rules out going to an office every day.
    "office": {"office"},
    # Having a job, which being retired rules out.
    **dict.fromkeys("work job employed".split(), {"job"}),
    **dict.fromkeys(
        "laptop phone smartphone tablet ipad monitor computer desktop pc headphone earphone camera printer keyboard"
        " television tv".split(),
        {"device"},
    ),
}

# Folded Vietnamese words and phrases for the kinds, things and states above, read in a Vietnamese text only
# (``meaning``), in this order; words the accents tell apart ("bò", "chó") are read before folding there.
VIETNAMESE = {
    "con meo": "cat",
    "meo": "cat",
    "thu cung": "pet",
    "an chay thuan": "vegan",
    "chay thuan": "vegan",
    "an chay truong": "vegetarian",
    "chay truong": "vegetarian",
    "an chay": "vegetarian",
    "thuan chay": "vegan",
    "doc than": "single",
    "ly hon": "divorced",
    "ly di": "divorced",
    "ket hon": "married",
    "lap gia dinh": "married",
    "co gia dinh": "married",
    "ban gai": "girlfriend",
    "ban trai": "boyfriend",
    "nguoi yeu": "partner",
    "ruou bia": "alcohol",
    "bia ruou": "alcohol",
    "ruou": "alcohol",
    "the duc": "exercise",
    "thuc pham": "food",
    "do an": "food",
    "thuc an": "food",
    "hai san": "seafood",
    "dau phong": "peanut",
    "khang sinh": "antibiotic",
    "heo": "pork",
    "lam viec tu xa": "remote",
    "lam tu xa": "remote",
    "lam viec tai nha": "remote",
    "lam viec o nha": "remote",
    "van phong": "office",
    "may tinh xach tay": "laptop",
    "may tinh bang": "tablet",
    "may tinh": "computer",
    "dien thoai": "phone",
    "man hinh": "monitor",
    "tai nghe": "headphone",
    "may anh": "camera",
    "may in": "printer",
    "ban phim": "keyboard",
}

# Kinds that are someone's relation to another: the owner is whose they are ("the user's wife").
PARTNERS = frozenset({"partner", "married"})
# state -> the kinds it rules out for the same person
RULES_OUT = {
    "vegetarian": frozenset({"meat"}),
    "vegan": frozenset({"meat"}),
    "teetotal": frozenset({"alcohol"}),
    "single": frozenset({"partner", "married"}),
    "divorced": frozenset({"married"}),
    "remote": frozenset({"office"}),
    "retired": frozenset({"job"}),
}


def words_of(kinds):
    """The words naming a thing of one of ``kinds``: {"partner"} -> {"wife", "husband", …}."""
    return frozenset(word for word, named in KINDS_OF.items() if named & kinds)


def with_kinds(content):
    """``content`` and the kinds of the things it names: {"cat", "mochi"} -> {"cat", "mochi", "pet"}."""
    kinds = kinds_of(content)
    return content | kinds if kinds else content


def states(content):
    """The words of ``content`` that state something ruling other things out."""
    return content & RULES_OUT.keys()


def kinds_ruled_out(content):
    """The kinds of thing the states in ``content`` rule out: {"vegetarian"} -> {"meat"}."""
    found = states(content)
    return frozenset().union(*(RULES_OUT[word] for word in found)) if found else frozenset()


def ruled_out(state_content, other_content):
    """The kinds named in ``other_content`` that a state in ``state_content`` rules out."""
    ruled = kinds_ruled_out(state_content)
    return ruled & with_kinds(other_content) if ruled else ruled


def kinds_of(content):
    """The kinds of the things ``content`` names: {"cat", "mochi"} -> {"pet"}."""
    return frozenset().union(*(KINDS_OF[word] for word in content if word in KINDS_OF))


def ruling_out(kinds):
    """The states that rule out one of ``kinds``: {"meat"} -> {"vegetarian", "vegan"}."""
    return frozenset(state for state, ruled in RULES_OUT.items() if ruled & kinds)


KINDS = frozenset().union(*KINDS_OF.values())
# The words naming a thing of a kind, but people (``other_things``).
_THINGS = frozenset(KINDS_OF) - PEOPLE


def other_things(content_a, content_b):
    """Each of two contents names a thing of a kind (``KINDS_OF``; people aside) that the other does not: a cat
    and a dog, a laptop and a phone. What one names in its place, or the value one gives, is not the other's
    said otherwise: "User has a dog named Lu" / "User has a cat named Mochi", "Budget for the new phone is 10
    million" / "Budget for the new laptop is 15 million"."""
    things_a, things_b = content_a & _THINGS, content_b & _THINGS
    return bool(things_a - things_b) and bool(things_b - things_a)


# word -> the kind of tool it names: one is used at a time for a purpose, so two of a kind are no "other
# things" (``other_things``): "User uses VS Code now" / "Neovim is the main editor" say otherwise. Words
# with another everyday sense ("go", "edge", "fish", "poetry", "composer", "ruby", "swift") are left out.
TOOLS_OF = {
    **dict.fromkeys(
        "npm pnpm yarn pip pipenv pipx uv conda bundler gradle homebrew nuget".split(),
        {"package manager"},
    ),
    **dict.fromkeys(
        "vim neovim nvim emacs vscode vscodium sublime intellij pycharm webstorm goland rider clion xcode".split(),
        {"editor"},
    ),
    **dict.fromkeys("chrome chromium firefox safari vivaldi".split(), {"browser"}),
    **dict.fromkeys("bash zsh powershell tmux".split(), {"shell"}),
    **dict.fromkeys("linux ubuntu debian fedora windows macos".split(), {"os"}),
    **dict.fromkeys(
        "python javascript typescript golang rust java kotlin php elixir haskell scala".split(),
        {"programming language"},
    ),
    **dict.fromkeys("obsidian notion evernote onenote logseq joplin".split(), {"notes app"}),
    **dict.fromkeys("figma sketch penpot".split(), {"design tool"}),
    # Redis is as often a project's cache or queue, beside its database.
    **dict.fromkeys("postgres postgresql mysql mariadb sqlite mongodb".split(), {"database"}),
}

# The other names one thing goes by (lower case; a name is no part of a dotted one, "node.js"), each read as
# the one it is known by here: "Postgres" is PostgreSQL, "Mongo" MongoDB, "k8s" Kubernetes, "Visual Studio
# Code" VS Code, "HCMC" and "Ho Chi Minh City" Saigon, "TP.HCM" Sài Gòn; and "Go" inside a sentence is the
# language Golang (not "go" the verb). Two memories naming one thing by two of its names say the same of it:
# "User uses Postgres" / "User uses PostgreSQL" is one fact, not two databases in one slot.
OTHER_NAMES = {
    "PostgreSQL": ("postgres",),
    "MongoDB": ("mongo",),
    "Kubernetes": ("k8s",),
    "VS Code": ("visual studio code",),
    "Neovim": ("nvim",),
    "Golang": ("golang",),
    "JavaScript": ("js",),
    "Saigon": ("ho chi minh city", "hcm city", "hcmc"),
    "Sài Gòn": ("thành phố hồ chí minh", "tp hồ chí minh", "tp. hồ chí minh", "tp.hcm", "tp hcm", "tphcm"),
}
_WRITTEN_ALSO = {"Golang": r"(?<=[a-z,] )Go(?! [a-z]+ing\b)"}
_OTHER_NAME = re.compile(
    "|".join(
        rf"(?<![\w.])(?P<name{index}>(?i:{'|'.join(map(re.escape, others))})"
        + (f"|{_WRITTEN_ALSO[name]}" if name in _WRITTEN_ALSO else "")
        + r")(?!\w|\.\w)"
        for index, (name, others) in enumerate(OTHER_NAMES.items())
    )
)
_NAMES = list(OTHER_NAMES)


# A text starting with someone's name and then who they are, between commas: "Mai, the user's daughter, is 10",
# "Chị Trang, vợ người dùng, thích trà xanh". Who they are is a relation of the owner's ("the user's daughter",
# "vợ (của) người dùng"); the name may follow an honorific.
_HONORIFICS_WRITTEN = ("anh", "chị", "em", "bé", "cô", "chú", "bác", "ông", "bà")
_RELATIONS_VIETNAMESE = (
    "vợ|chồng|con gái|con trai|con|mẹ|má|bố|ba|cha|anh trai|chị gái|em gái|em trai|anh|chị|em|bạn thân|bạn|sếp"
    "|đồng nghiệp|cháu|cô|chú|bác|dì|cậu|ông|bà|mẹ vợ|bố vợ|mẹ chồng|bố chồng|chị dâu|em dâu|anh rể|em rể"
)
_APPOSITIVE = re.compile(
    rf"^((?:(?i:{'|'.join(_HONORIFICS_WRITTEN)}) )?[A-ZĐ][\w-]*), "
    rf"((?i:(?:the )?(?:user|owner)['’]s (?:\w+ )?(?:{'|'.join(sorted(PEOPLE, key=len, reverse=True))})"
    rf"|(?:{_RELATIONS_VIETNAMESE}) (?:của )?người dùng)), "
)


def _who_first(match):
    """The name and who they are of an ``_APPOSITIVE`` the other way round, an honorific in lower case."""
    name, who = match.groups()
    first, _, rest = name.partition(" ")
    if rest and first.lower() in _HONORIFICS_WRITTEN:
        name = f"{first.lower()} {rest}"
    return f"{who[0].upper()}{who[1:]} {name} "


@functools.lru_cache(maxsize=65_536)
def one_name(text):
    """``text`` with each thing it names by another of its names (``OTHER_NAMES``) named by the one it is known
    by here: "Uses Postgres on k8s" is "Uses PostgreSQL on Kubernetes". A text typed all in lower case stays
    so (it shows no names). Someone named and then said who they are is read with who they are first, as most
    memories put it: "Mai, the user's daughter, is 10" is "The user's daughter Mai is 10", "Chị Trang, vợ người
    dùng, thích trà xanh" "Vợ người dùng chị Trang thích trà xanh"."""
    if "," in text:
        text = _APPOSITIVE.sub(_who_first, text, count=1)
    if not _OTHER_NAME.search(text):
        return text
    lower = text == text.lower()

    def name(match):
        found = _NAMES[int(match.lastgroup.removeprefix("name"))]
        return found.lower() if lower else found

    return _OTHER_NAME.sub(name, text)


def _other_words():
    """Each name of one word (folded) -> the thing's other names of one word: what a search for one finds too."""
    found = {}
    for name, others in OTHER_NAMES.items():
        single = {word for word in (name.lower(), *others) if word.isalnum()}
        found.update({word: frozenset(single - {word}) for word in single if len(single) > 1})
    return found


_OTHER_WORDS = _other_words()


def other_names(word):
    """The thing's other names of one word that a folded ``word`` names (``OTHER_NAMES``): "k8s" ->
    {"kubernetes"}; empty for any other word."""
    return _OTHER_WORDS.get(word, frozenset())


# Languages people speak and are answered in.
LANGUAGES = frozenset(
    "english vietnamese japanese chinese korean french german spanish italian russian thai portuguese".split()
)

# Things a question asks for by their kind that no contradiction reads (unlike ``KINDS_OF``: being a teacher
# and an engineer is no conflict for the words to find): what one does for a living, the computer one uses,
# what carries one about, the money one earns and the bank one keeps it in, an illness one has ("is my dad
# sick?": "Bố của người dùng bị tiểu đường"); "work" and "job" are ``KINDS_OF``'s. Not the callings one more
# often has than is ("the user's doctor", "dentist", "lawyer", "tutor").
ASKED_KINDS_OF = {
    **dict.fromkeys(
        "engineer developer programmer accountant accounting teacher lecturer professor nurse pharmacist designer"
        " architect analyst scientist researcher consultant journalist writer chef waiter barista pilot farmer"
        " electrician plumber photographer translator freelancer entrepreneur founder employee secretary"
        " salesperson cashier".split(),
        {"job"},
    ),
    **dict.fromkeys("computer laptop desktop pc macbook thinkpad imac chromebook workstation".split(), {"computer"}),
    **dict.fromkeys("car motorbike motorcycle scooter bike bicycle".split(), {"vehicle"}),
    **dict.fromkeys("salary income wage earn earning paycheck".split(), {"income"}),
    **dict.fromkeys(
        "vietcombank techcombank vpbank bidv agribank vietinbank acb sacombank mbbank tpbank vib hsbc citibank"
        " shinhan".split(),
        {"bank"},
    ),
    **dict.fromkeys(
        "diabetes diabetic cancer asthma hypertension flu covid migraine arthritis gout hepatitis".split(),
        {"illness"},
    ),
}

# What a question may call a kind, in folded singular words: "which package manager …?", "do I have pets?",
# "what language …?" (one people speak; a programming language is named so).
# "food" (what people are allergic to) and "office" are not asked about by their kind.
KIND_NAMES = {
    **{(kind,): kind for kind in ("pet", "meat", "alcohol", "exercise", "partner", "drug", "device")},
    ("sport",): "exercise",
    ("workout",): "exercise",
    ("medicine",): "drug",
    ("medication",): "drug",
    ("gadget",): "device",
    ("married",): "married",
    ("spouse",): "married",
    ("package", "manager"): "package manager",
    ("editor",): "editor",
    ("ide",): "editor",
    ("browser",): "browser",
    ("web", "browser"): "browser",
    ("shell",): "shell",
    ("os",): "os",
    ("operating", "system"): "os",
    ("programming", "language"): "programming language",
    ("database",): "database",
    ("language",): "language",
    ("note", "app"): "notes app",
    ("design", "tool"): "design tool",
    ("work", "out"): "exercise",
    ("job",): "job",
    ("occupation",): "job",
    ("profession",): "job",
    ("career",): "job",
    ("computer",): "computer",
    ("vehicle",): "vehicle",
    ("ride",): "vehicle",
    ("income",): "income",
    ("salary",): "income",
    ("wage",): "income",
    ("earn",): "income",
    ("bank",): "bank",
    ("sick",): "illness",
    ("ill",): "illness",
    ("illness",): "illness",
    ("disease",): "illness",
}


# kind -> the words naming a thing of it: the things above, the tools and the languages; and the states
# ruling it out, which answer a question about it as well ("do I eat meat?": "User is vegetarian").
_THINGS_OF_KIND = {
    kind: frozenset(
        word
        for table in (KINDS_OF, ASKED_KINDS_OF, TOOLS_OF, dict.fromkeys(LANGUAGES, {"language"}))
        for word, kinds in table.items()
        if kind in kinds
    )
    | frozenset(state for state, ruled in RULES_OUT.items() if kind in ruled)
    for kind in set(KIND_NAMES.values())
}


def things_of_kind(name):
    """The words naming a thing of the kind ``name`` (folded singular words, a tuple) calls, or nothing:
    ("pet",) -> {"cat", "dog", …}; ("package", "manager") -> {"npm", "pnpm", …}."""
    return _THINGS_OF_KIND.get(KIND_NAMES.get(name), frozenset())
