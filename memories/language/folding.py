"""Folding: the one form in which texts are compared, searched and keyed, whatever their case or
diacritics ("Đà Nẵng, Tiếng Việt" -> "da nang, tieng viet")."""

import functools
import re
import sys
import unicodedata

_WORD = re.compile(r"\w+")


@functools.cache
def _combining_marks():
    """A ``str.translate`` table deleting every combining mark (built once, in about 50 ms)."""
    return dict.fromkeys(code for code in range(sys.maxunicode + 1) if unicodedata.combining(chr(code)))


def _fold_slowly(text):
    # Vietnamese "đ" has no Unicode decomposition, so it is mapped by hand; every other diacritic falls
    # away with NFKD.
    text = text.replace("đ", "d").replace("Đ", "D")
    return unicodedata.normalize("NFKD", text).translate(_combining_marks()).casefold()


# Latin letters with diacritics (Vietnamese included) and their folded form: one ``str.translate`` does
# what NFKD does letter by letter, several times faster, and most texts are left all ASCII by it.
_FOLDED_LETTERS = {
    code: _fold_slowly(chr(code))
    for code in (*range(0xC0, 0x250), *range(0x1E00, 0x1F00))
    if _fold_slowly(chr(code)) != chr(code)
}


def fold(text):
    """Lower-case ASCII-ish form: "Đà Nẵng, Tiếng Việt" -> "da nang, tieng viet"."""
    if text.isascii():
        return text.lower()
    folded = text.translate(_FOLDED_LETTERS)
    return folded.lower() if folded.isascii() else _fold_slowly(folded)


def search_terms(query):
    """The folded words of a search query, in order, without repeats."""
    return list(dict.fromkeys(_WORD.findall(fold(query))))


def _marks(word):
    """The diacritics of a word, wherever they stand ("hoà" and "hòa" alike): its combining marks and "đ"s."""
    decomposed = unicodedata.normalize("NFD", word.lower())
    return tuple(sorted(char for char in decomposed if unicodedata.combining(char) or char == "đ"))


@functools.lru_cache(maxsize=65_536)
def _spellings(text):
    """``{folded word: {its marks}}`` of the words of a text written with diacritics (the doctor compares each
    memory in many pairs)."""
    found = {}
    for word in _WORD.findall(text):
        marks = () if word.isascii() else _marks(word)
        if marks:
            found.setdefault(fold(word), set()).add(marks)
    return found


def spelling(text, ignored=frozenset()):
    """The diacritics a text writes, word by word but for the folded words ``ignored`` (a hashable value): two
    texts of the same folded words with the same spelling are spelt alike."""
    return frozenset((word, frozenset(marks)) for word, marks in _spellings(text).items() if word not in ignored)


def marks_agree(text_a, text_b, ignored=frozenset()):
    """Whether two texts spell alike, diacritics and all, every word both write with diacritics that they hold
    alike folded, but the folded words ``ignored``: "thích bún bò" is not "thích bún bơ", "Chị Hương" not "Chị
    Hường", "cá" (fish) not "cà". A word typed without them agrees with any ("Da Nang" / "Đà Nẵng", "Thanh" /
    "Thành": one cannot tell)."""
    if text_a.isascii() or text_b.isascii():
        return True
    a, b = _spellings(text_a), _spellings(text_b)
    return all(a[word] == b[word] for word in a.keys() & b.keys() - ignored)
