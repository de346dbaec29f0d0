"""Who a memory is about, and who a question asks about: the owner, someone by who they are to the owner
(a wife, a mother, a boss), or someone by name. "What is my blood type?" is not answered by "Thảo có nhóm máu
A+" when another memory says "Vợ tôi là Thảo", nor "Vợ dậy lúc mấy giờ?" by "Ngày thường tôi dậy lúc 5h15".

A relation is one of a few ``RELATIONS``, each a set of the people it may be: "parents" are the mother and
the father, "kids" the sons and the daughters, so "my parents" agree with "Mom's birthday". Names are read
as relations where one of the owner's memories says who they are ("Vợ tôi là Thảo", "My manager is Priya",
"Lan is the user's wife", "Chị Lan, vợ Minh, …": ``relations_of_names``); a name no memory places is nobody
in particular, and two names are never told apart, nor is anyone in a question asking who.
"""

import functools
import itertools
import re
import unicodedata

from memories.language import states
from memories.language.folding import fold
from memories.language.meaning import WRITTEN_HONORIFICS
from memories.language.translation import (
    is_known_word,
    names_someone,
    owner_named,
    speaks_of_owner,
)
from memories.language.words import VIETNAMESE, language_of

OWNER = "owner"
# A memory says whom it is about first: "On office days Linh brings…", "Sinh nhật Hà là…".
FIRST_WORDS = 12
# The mentions of a question that are read (``asked_about``).
MOST_ASKED = 8

# relation -> the people it may be
_PEOPLE = {
    "partner": {"partner"},
    "mother": {"mother"},
    "father": {"father"},
    "parents": {"mother", "father"},
    "son": {"son"},
    "daughter": {"daughter"},
    "children": {"son", "daughter"},
    "brother": {"brother"},
    "sister": {"sister"},
    "siblings": {"brother", "sister"},
    "grandmother": {"grandmother"},
    "grandfather": {"grandfather"},
    "grandparents": {"grandmother", "grandfather"},
    "in-law": {"in-law"},
    "boss": {"boss"},
    "colleague": {"colleague"},
    "friend": {"friend"},
}

# The relations one person has: a name known to be one is the only one.
_ONE_PERSON = frozenset({"partner", "mother", "father"})

# The words of each relation, lower-case as written (English, and Vietnamese with its diacritics).
RELATIONS = {
    **dict.fromkeys(
        "wife husband spouse partner girlfriend boyfriend fiance fiancee fiancé fiancée vợ chồng"
        " bạn_gái bạn_trai người_yêu bà_xã ông_xã vợ_chồng".split(),
        "partner",
    ),
    **dict.fromkeys("mother mom mum mommy mummy mama mẹ má".split(), "mother"),
    **dict.fromkeys("father dad daddy papa bố ba cha tía".split(), "father"),
    **dict.fromkeys("parents bố_mẹ ba_mẹ cha_mẹ ba_má".split(), "parents"),
    **dict.fromkeys("son con_trai".split(), "son"),
    **dict.fromkeys("daughter con_gái".split(), "daughter"),
    **dict.fromkeys(
        "kids kid children child các_con con_cái bọn_nhỏ bọn_trẻ lũ_trẻ lũ_nhỏ hai_đứa_nhỏ hai_con".split(),
        "children",
    ),
    **dict.fromkeys("brother anh_trai em_trai".split(), "brother"),
    **dict.fromkeys("sister chị_gái em_gái".split(), "sister"),
    **dict.fromkeys("siblings sibling anh_chị_em".split(), "siblings"),
    **dict.fromkeys("grandmother grandma granny bà_nội bà_ngoại".split(), "grandmother"),
    **dict.fromkeys("grandfather grandpa ông_nội ông_ngoại".split(), "grandfather"),
    **dict.fromkeys("grandparents ông_bà".split(), "grandparents"),
    **dict.fromkeys(
        "mẹ_chồng mẹ_vợ bố_chồng bố_vợ ba_vợ ba_chồng anh_vợ em_vợ chị_vợ anh_chồng em_chồng chị_chồng"
        " chị_dâu em_dâu anh_rể em_rể bố_mẹ_vợ bố_mẹ_chồng ba_mẹ_vợ".split(),
        "in-law",
    ),
    **dict.fromkeys("boss manager supervisor sếp".split(), "boss"),
    **dict.fromkeys("colleague colleagues coworker coworkers teammate teammates đồng_nghiệp".split(), "colleague"),
    **dict.fromkeys("friend friends bạn_thân".split(), "friend"),
}


