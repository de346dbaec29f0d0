"""Characters that are not text, and what every value from outside is cleaned of before it is checked or
stored (``lifecycle.validation.clean_characters``).

- A lone surrogate (half of a UTF-16 pair, from a JSON ``"\\ud800"`` or a command-line argument that was
  not UTF-8) is not a character: no database or file can hold it, so such a value is refused.
- Control characters (but tab, newline and carriage return), the bidirectional embeddings, overrides and
  isolates that make text read otherwise than it is stored, and invisible characters that split a word
  without showing (zero-width space, word joiner, byte-order mark, soft hyphen) are removed: they carry
  nothing a reader sees, and a secret split by one would pass the secret filter.
- The zero-width joiners have a use inside words and emoji; at either end of a value, or alone, they are
  nothing, like spaces.
"""

import re

_SURROGATE = re.compile("[\ud800-\udfff]")
_INVISIBLE = re.compile(
    r"[\x00-\x08\x0e-\x1b\x7f-\x84\x86-\x9f\u00ad\u180e\u200b\u2060\ufeff\u202a-\u202e\u2066-\u2069]"
)
# One character a reader sees (neither a space nor any of the above), as a pattern that Python, JSON Schema
# and pydantic read alike: what a value that must not be empty needs at least one of.
SOMETHING_VISIBLE = r"[^\s\x00-\x1f\x7f-\x9f\u00ad\u180e\u200b-\u200d\u2060\ufeff\u202a-\u202e\u2066-\u2069]"
_EDGES = re.compile("^[\\s\u200c\u200d]+|[\\s\u200c\u200d]+$")


def lone_surrogate(text):
    """The first lone surrogate in ``text`` as ``U+D800``, or None."""
    found = _SURROGATE.search(text)
    return None if found is None else f"U+{ord(found.group()):04X}"


def visible(text):
    """``text`` without control characters, bidirectional controls and invisible word-splitters."""
    return _INVISIBLE.sub("", text) if _INVISIBLE.search(text) else text


def strip(text):
    """``text`` without spaces or zero-width joiners at either end."""
    return _EDGES.sub("", text)
