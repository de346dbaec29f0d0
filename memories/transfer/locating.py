"""Where a value is in a JSON text: the line an import error points at, for any layout of the document."""

import json
import re

_SPACE = re.compile(r"[ \t\n\r]*")
DECODER = json.JSONDecoder()


def line(text, path):
    return text.count("\n", 0, offset(text, path)) + 1


def offset(text, path):
    """Where the value at ``path`` (object keys and array indexes) starts in the JSON ``text``.

    Works for any layout, pretty-printed too: json.loads has accepted ``text``, and each value on the way
    is skipped with raw_decode, which knows where it ends.
    """
    pos = _SPACE.match(text).end()
    for step in path:
        if isinstance(step, int):
            for index, offset in enumerate(element_offsets(text, pos)):
                if index == step:
                    pos = offset
                    break
        else:
            pos = _member_offset(text, pos, step)
    return pos


def element_offsets(text, pos):
    """Where each element of the array at ``pos`` starts."""
    pos = _SPACE.match(text, pos + 1).end()
    while text[pos] != "]":
        yield pos
        pos = _SPACE.match(text, DECODER.raw_decode(text, pos)[1]).end()
        if text[pos] == ",":
            pos = _SPACE.match(text, pos + 1).end()


def _member_offset(text, pos, key):
    """Where the value of ``key`` in the object at ``pos`` starts."""
    pos = _SPACE.match(text, pos + 1).end()
    while text[pos] != "}":
        name, pos = DECODER.raw_decode(text, pos)
        pos = _SPACE.match(text, _SPACE.match(text, pos).end() + 1).end()
        if name == key:
            return pos
        pos = _SPACE.match(text, DECODER.raw_decode(text, pos)[1]).end()
        if text[pos] == ",":
            pos = _SPACE.match(text, pos + 1).end()
    raise KeyError(key)


_JSON_TYPES = {dict: "an object", list: "an array", str: "a string", bool: "true/false", type(None): "null"}


def json_type(value):
    return _JSON_TYPES.get(type(value), "a number")


def json_value(value):
    """A value as it reads in the document: 57, "x", true, null."""
    if isinstance(value, (dict, list)):
        return json_type(value)
    return json.dumps(value, ensure_ascii=False)
