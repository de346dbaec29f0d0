"""Reading other tools' memories: each format's file, read whole and checked whole, as ``Record``s.

A file that is not what it claims to be (not UTF-8, broken JSON or CSV, a record without its text, a
column Bestie does not know, a zip without OpenMemory's ``memories.json``) raises ``InvalidImport``
saying where and why, before anything is written. What each record *says* (a secret, a scope that does
not exist, a time that is not one) is the write path's to judge, record by record (``foreign``).

- ``mem0``: the JSON of ``Memory.get_all()`` (a list, or ``{"results": [...]}``), or mem0's
  ``history.db`` (SQLite), of which each memory's latest state is taken;
- ``openmemory``: the zip of the OpenMemory dashboard's backup export (``memories.json`` in it);
- ``chatgpt``: ChatGPT's saved memories copied from its settings, one a line or a bullet;
- ``jsonl`` and ``csv``: one memory a line or a row, with a ``text`` and any of ``OPTIONAL_FIELDS``.
"""

import csv
import io
import json
import re
import sqlite3
import tempfile
import zipfile
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from memories.lifecycle import LifecycleError

# What a JSON Lines record or a CSV row may hold besides its text: the fields of a memory an owner can set.
OPTIONAL_FIELDS = (
    "id",
    "kind",
    "subject",
    "scope",
    "user",
    "channel",
    "project",
    "layer",
    "source",
    "created_at",
    "expires_at",
    "confidence",
    "pinned",
)
# OpenMemory's states: a deleted memory is not imported, an archived or paused one goes to the archive.
_OPENMEMORY_ARCHIVED = frozenset({"archived", "paused"})
# The largest memories.json read out of a zip: a zip bomb stops there.
MAX_MEMBER_BYTES = 512 * 1024 * 1024
_SQLITE_HEADER = b"SQLite format 3\x00"
_BULLET = re.compile(r"^\s*(?:[-*•‣◦▪·–—]|\d{1,4}[.)])\s+")
_HEADINGS = frozenset({"memory", "memories", "saved memories", "manage memory", "manage memories"})


class InvalidImport(LifecycleError):
    """The file is not what its format says; the message says where and why. Nothing was imported."""


@dataclass(frozen=True, slots=True)
class Record:
    """One memory as the file holds it. ``where`` is how the report names it ("line 3", "memory 2 (id
    …)"), ``ref`` what follows the ``#`` in its source (the tool's id, else ``L`` and the line).
    ``fields``: its text and what else the tool said (values as given); ``skip``: why it is not
    imported although readable (deleted in the tool)."""

    where: str
    ref: str
    fields: dict
    skip: str = ""


def read(format, data):
    """The records of ``data`` (bytes) in ``format``, every one checked for shape."""
    return _READERS[format](data)


def _text(data, what):
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InvalidImport(f"byte {error.start}: the file is not UTF-8 text ({error.reason}), so not {what}") from None
    return text.removeprefix("\ufeff")


def _json(text, what):
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise InvalidImport(f"line {error.lineno} column {error.colno}: {error.msg}: this is not {what}") from None
    except RecursionError:
        raise InvalidImport(f"the file nests arrays or objects too deeply to be {what}") from None


def _not_bestie(document, what):
    if isinstance(document, dict) and document.get("format") == "bestie-memory-export":
        raise InvalidImport(f"this is a Bestie memory export, not {what}: import it with --from bestie")


# mem0


def _mem0(data):
    if data.startswith(_SQLITE_HEADER):
        return _mem0_history(data)
    what = "mem0's get_all() JSON (a list of memories, or an object with results)"
    document = _json(_text(data, what), what)
    _not_bestie(document, what)
    items = document.get("results") if isinstance(document, dict) else document
    if not isinstance(items, list):
        raise InvalidImport(f"line 1: this is not {what}")
    records = []
    for number, item in enumerate(items, 1):
        where = _("memory %(number)s") % {"number": number}
        if not isinstance(item, dict):
            raise InvalidImport(f"{where}: must be an object with the memory's text in memory, not {_type(item)}")
        if "id" in item and isinstance(item["id"], (str, int)) and not isinstance(item["id"], bool):
            where += " " + _("(id %(id)s)") % {"id": item["id"]}
        if not isinstance(item.get("memory"), str):
            raise InvalidImport(f"{where}: has no memory (the memory's text): this is not {what}")
        fields = {"text": item["memory"], "created_at": item.get("created_at")}
        if item.get("user_id") is not None:
            fields["user"] = item["user_id"]
        records.append(Record(where, _ref(item.get("id"), number), fields))
        items[number - 1] = None  # let each parsed item go once read: a large file takes half the memory
    return records