def other_words_for(word):
    """The other English words for the relation ``word`` (folded, lower-case) names
    (``states.SAME_RELATION``): "mom" -> {"mother", "mum", …}; empty for any other word."""
    relation = states.SAME_RELATION.get(word)
    return frozenset(other for other, its in states.SAME_RELATION.items() if its == relation and other != word)


# Words naming a relation only after a word saying whose: a manager is one's boss ("my manager", "Lan's
# manager"), not a package or password manager.
ONLY_AFTER_WHOSE = frozenset({"manager"})
# The words saying whose, as the full-text index splits them ("Lan's" is "lan", "s").
WHOSE_INDEXED = frozenset({"my", "our", "his", "her", "their", "s"})


def relation_named(*words):
    """The relation ``words`` (lower-case, as typed or folded) name together ("brother", "vợ", "sep"; "anh",
    "trai"), or None."""
    return _BY_WORDS.get(words) or _BY_FOLDED.get(tuple(fold(word) for word in words))


def words_for(relation):
    """The words naming ``relation``, each as its folded words, to look them up in the full-text index:
    ("brother",), ("anh", "trai"), …; not a syllable that folded is mostly another word
    (``MOSTLY_ANOTHER_WORD``: "bố" is "bo", as "bò" is)."""
    return [
        words
        for word, its in RELATIONS.items()
        if its == relation
        and (words := tuple(fold(word).split("_"))) not in {(other,) for other in MOSTLY_ANOTHER_WORD}
    ]


def words_after_whose_for(word):
    """The words naming the relation ``word`` (lower-case, as typed) names only after a word saying whose
    (``ONLY_AFTER_WHOSE``): "boss" -> {"manager"}; empty for any other word."""
    relation = relation_named(word)
    if not relation:
        return frozenset()
    return frozenset(other for other in ONLY_AFTER_WHOSE if RELATIONS[other] == relation and other != word)


_BY_WORDS = {tuple(words.split("_")): relation for words, relation in RELATIONS.items()}
# Typed without diacritics, a relation is looked up folded, but for syllables that are mostly another word
# there ("ba", three; "bo", beef; "ma", a ghost; "cha" beside "chả").
MOSTLY_ANOTHER_WORD = frozenset({"ba", "bo", "ma", "cha"})
_BY_FOLDED = {
    tuple(fold(word) for word in words): relation
    for words, relation in _BY_WORDS.items()
    if fold(" ".join(words)) not in MOSTLY_ANOTHER_WORD
}
_LONGEST = max(len(words) for words in _BY_WORDS)
_FIRST_WORDS = frozenset(words[0] for words in [*_BY_WORDS, *_BY_FOLDED])
_FOLDED_FIRST_WORDS = _FIRST_WORDS - {words[0] for words in _BY_WORDS}
# A text naming no relation places no one: most are passed over with one search.
_ANY_RELATION = re.compile(
    r"(?<!\w)(?:" + "|".join(sorted(map(re.escape, _FIRST_WORDS), key=len, reverse=True)) + r")(?!\w)",
    re.IGNORECASE,
)

