"""How the verbs print: one line per record for a person, JSON for a script.

JSON times are ISO-8601 UTC with a Z, as ``memories.times.iso`` writes them in the export; text shows dates in
the owner's time zone. Listings stream: rows are read in chunks and written as they come, so listing
the whole store needs no more memory than listing ten rows.
"""

import json
import re
from collections import namedtuple
from datetime import UTC, datetime

import orjson
from django.core.management.base import BaseCommand, CommandError, OutputWrapper
from django.utils import timezone

from memories import transfer
from memories.language import characters
from memories.models import Memory
from memories.times import iso

CHUNK = 2000
MEMORY_ATTRIBUTES = tuple(transfer.MEMORY_FIELDS.values())
MemoryRow = namedtuple("MemoryRow", MEMORY_ATTRIBUTES)
MESSAGE_FIELDS = ("id", "role", "text", "user", "channel", "project", "created_at")

_TIMES = tuple(attribute for attribute in MEMORY_ATTRIBUTES if attribute.endswith("_at"))
# SQLite's driver gives naive UTC datetimes, PostgreSQL's aware ones: both are written ...Z, like iso().
_ORJSON = orjson.OPT_NAIVE_UTC | orjson.OPT_UTC_Z


# What a terminal obeys instead of showing (C0 controls but newline and tab, DEL, C1 controls: escape and
# control sequences that clear the screen, set the title, write the clipboard) and what reorders the text
# it shows (bidirectional controls), and lone surrogates, which a UTF-8 terminal cannot be sent at all.
# Agents write memories and messages, so any of it may come from them.
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def terminal_safe(text):
    """``text`` with every character a terminal would obey written as ``\\uXXXX`` (still valid in JSON)."""
    return _UNSAFE.sub(lambda match: f"\\u{ord(match.group()):04x}", text)


class Styled(str):
    """Text with the style (colour) it is to be written in: the style is applied after the text is made
    terminal-safe, so its own escape codes reach the terminal and nobody else's do."""

    def __new__(cls, text, style):
        styled = super().__new__(cls, text)
        styled.style = style
        return styled


class _SafeStyle:
    def __init__(self, style):
        self._style = style

    def __getattr__(self, name):
        style = getattr(self._style, name)
        return lambda text: Styled(text, style)


class TerminalSafeOutput(OutputWrapper):
    """``command.stdout`` and ``stderr`` that write whatever they are given terminal-safe."""

    def write(self, msg="", style_func=None, ending=None):
        ending = self.ending if ending is None else ending
        style = msg.style if isinstance(msg, Styled) else None
        text = terminal_safe(str(msg))
        if ending and not text.endswith(ending):
            text += ending
        if style is not None and self.isatty():
            self._out.write(style(text))
        else:
            self._out.write((style_func or self.style_func)(text))