def _mem0_history(data):
    """mem0's ``history`` table (``mem0/memory/storage.py``): one row per ADD, UPDATE and DELETE of a
    memory, in the order written (rowid). A memory is its last ADD or UPDATE's ``new_memory``; one whose
    last event is a DELETE is skipped. ``created_at`` is the memory's (an UPDATE repeats it)."""
    with tempfile.NamedTemporaryFile(suffix=".db") as copy:
        copy.write(data)
        copy.flush()
        try:
            connection = sqlite3.connect(f"file:{copy.name}?mode=ro", uri=True)
        except sqlite3.Error as error:
            raise InvalidImport(f"cannot open the file as SQLite: {error}") from None
        try:
            return _history_records(connection)
        except sqlite3.Error as error:
            raise InvalidImport(f"cannot read mem0's history table: {error}") from None
        finally:
            connection.close()


def _history_records(connection):
    columns = {row[1] for row in connection.execute("PRAGMA table_info(history)")}
    if not columns:
        raise InvalidImport("this SQLite file has no history table, so it is not mem0's history.db")
    needed = ("memory_id", "new_memory", "event", "created_at")
    missing = [name for name in needed if name not in columns]
    if missing:
        raise InvalidImport(f"the history table lacks the column {', '.join(missing)}, so it is not mem0's history.db")
    latest = {}
    rows = connection.execute("SELECT rowid, memory_id, new_memory, event, created_at FROM history ORDER BY rowid")
    for rowid, memory_id, text, event, created_at in rows:
        event = str(event or "").upper()
        if memory_id is None or event not in ("ADD", "UPDATE", "DELETE"):
            continue
        memory_id = str(memory_id)
        first_row, _event, _text, first_created = latest.get(memory_id, (rowid, None, None, None))
        latest[memory_id] = (first_row, event, text, created_at or first_created)
    records = []
    for memory_id, (rowid, event, text, created_at) in latest.items():
        where = _("memory %(id)s (history row %(row)s)") % {"id": memory_id, "row": rowid}
        if event == "DELETE":
            records.append(
                Record(where, memory_id, {"text": ""}, skip=gettext_noop("deleted in mem0: its last event is DELETE"))
            )
        elif not isinstance(text, str):
            raise InvalidImport(f"{where}: its last {event} has no new_memory (the memory's text)")
        else:
            records.append(Record(where, memory_id, {"text": text, "created_at": created_at}))
    return records


# OpenMemory


def _openmemory(data):
    """The zip ``POST /api/v1/backup/export`` of OpenMemory's API writes (``openmemory/api/app/routers/
    backup.py``): ``memories.json`` holds the user, the apps, the categories and every memory (``id``,
    ``content``, ``state``, ``created_at``, …); ``memories.jsonl.gz`` repeats the memories for vector
    stores and is not needed."""
    what = "an OpenMemory export (a zip with memories.json)"
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, ValueError):
        raise InvalidImport(f"the file is not a zip, so not {what}") from None
    with archive:
        members = (info for info in archive.infolist() if not info.is_dir())
        member = next((info for info in members if info.filename.rsplit("/", 1)[-1] == "memories.json"), None)
        if member is None:
            raise InvalidImport(f"the zip has no memories.json, so it is not {what}")
        if member.file_size > MAX_MEMBER_BYTES:
            raise InvalidImport(f"memories.json is {member.file_size} bytes; the limit is {MAX_MEMBER_BYTES}")
        try:
            with archive.open(member) as opened:
                content = opened.read(MAX_MEMBER_BYTES + 1)
        except (zipfile.BadZipFile, OSError, RuntimeError, NotImplementedError, EOFError) as error:
            raise InvalidImport(f"cannot read memories.json from the zip: {error}") from None
    document = _json(_text(content, what), what)
    if not isinstance(document, dict) or not isinstance(document.get("memories"), list):
        raise InvalidImport(f"memories.json has no list of memories, so the zip is not {what}")
    owner = document.get("user")
    user = owner.get("user_id") if isinstance(owner, dict) else None
    records = []
    for number, item in enumerate(document["memories"], 1):
        where = f"memories[{number - 1}]"
        if not isinstance(item, dict):
            raise InvalidImport(f"memories.json {where}: must be an object, not {_type(item)}")
        if isinstance(item.get("id"), str):
            where += " " + _("(id %(id)s)") % {"id": item["id"]}
        if not isinstance(item.get("content"), str):
            raise InvalidImport(f"memories.json {where}: has no content (the memory's text)")
        fields = {"text": item["content"], "created_at": item.get("created_at")}
        if isinstance(user, str):
            fields["user"] = user
        state = item.get("state")
        if state in _OPENMEMORY_ARCHIVED:
            fields["layer"] = "archive"
        skip = gettext_noop("deleted in OpenMemory") if state == "deleted" or item.get("deleted_at") else ""
        records.append(Record(where, _ref(item.get("id"), number), fields, skip))
    return records