# The owner, as a question or a memory says it.
_OWNER_WORDS = frozenset("i me my mine myself we our ours us user owner tôi mình tớ".split())
_OWNER_PHRASES = {("người", "dùng"), ("chủ", "nhân"), ("chúng", "tôi")}
_FOLDED_OWNER_WORDS = frozenset({"toi", "minh"})
# Who someone is to whom: the words between a relation and its name ("My wife is Thảo", "Vợ của tôi tên là
# Thảo"), and the titles before a name ("anh Khoa", "Dr. Hạnh").
_LINKS = frozenset("is là tên named called , :".split())
_WHOSE = frozenset("the my our user owner của tôi mình người dùng 's older younger elder little big".split())
_TITLES = WRITTEN_HONORIFICS
# The owner's words that say whose: "My wife", "our parents".
_POSSESSIVE_OWNER = frozenset("my our".split())
# Someone named after these is with the one asked about, not asked about: "Mình chơi tennis với Phúc".
_WITH = frozenset("with với cùng".split())
# Days and months are written with a capital, and are nobody: "February", "thứ Bảy".
_CALENDAR = frozenset(
    "january february march april may june july august september october november december monday tuesday"
    " wednesday thursday friday saturday sunday".split()
)
# Names that are no one's: a language people speak, a tool ("replies in English", "moved to PostgreSQL").
_NO_ONE = states.LANGUAGES | frozenset(states.TOOLS_OF) | frozenset(name.lower() for name in states.OTHER_NAMES)
_DAY_OR_MONTH = frozenset({"thứ", "tháng", "chủ"})
_FOLDED_DAY_OR_MONTH = frozenset(fold(word) for word in _DAY_OR_MONTH)
# A question asking who is answered by whoever it is.
_ASKING_WHO = frozenset("who whom whose ai".split())

_TOKEN = re.compile(r"([^\W\d_]+)(['’]s)?|([,:;.!?])")


class _Text:
    """A text as ``_mentions`` reads it: its words and marks, whether it has diacritics, and its language,
    worked out when first asked for (most texts never need it)."""

    def __init__(self, text, most=None):
        self.text = unicodedata.normalize("NFC", text)
        self.marked = fold(self.text) != self.text.lower()
        self.tokens = []
        first = True
        for match in itertools.islice(_TOKEN.finditer(self.text), most):
            word, possessive, mark = match.groups()
            self.tokens.append(_Token(self, word or mark, bool(possessive), bool(mark), first and not mark))
            first = mark in ".!?;:" if mark else False

    @functools.cached_property
    def english(self):
        return language_of(self.text) != VIETNAMESE


class _Token:
    __slots__ = ("text", "written", "lower", "key", "possessive", "mark", "first")

    def __init__(self, text, written, possessive, mark, first):
        self.text = text
        self.written = written
        self.lower = written.lower()
        self.key = self.lower if text.marked else fold(self.lower)
        self.possessive = possessive
        self.mark = mark
        self.first = first


def _relation_at(tokens, index):
    """``(relation, length)`` of the relation that starts at ``index``, the longest first, or None. A word
    typed without diacritics is looked up folded in a Vietnamese text only ("me" is "mẹ" there)."""
    key = tokens[index].key
    if key not in _FIRST_WORDS:
        return None
    read = tokens[index].text
    table = _BY_FOLDED if key in _FOLDED_FIRST_WORDS and not read.marked and not read.english else _BY_WORDS
    for size in range(min(_LONGEST, len(tokens) - index), 0, -1):
        words = tuple(token.key for token in tokens[index : index + size])
        if any(token.mark for token in tokens[index : index + size]):
            continue
        relation = table.get(words)
        if (
            len(words) == 1
            and words[0] in ONLY_AFTER_WHOSE
            and not (index and (tokens[index - 1].possessive or tokens[index - 1].lower in _WHOSE))
        ):
            relation = None
        # "mother-in-law" is no mother.
        if relation and not tokens[index + size - 1].possessive and _in_law(tokens, index + size):
            return "in-law", size + 2
        if relation:
            return relation, size
    return None


def _in_law(tokens, index):
    return [token.lower for token in tokens[index : index + 2]] == ["in", "law"]


def _is_name(tokens, index, placed=False):
    """A word with a capital that names someone: inside a sentence, or first when it is no word of the text's
    language ("Thảo rides…", not "Keep the tone…" nor "Trình duyệt tôi dùng…"), or wherever it stands when
    ``placed`` by the words around it ("Lan is the user's wife")."""
    token = tokens[index]
    if token.mark or not token.written[:1].isupper() or len(token.written) < 2:
        return False
    if token.lower in _OWNER_WORDS or token.lower in _TITLES or token.key in _CALENDAR or token.lower in _NO_ONE:
        return False
    if index and tokens[index - 1].key in (_DAY_OR_MONTH if token.text.marked else _FOLDED_DAY_OR_MONTH):
        return False  # "thứ Bảy", "tháng Năm"
    if fold(token.lower) == "chu" and index + 1 < len(tokens) and fold(tokens[index + 1].lower) == "nhat":
        return False  # "Chủ nhật", Sunday
    if placed or not token.first:
        return True
    return not is_known_word([other.lower for other in tokens[index : index + 4] if not other.mark], token.text.english)