class TerminalSafeCommand(BaseCommand):
    """A command whose output never carries a control sequence from the data it prints."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.stdout = TerminalSafeOutput(self.stdout._out)
        self.stderr = TerminalSafeOutput(self.stderr._out)
        self.stderr.style_func = self.style.ERROR
        self.style = _SafeStyle(self.style)

    def execute(self, *args, **options):
        for name in ("stdout", "stderr"):
            if stream := options.pop(name, None):
                setattr(self, name, TerminalSafeOutput(stream))
        _refuse_undecodable(args, options)
        return super().execute(*args, **options)


def _refuse_undecodable(args, options):
    """An argument that was not UTF-8 reaches Python as lone surrogates, which no database or terminal
    takes: refused before anything runs, as is a NUL, which no real command line can carry."""
    values = [("", value) for value in args] + list(options.items())
    for name, value in values:
        for text in value if isinstance(value, list | tuple) else [value]:
            if not isinstance(text, str):
                continue
            if characters.lone_surrogate(text) is not None or "\x00" in text:
                where = name.replace("_", "-") or "an argument"
                raise CommandError(f"{where} is not valid UTF-8 text: '{terminal_safe(text)}'; nothing was done")


class Stream:
    """``command.stdout`` as a plain text stream: its ``write`` would end every piece with a newline."""

    def __init__(self, wrapper):
        self._wrapper = wrapper

    def write(self, text):
        self._wrapper.write(text, ending="")
        return len(text)

    def flush(self):
        self._wrapper.flush()


def write_json(command, value):
    command.stdout.write(json.dumps(value, ensure_ascii=False, indent=2))


def write_json_array(command, lines):
    """A JSON array of ``lines`` (encoded objects, bytes), one per line, written in batches as they come.
    Returns how many there were."""
    stream, batch, opening, count = Stream(command.stdout), [], b"[", 0
    for line in lines:
        count += 1
        batch.append(line)
        if len(batch) == CHUNK:
            stream.write((opening + b"\n" + b",\n".join(batch)).decode())
            batch, opening = [], b","
    if batch:
        stream.write((opening + b"\n" + b",\n".join(batch)).decode())
        opening = b","
    stream.write("[]\n" if opening == b"[" else "\n]\n")
    return count


def encode(obj):
    return orjson.dumps(obj, option=_ORJSON)


# ---------------------------------------------------------------------------------------------------
# Memories


def memory_rows(queryset):
    """The memories of ``queryset``, in its order, as ``MemoryRow`` of the values the driver returns
    (``transfer.database_rows``); ``model_values`` turns a row into what the model would hold."""
    return map(MemoryRow._make, transfer.database_rows(queryset, MEMORY_ATTRIBUTES))


def _aware(value):
    return value.replace(tzinfo=UTC) if value is not None and value.tzinfo is None else value


def model_values(row):
    """The row with aware datetimes and its flags as a list, as a ``Memory`` instance has them."""
    return row._replace(flags=orjson.loads(row.flags), **{name: _aware(getattr(row, name)) for name in _TIMES})


def state(row, now):
    # Memory.state reads only attributes, so a row answers it as the model would, without a model
    # instance per row. Of the times it reads, only expires_at is compared, so only it must be aware.
    if row.expires_at is not None and row.expires_at.tzinfo is None:
        row = row._replace(expires_at=_aware(row.expires_at))
    return Memory.state(row, now)


def memory_json(row, now):
    """One memory as ``--json`` prints it: the exported memory object, plus its state."""
    obj = dict(zip(transfer.MEMORY_FIELDS, row))
    obj["flags"] = orjson.loads(row.flags)
    obj["state"] = state(row, now)
    return encode(obj)


def day(value):
    """A date in the owner's time zone; ``value`` is an aware datetime, an ISO string or None."""
    if value is None:
        return "-"
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    return timezone.localtime(value).date().isoformat()


def placement(memory):
    """Where a memory applies and which tier it sits in: ``core/working``, ``project:bestie/core``."""
    scope = f"{memory.scope}:{memory.project}" if memory.project else memory.scope
    return f"{scope}/{memory.layer}"


def label(memory):
    return f"{memory.kind}:{memory.subject}" if memory.subject else memory.kind


def memory_line(memory, state, *, notes=()):
    """``#12  live  core/working  preference:language  User prefers concise replies.  (confirmed …)``"""
    notes = list(notes)
    if memory.pinned:
        notes.insert(0, "pinned")
    if memory.expires_at:
        notes.append(f"expires {day(memory.expires_at)}")
    notes.append(f"confirmed {day(memory.confirmed_at)}")
    return f"#{memory.id}  {state}  {placement(memory)}  {label(memory)}  {memory.text}  ({', '.join(notes)})"


def write_memories(command, queryset, *, as_json, now, notes=None, empty="no memories match"):
    """Stream a listing of memories; ``notes(memory)`` adds words to a line's closing parenthesis.
    Returns how many were listed."""
    if as_json:
        return write_json_array(command, (memory_json(row, now) for row in memory_rows(queryset)))
    shown = 0
    for row in memory_rows(queryset):
        memory = model_values(row)
        command.stdout.write(memory_line(memory, state(row, now), notes=notes(memory) if notes else ()))
        shown += 1
    if not shown:
        command.stdout.write(empty)
    return shown


# ---------------------------------------------------------------------------------------------------
# Messages


def message_json(row):
    return {name: iso(value) if name == "created_at" else value for name, value in zip(MESSAGE_FIELDS, row)}


def message_line(message):
    """``#5  2026-05-02  user  telegram:1  Remind me about the dentist.``"""
    where = " ".join(part for part in (message.channel, message.project and f"project:{message.project}") if part)
    return f"#{message.id}  {day(message.created_at)}  {message.role}  {where or '-'}  {message.text}"
