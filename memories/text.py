"""Text helpers shared by search, duplicate checks and input parsing."""

import functools
import re
import sys
import unicodedata
from datetime import timedelta

_WORD = re.compile(r"\w+")
_TTL = re.compile(r"^\s*(\d+)\s*([smhdw])\s*$")
_TTL_UNITS = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days", "w": "weeks"}


def fold(text):
    """Lower-case ASCII-ish form: "Đà Nẵng, Tiếng Việt" -> "da nang, tieng viet".

    Vietnamese "đ" has no Unicode decomposition, so it is mapped by hand; every other diacritic
    falls away with NFKD.
    """
    if text.isascii():
        return text.casefold()
    text = text.replace("đ", "d").replace("Đ", "D")
    return unicodedata.normalize("NFKD", text).translate(_combining_marks()).casefold()


@functools.cache
def _combining_marks():
    """A ``str.translate`` table deleting every combining mark (built once, in about 50 ms)."""
    return dict.fromkeys(code for code in range(sys.maxunicode + 1) if unicodedata.combining(chr(code)))


def search_terms(query):
    """The folded words of a search query, in order, without repeats."""
    return list(dict.fromkeys(_WORD.findall(fold(query))))


def parse_ttl(value):
    """"7d" -> timedelta(days=7); accepts s, m, h, d and w. Raises ValueError with a readable reason."""
    match = _TTL.match(value or "")
    if not match or int(match.group(1)) == 0:
        raise ValueError(f"TTL must be a positive number followed by s, m, h, d or w (like 7d or 12h), not {value!r}")
    return timedelta(**{_TTL_UNITS[match.group(2)]: int(match.group(1))})