def _owner_at(tokens, index):
    """The length of the owner's word at ``index`` ("tôi", "the user", "người dùng"), or 0."""
    token = tokens[index]
    if token.mark:
        return 0
    pair = tuple(token.lower for token in tokens[index : index + 2])
    if pair in _OWNER_PHRASES or tuple(fold(word) for word in pair) in {("nguoi", "dung"), ("chu", "nhan")}:
        return 2
    if token.written.isupper() and token.written != "I":
        return 0  # "US" is a country
    if token.lower in _OWNER_WORDS or (token.written.islower() and token.key in _FOLDED_OWNER_WORDS):
        return 1
    return 0


def _mentions(read):
    """Each mention of someone in ``read`` (a ``_Text``), in order: ``(kind, value, index, length)`` with kind
    "relation", "owner" or "name"."""
    tokens = read.tokens
    index = 0
    while index < len(tokens):
        relation = _relation_at(tokens, index)
        if relation:
            yield "relation", relation[0], index, relation[1]
            index += relation[1]
            continue
        owner = _owner_at(tokens, index)
        if owner:
            yield "owner", OWNER, index, owner
            index += owner
            continue
        if _is_name(tokens, index):
            yield "name", fold(tokens[index].lower), index, 1
        index += 1


def about(text, besides=frozenset()):
    """Who ``text`` (a memory) is about: the first one it mentions, and for one's relation ("Thảo's older
    brother", "User's wife") the relation: ``("owner", OWNER)``, ``("relation", "partner")``, ``("name",
    "thao")``, or None when it mentions no one in its first ``FIRST_WORDS`` words and marks. Names in
    ``besides`` (folded) name no one: things a caller knows the text names ("Neovim is the user's …")."""
    read = _Text(text, FIRST_WORDS)
    mentions = (mention for mention in _mentions(read) if not (mention[0] == "name" and mention[1] in besides))
    first = next(mentions, None)
    if first is None:
        return None
    kind, value, index, length = first
    last = read.tokens[index + length - 1]
    if kind != "relation" and (last.possessive or last.lower in _POSSESSIVE_OWNER):
        following = next(mentions, None)
        if following and following[0] == "relation" and following[2] <= index + length + 2:
            return "relation", following[1]
    return kind, value


def asked_about(query):
    """Whom ``query`` speaks of: the mentions ``{(kind, value)}`` of the owner, relations and names in it
    ("What is my blood type?": the owner; "What's my wife's blood type?": the owner and a partner), but
    for one named as company ("with Phúc"); the first ``MOST_ASKED`` of them (a question names a few
    people, a pasted list is no question about each). None for a question asking who, or naming no one."""
    read = _Text(query)
    tokens, found = read.tokens, list(itertools.islice(_mentions(read), MOST_ASKED))
    if any(token.key in _ASKING_WHO for token in tokens):
        return None
    people = frozenset(
        (kind, value) for kind, value, index, _ in found if not (index and tokens[index - 1].key in _WITH)
    )
    return people or None


def relations_of_names(texts):
    """``{name (folded): relation}`` for the names ``texts`` (an owner's memories) say who they are to the
    owner: "Vợ tôi là Thảo", "My manager is Priya Raman", "Lan is the user's wife", "Chị Lan, vợ Minh". A
    name given two relations is left out."""
    found = {}
    for text in texts:
        if not _ANY_RELATION.search(text):
            continue
        tokens = _Text(text).tokens
        index = 0
        while index < len(tokens):
            relation = _relation_at(tokens, index)
            if not relation:
                index += 1
                continue
            relation, length = relation
            for name in (*_named_after(tokens, index + length), *_named_before(tokens, index)):
                found.setdefault(name, set()).add(relation)
            index += length
    return {name: relations.pop() for name, relations in found.items() if len(relations) == 1}


