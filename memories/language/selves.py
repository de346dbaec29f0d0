"""The user called by name. A memory of user ``linh`` saying "Linh's book club meets on Saturdays" speaks of
the user as "User's book club meets on Saturdays" does, and so does one of the owner's saying "Anh Đức thích
nhắn Zalo" where another says "User's name is Đức". Comparing memories, such a name is read as the word for
the user in the memory's language (``as_the_user``).

Who goes by which name: a user id that reads as a name is one ("linh", "tung_pham": Tùng Phạm, Tùng), and a
user's memories may say it ("User's name is Đức", ``translation.owner_named``), or tell it by the one the user
is married to (``partners``): beside "The user's husband, Minh", "Minh's wife Hằng" and "Chồng chị Hằng là anh
Minh" say the user is Hằng."""

import re
import unicodedata

from memories.language import partners
from memories.language.folding import fold
from memories.language.meaning import HONORIFICS
from memories.language.people import OWNER
from memories.language.states import PEOPLE
from memories.language.translation import is_known_word, owner_named, starts_a_phrase
from memories.language.words import SENTENCE_END, WRITTEN_WORD, language_of

# User ids that name no one: the words for the owner or a store's default user.
_NO_NAMES = frozenset("owner user me default admin cli someone anyone everyone".split())
# A user id's part read as a name: letters, two at least ("linh", "tung"; not "u1" or "123").
_NAME_PART = re.compile(r"[^\W\d_]{2,}")
# Before a name ("anh Đức", "Mrs Ngọc"), with chat's short "a" and "c" for "anh" and "chị" ("a Khoa").
_HONORIFICS = HONORIFICS | {"a", "c"}
# Whose someone is, before a relation: "his sister Nga".
_WHOSE = frozenset("his her their my our".split())


def names_of(user, texts=()):
    """The names (folded, lower case, of one word or more) ``user`` goes by: the user id read as a name when
    it is one ("linh"; "tung_pham" is "tung pham" and "tung"; not "owner", nor a channel's "telegram:123"),
    and those ``texts`` (the user's memories) say ("User's name is Đức") or tell by the user's husband or wife
    (``_named_by_spouse``)."""
    texts = list(texts)
    names = {name for text in texts for name in owner_named(text)} | _named_by_spouse(texts)
    parts = [] if ":" in user else re.split(r"[\s._-]+", fold(user).lower().strip())
    if parts and all(_NAME_PART.fullmatch(part) for part in parts) and not _NO_NAMES & set(parts):
        names.update((" ".join(parts), parts[0]))
    return frozenset(names)


def _named_by_spouse(texts):
    """The names ``texts`` (a user's memories) give the user by whom they are married to: the one the user's
    husband or wife is said to be married to ("Minh's wife Hằng", "Chồng chị Hằng là anh Minh" beside "The
    user's husband, Minh"). Only where the memories name one husband or wife of the user, and no one else as
    married to them."""
    married = [
        found
        for text in texts
        if (found := partners.spouse(text)) is not None and found.bond == partners.MARRIED and found.spouse
    ]
    of_the_user = {found.spouse for found in married if found.whose[0] == OWNER}
    if len(of_the_user) != 1:
        return set()
    (partner,) = of_the_user
    named = set()
    for found in married:
        if found.whose[0] != "name":
            continue
        if found.spouse == partner:
            named.add(found.whose[1])  # "Chồng chị Hằng là anh Minh": Hằng is married to the user's husband
        elif found.whose[1] == partner:
            named.add(found.spouse)  # "Minh's wife Hằng"
    named.discard(partner)
    return named if len(named) == 1 else set()