# ChatGPT


def _chatgpt(data):
    """ChatGPT's saved memories as copied from Settings > Personalization > Manage memories: a memory a
    line, or a bullet (-, *, •, 1.) whose text may wrap onto the lines below it. Blank lines, Markdown
    headings, a line ending in a colon and the page's own titles ("Saved memories") are left out."""
    what = "ChatGPT's memories (plain text, one a line)"
    text = _text(data, what)
    if text.lstrip().startswith(("{", "[")):
        raise InvalidImport(
            "line 1: this is JSON, not ChatGPT's memories as copied from its settings:"
            " import it with --from mem0, jsonl or bestie"
        )
    lines = text.splitlines()
    bulleted = any(_BULLET.match(line) for line in lines)
    records, current = [], None
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        bullet = _BULLET.match(line)
        if not stripped or stripped.startswith("#") or (not bullet and _heading(stripped)):
            current = None
            continue
        if bullet:
            current = [number, line[bullet.end() :].strip()]
            records.append(current)
        elif bulleted and current is not None:
            current[1] += " " + stripped
        else:
            current = [number, stripped] if not bulleted else None
            if current:
                records.append(current)
    return [Record(_line(number), f"L{number}", {"text": memory}) for number, memory in records]


def _heading(line):
    return line.endswith(":") or line.casefold().rstrip(".") in _HEADINGS


# JSON Lines and CSV


def _jsonl(data):
    what = "JSON Lines (one JSON object a line)"
    text = _text(data, what)
    records = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as error:
            raise InvalidImport(f"line {number} column {error.colno}: {error.msg}: this is not {what}") from None
        except RecursionError:
            raise InvalidImport(f"line {number}: nests arrays or objects too deeply") from None
        if not isinstance(item, dict):
            raise InvalidImport(f"line {number}: must be a JSON object with a text, not {_type(item)}")
        _not_bestie(item, what)
        records.append(_row(_line(number), number, item, "key"))
    return records


def _csv(data):
    text = _text(data, "CSV")
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        header = next(reader, None)
        if header is None:
            raise InvalidImport("the file is empty: a CSV of memories needs a header with a text column")
        header = [name.strip() for name in header]
        if "text" not in header:
            raise InvalidImport(f"line 1: the header has no text column (it has {', '.join(map(repr, header))})")
        twice = sorted({name for name in header if header.count(name) > 1})
        if twice:
            raise InvalidImport(f"line 1: the header has the column {', '.join(map(repr, twice))} twice")
        records, start = [], reader.line_num + 1
        for values in reader:
            number, start = start, reader.line_num + 1
            if not any(value.strip() for value in values):
                continue
            if len(values) != len(header):
                raise InvalidImport(f"line {number}: has {len(values)} values; the header has {len(header)} columns")
            item = {name: value for name, value in zip(header, values, strict=True) if value.strip() != ""}
            if "text" not in item:
                raise InvalidImport(f"line {number}: the text column is empty")
            records.append(_row(_line(number), number, item, "column"))
    except csv.Error as error:
        raise InvalidImport(f"line {reader.line_num}: not valid CSV: {error}") from None
    return records


def _row(where, number, item, name):
    unknown = [key for key in item if key != "text" and key not in OPTIONAL_FIELDS]
    if unknown:
        many = "s" * (len(unknown) > 1)
        raise InvalidImport(
            f"{where}: the unknown {name}{many} {', '.join(map(repr, unknown))}; a memory takes text and any of"
            f" {', '.join(OPTIONAL_FIELDS)}"
        )
    if not isinstance(item.get("text"), str):
        raise InvalidImport(f"{where}: has no text (the memory), or it is not a string")
    fields = dict(item)
    return Record(where, _ref(fields.pop("id", None), f"L{number}"), fields)


def _line(number):
    """How the report names a memory that is one line of the file."""
    return _("line %(number)s") % {"number": number}


def _ref(value, fallback):
    """The tool's id of a record, else ``fallback`` (its number or line)."""
    if isinstance(value, str) and value.strip():
        return value.strip()
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return str(fallback)


_TYPES = {dict: "an object", list: "an array", str: "a string", bool: "true/false", type(None): "null"}


def _type(value):
    return _TYPES.get(type(value), "a number")


_READERS = {"mem0": _mem0, "openmemory": _openmemory, "chatgpt": _chatgpt, "jsonl": _jsonl, "csv": _csv}
FORMATS = tuple(_READERS)