def _named_after(tokens, index):
    """The name a relation ending at ``index`` is said to be: "wife is Thảo", "wife Thảo" (English), "vợ tôi là
    Thảo", "chồng Linh là anh Khoa"; not "Mẹ Linh" (Linh's mother)."""
    linked = False
    while index < len(tokens) and (tokens[index].lower in _WHOSE | _LINKS or tokens[index].possessive):
        linked = linked or tokens[index].lower in _LINKS
        index += 1
    if not linked:
        if index >= len(tokens) or not _is_name(tokens, index):
            return []
        if not tokens[index].text.english:
            # Vietnamese puts whose after the relation ("chồng Linh"): the name follows a link ("là anh Khoa").
            index += 1
            if index >= len(tokens) or tokens[index].lower not in _LINKS:
                return []
            linked = True
            index += 1
    while index < len(tokens) and tokens[index].lower in _TITLES:
        index += 1
    named = []
    while index < len(tokens) and _is_name(tokens, index, placed=linked):
        named.append(fold(tokens[index].lower))
        index += 1
    return named


def _named_before(tokens, index):
    """The name said to be the relation starting at ``index``: "Lan is the user's wife", "Chị Lan, vợ Minh",
    "Thảo là vợ tôi"."""
    index -= 1
    while index >= 0 and tokens[index].lower in _WHOSE and not tokens[index].mark:
        index -= 1
    if index < 0 or tokens[index].lower not in _LINKS:
        return []
    named = []
    index -= 1
    while index >= 0 and _is_name(tokens, index, placed=True):
        named.append(fold(tokens[index].lower))
        index -= 1
    return named


def _placed(person, names):
    """A person, a name read as the relation ``names`` gives it."""
    kind, value = person
    return ("relation", names[value]) if kind == "name" and value in names else person


def asks_about_someone(asked, names=None):
    """Whether a question about ``asked`` (``asked_about``) asks about someone retrieval can tell from
    another: the owner, or relations of theirs (names read as ``names``: ``relations_of_names``). Not a
    question naming only people no memory places, nor one naming someone but not the owner beside relations,
    which may be that someone's ("What is John teaching his siblings?")."""
    people = {_placed(person, names or {}) for person in asked or ()}
    if (OWNER, OWNER) in people:
        return True
    return any(kind == "relation" for kind, _ in people) and not any(kind == "name" for kind, _ in people)


def someone_else(asked, memory, names=None):
    """Whether a memory about ``memory`` (``about``) speaks of someone other than the one a question asks
    about (``asked``: ``asked_about``, when it ``asks_about_someone``): the relations it names, else the
    owner; names are read as the relations ``names`` gives them (``relations_of_names``). The owner and one of
    their relations are two people, and so are two relations that cannot be the same ("my parents" may be
    Mom). A name no memory places may be anyone, the owner called by name included, but not the one of a
    relation only one person has (a partner, the mother, the father) when another name is known to be them:
    with "Vợ tôi là Thảo", "Huy bị dị ứng đậu phộng" is not about the wife."""
    names = names or {}
    if not memory or not asks_about_someone(asked, names):
        return False
    kind, value = _placed(memory, names)
    relations = {value for kind, value in (_placed(person, names) for person in asked) if kind == "relation"}
    if kind == "name":
        return any(relation in _ONE_PERSON and relation in names.values() for relation in relations)
    if kind == OWNER:
        return bool(relations)
    return not relations or not any(_PEOPLE[value] & _PEOPLE[relation] for relation in relations)