def as_the_user(text, names):
    """``text`` with the user's ``names`` (``names_of``) written as the word for the user in its language:
    "Anh Đức thích nhắn Zalo" is "Người dùng thích nhắn Zalo", "Linh's mother" "The user's mother", "a Tung bi
    di ung lac" (typed without marks) "nguoi dung bi di ung lac". A name counts when it follows an honorific
    (which goes with it), or is written with a capital, and where it opens a sentence is no function word
    nor the start of a phrase: "Từ tháng 10…" is "From October…" for user "tu"."""
    # Most texts hold none of the names, which their folded letters tell at once. What says the name is
    # left as it is: "User's name is Đức" is no "The user's name is the user".
    folded_text = fold(text)
    if not any(name.split()[0] in folded_text for name in names) or owner_named(text):
        return text
    text = unicodedata.normalize("NFC", text)
    found = list(WRITTEN_WORD.finditer(text))
    folded = [fold(match.group()).lower() for match in found]
    longest = max(len(name.split()) for name in names)
    english, pieces, kept_up_to, index = None, [], 0, 0
    while index < len(found):
        size = _name_at(found, folded, index, longest, names, text)
        if not size:
            index += 1
            continue
        start = index - 1 if index and folded[index - 1] in _HONORIFICS and _apart(text, found, index - 1, 2) else index
        opens = _opens_a_sentence(text, found[start].start())
        if english is None:
            english = language_of(text) != "vi"
        without_honorific = start == index
        if (without_honorific and not _a_name_here(found, index, opens, text, english)) or _in_a_longer_name(
            text, found, (start, index, index + size), english
        ):
            index += size
            continue
        if english and without_honorific:
            start = _told_by_relation(text, found, folded, index)
            opens = _opens_a_sentence(text, found[start].start())
        capital = found[start].group()[:1].isupper()
        pieces.append(text[kept_up_to : found[start].start()] + _the_user(english, text.isascii(), capital, opens))
        kept_up_to = found[index + size - 1].end()
        index += size
    return "".join(pieces) + text[kept_up_to:]


def _name_at(found, folded, index, longest, names, text):
    """How many words from ``index`` make one of ``names``, standing apart (0 for none): the longest first."""
    for size in range(min(longest, len(found) - index), 0, -1):
        if " ".join(folded[index : index + size]) in names and _apart(text, found, index, size):
            return size
    return 0


def _apart(text, found, index, size):
    """Whether words ``index`` to ``index + size`` are one run of words with only spaces between them."""
    return not any(text[found[at].end() : found[at + 1].start()].strip() for at in range(index, index + size - 1))


def _a_name_here(found, index, opens, text, english):
    """Whether the word at ``index``, with no honorific before it, is a name: written with a capital, and
    where it opens a sentence no function word nor the start of a phrase (``starts_a_phrase``). A text typed
    all in lower case shows no capitals: there a name is one that is no word of the language as typed ("linh
    hoc yoga"; not "mai di kham rang", tomorrow)."""
    written = [match.group().lower() for match in found[index : index + 4]]
    if text == text.lower():
        return not is_known_word(written, english) and not starts_a_phrase(written)
    if not found[index].group()[:1].isupper():
        return False
    return not opens or not starts_a_phrase(written)


def _told_by_relation(text, found, folded, index):
    """Where the name at ``index`` starts with the relation that tells who it is in English, if one does:
    "Minh's wife Hằng is taking an English class" is "The user is taking an English class", as is "his
    sister Nga …" of user Nga (who she is to Minh is said where it is a fact: "Minh's wife is Hằng")."""
    start = index - 1
    if start < 0 or folded[start] not in PEOPLE or not _apart(text, found, start, 2):
        return index
    if start >= 2 and folded[start - 1] == "s" and text[found[start - 2].end() : found[start - 1].start()] in "'’":
        return start - 2 if _apart(text, found, start - 1, 2) else index
    if start >= 1 and folded[start - 1] in _WHOSE and _apart(text, found, start - 1, 2):
        return start - 1
    return index


def _opens_a_sentence(text, position):
    """Whether the word at ``position`` starts a sentence, as ``words.words_placed`` reads one."""
    before = text[:position].rstrip()
    return not before or bool(SENTENCE_END.fullmatch(before[-1]))


def _in_a_longer_name(text, found, span, english):
    """Whether the name (``span``: its honorific's index, or its own, its own and where it ends) stands beside
    another word with a capital, with only spaces between: part of a longer name, of someone else or of a
    place ("Lan Anh", "Hà Lan"), or the user's full name, which no word for the user stands in for ("Nguyễn
    Thị Lan"). A word of the language before it is none ("Every Friday Lan…")."""
    start, name, end = span
    before = (
        start == name > 0
        and _apart(text, found, start - 1, 2)
        and found[start - 1].group()[:1].isupper()
        and not _opens_a_sentence(text, found[start].start())
        and not is_known_word([found[start - 1].group().lower()], english)
    )
    after = end < len(found) and _apart(text, found, end - 1, 2) and found[end].group()[:1].isupper()
    return before or after


def _the_user(english, plain, capital, opens):
    """The word for the user in the text's language, written as the text is: without marks when it has none,
    with a capital where the name had one ("Anh Đức", "Linh's") and opens a sentence ("the user's" inside
    one)."""
    word = "the user" if english else "nguoi dung" if plain else "người dùng"
    return word[:1].upper() + word[1:] if capital and opens else word