def same_person(whose_a, whose_b, texts_naming):
    """Whether two memories' ``whose`` may be one person: the same one (of a relation, one only one person is:
    a partner, the mother, the father); or the owner and a name that none of
    ``texts_naming(name)`` (the owner's memories naming it) says is someone beside the owner ("Lan is the
    user's wife", "Chị Thu, vợ anh Quân", "Lan owes the user 200k"), unless one says it is the owner's ("User's
    name is Huy"); or a relation only one person is and a name those memories say is that one ("Vợ tôi là
    Thảo"; two sisters may be two people)."""
    if whose_a == whose_b:
        # Two of a relation more than one person has may be two people ("the owner's sister").
        return whose_a[0] != "relation" or whose_a[1] in _ONE_PERSON
    kinds = {whose_a[0], whose_b[0]}
    if kinds not in ({OWNER, "name"}, {"relation", "name"}):
        return False
    name = whose_a[1] if whose_a[0] == "name" else whose_b[1]
    other = whose_b if whose_a[0] == "name" else whose_a
    texts = texts_naming(name)
    if other[0] == "relation":
        return other[1] in _ONE_PERSON and relations_of_names(texts).get(name) == other[1]
    return not _besides_owner(name, texts_naming)


_FIRST_WORD = re.compile(r"\s*([^\W\d_]+)")


@functools.lru_cache(maxsize=65_536)
def relations_in(text):
    """The relations ``text`` names anyone by ("the owner's sister", "bạn thân của chủ nhân"), as a set."""
    return frozenset(value for kind, value, _index, _length in _mentions(_Text(text)) if kind == "relation")


def first_word(text):
    """The word ``text`` starts with, folded, when it is capitalised ("Lan" of "Lan drinks beer"), or ""."""
    first = _FIRST_WORD.match(text)
    return fold(first.group(1)).lower() if first and first.group(1)[0].isupper() else ""


def whose(text, texts_naming):
    """Whom a memory is about (``about``), or, when it mentions no one, the one its first word names where the
    owner's memories say who that is (``someone_besides_owner``: "Lan drinks beer every Friday" beside "Lan is
    the user's wife"; "Lan" is a word a dictionary knows), else the owner. ``texts_naming(name)``: the owner's
    memories naming someone."""
    return about(text) or owner_or_first(first_word(text), texts_naming)


def owner_or_first(first, texts_naming):
    """Whom a memory mentioning no one is about: the one its first word (``first_word``) names, when the owner's
    memories say who that is (``someone_besides_owner``), else the owner."""
    if first and _besides_owner(first, texts_naming):
        return "name", first
    return OWNER, OWNER


def someone_besides_owner(name, texts):
    """Whether ``texts`` (the owner's memories naming ``name``, folded) say ``name`` is someone beside the
    owner: who they are to the owner ("Lan is the user's wife"), or naming them beside the owner ("Lan owes the
    user 200k"), unless one says it is the owner's name ("User's name is Lan")."""
    return name in relations_of_names(texts) or placed_beside_owner(name, texts)


def texts_naming_of(look_up):
    """A ``texts_naming`` for one run of comparisons (a doctor run, a proposal): ``look_up(name)``, the owner's
    memories naming ``name``, asked once a name, and whether each name is someone beside the owner kept beside
    it (``known``, ``_besides_owner``): the doctor asks it of thousands of pairs naming a few people. Nothing
    is kept beyond the run."""
    texts_naming = functools.cache(look_up)
    texts_naming.known = {}
    return texts_naming


def _besides_owner(name, texts_naming):
    """``someone_besides_owner`` of the texts naming ``name``, kept in ``texts_naming.known`` when it has one
    (``texts_naming_of``)."""
    known = getattr(texts_naming, "known", None)
    if known is None:
        return someone_besides_owner(name, texts_naming(name))
    if name not in known:
        known[name] = someone_besides_owner(name, texts_naming(name))
    return known[name]


def placed_beside_owner(name, texts):
    """Whether one of ``texts`` (the owner's memories) names ``name`` (folded) beside the owner ("Lan owes the
    user 200k"), and none of those speaking of the owner says it is the owner's name ("User's name is Lan")."""
    beside = [text for text in texts if speaks_of_owner(text)]
    return any(names_someone(text, name) for text in beside) and not any(name in owner_named(text) for text in beside)


def one_person(text_a, text_b, texts_naming):
    """Whether two memories are of one person (``same_person`` of whom each is about, ``whose``)."""
    return same_person(whose(text_a, texts_naming), whose(text_b, texts_naming), texts_naming)
