"""Import: a whole export document checked before anything is written, then written in one transaction."""

import json
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial

from django.db import connection, transaction
from django.utils import timezone

from memories import vectors
from memories.language import characters
from memories.language.meaning import text_key
from memories.lifecycle import (
    MAX_LABEL_LENGTH,
    InvalidValue,
    LifecycleError,
    check_writes_allowed,
    clean_choice,
    clean_confidence,
    clean_kind,
    clean_label,
    clean_text,
    counts,
    refuse_secrets,
)
from memories.models import (
    AuditEvent,
    Layer,
    Memory,
    Message,
    Scope,
    SourceKind,
    Status,
)
from memories.times import json_ready
from memories.transfer import locating
from memories.transfer.document import (
    DOCUMENT_FIELDS,
    FORMAT,
    HISTORY_FIELDS,
    MEMORY_FIELDS,
    REQUIRED_DOCUMENT_FIELDS,
    REQUIRED_HISTORY_FIELDS,
    REQUIRED_MEMORY_FIELDS,
    VERSION,
)

MAX_ID = 2**63 - 1
MAX_COUNT = 2**31 - 1
MAX_ACTOR_LENGTH = AuditEvent._meta.get_field("actor").max_length
_SHA256 = re.compile(r"[0-9a-f]{64}")
# Ids asked about per query: well under SQLite's 999 variables.
_BATCH = 500
_CHOICES = {choices: frozenset(choices.values) for choices in (Scope, Layer, Status, SourceKind, AuditEvent.Event)}


class InvalidDocument(LifecycleError):
    """The import document is malformed; the message says where and why. Nothing was imported."""


class _NotPlainJSON(ValueError):
    """Valid for Python's json module, but data would be lost or unreadable elsewhere."""


@dataclass(frozen=True)
class ImportResult:
    memories: int
    history: int
    dropped_message_links: int
    dry_run: bool


def import_document(source, *, actor, dry_run=False):
    """Import an export document (a str or a text file) into the store: all of it or, on any error,
    nothing. The imported history is the record of what happened, so no audit event is added.

    Memories linked to a conversation message this store does not have are imported without the link
    (messages are not part of the export); ``dropped_message_links`` says how many.
    ``actor`` (who imports) is not written anywhere: an import event of its own would make
    export, clear, import, export give a different document.
    """
    try:
        text = source if isinstance(source, str) else source.read()
    except UnicodeDecodeError as error:
        raise InvalidDocument(f"byte {error.start}: the file is not UTF-8 text ({error.reason})") from None
    document = _parse(text)
    # Values already found free of secrets: an event repeats its memory's text, sources repeat a lot.
    checked = set()
    memory_defaults = _defaults(Memory, MEMORY_FIELDS, REQUIRED_MEMORY_FIELDS)
    history_defaults = _defaults(AuditEvent, HISTORY_FIELDS, REQUIRED_HISTORY_FIELDS)
    memories = _records(text, document, "memories", partial(_memory_fields, checked=checked, defaults=memory_defaults))
    history = _records(text, document, "history", partial(_history_fields, checked=checked, defaults=history_defaults))
    _check_supersede_chains(text, memories)

    with transaction.atomic():
        check_writes_allowed()
        _check_not_in_store(text, "memories", memories, Memory)
        _check_not_in_store(text, "history", history, AuditEvent)
        _check_supersede_targets(text, memories)
        linked = {fields["message_id"] for fields in memories if fields["message_id"] is not None}
        missing_messages = linked - _existing(Message, linked)
        dropped = sum(1 for fields in memories if fields["message_id"] in missing_messages)
        if not dry_run:
            for fields in memories:
                if fields["message_id"] in missing_messages:
                    fields["message_id"] = None
                fields["text_key"] = text_key(fields["text"])
            _insert(Memory, memories)
            _insert(AuditEvent, history)
            _move_id_sequences(memories, history)
            counts.forget()
            vectors.embed_soon()
    return ImportResult(memories=len(memories), history=len(history), dropped_message_links=dropped, dry_run=dry_run)


def _insert(model, rows):
    # Batches keep memory flat; foreign keys are checked at commit, so the order of rows does not matter.
    for start in range(0, len(rows), _BATCH):
        model.objects.bulk_create([model(**fields) for fields in rows[start : start + _BATCH]])


def _move_id_sequences(memories, history):
    """Give new rows ids past every imported one, as if those rows had been written here.

    Never an id handed out before either: a new memory with the id of a forgotten one (which lives on in
    the history) would take over that memory's audit events. So the sequences only ever move forwards,
    and past the memory ids the imported history mentions too.
    """
    floors = {
        Memory: max(
            [fields["id"] for fields in memories] + [fields["memory_id"] or 0 for fields in history], default=0
        ),
        AuditEvent: max((fields["id"] for fields in history), default=0),
    }
    with connection.cursor() as cursor:
        for model, floor in floors.items():
            table = model._meta.db_table
            if not floor:
                continue
            if connection.vendor == "postgresql":
                cursor.execute(
                    "SELECT setval(pg_get_serial_sequence(%s, 'id'), greatest(%s,"
                    f" (SELECT max(id) FROM {connection.ops.quote_name(table)}),"
                    " pg_sequence_last_value(pg_get_serial_sequence(%s, 'id')::regclass)))",
                    [table, floor, table],
                )
            else:
                # SQLite's AUTOINCREMENT keeps the highest id it gave out in sqlite_sequence.
                cursor.execute(
                    "UPDATE sqlite_sequence SET seq = %s WHERE name = %s AND seq < %s", [floor, table, floor]
                )
                cursor.execute(
                    "INSERT INTO sqlite_sequence (name, seq) SELECT %s, %s"
                    " WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = %s)",
                    [table, floor, table],
                )


# The document as a whole


def _parse(text):
    try:
        document = json.loads(text, object_pairs_hook=_unique_keys, parse_constant=_no_constant)
    except json.JSONDecodeError as error:
        raise InvalidDocument(f"line {error.lineno} column {error.colno}: {error.msg}") from None
    except RecursionError:
        raise InvalidDocument("the document nests arrays or objects too deeply to be an export") from None
    except _NotPlainJSON as error:
        raise _locate_not_plain_json(text, error) from None
    if not isinstance(document, dict):
        raise InvalidDocument(
            f"line {locating.line(text, ())}: the document must be a JSON object with the keys"
            f" {', '.join(DOCUMENT_FIELDS)}, not {locating.json_type(document)}"
        )
    try:
        _check_keys(document, DOCUMENT_FIELDS, REQUIRED_DOCUMENT_FIELDS, "the document")
    except LifecycleError as error:
        raise InvalidDocument(f"line {locating.line(text, ())}: {error}") from None
    document.setdefault("exported_at", None)
    document.setdefault("history", [])
    if document["format"] != FORMAT:
        raise InvalidDocument(
            f"line {locating.line(text, ('format',))}: format must be {FORMAT!r}, not {document['format']!r}:"
            " this is not a Bestie memory export"
        )
    if type(document["version"]) is not int or document["version"] != VERSION:
        raise InvalidDocument(
            f"line {locating.line(text, ('version',))}: version {document['version']!r} is not supported;"
            f" this Bestie reads version {VERSION}"
        )
    try:
        _optional(_time, "exported_at", document["exported_at"])
    except InvalidValue as error:
        raise InvalidDocument(f"line {locating.line(text, ('exported_at',))}: {_reason(error)}") from None
    for key in ("memories", "history"):
        if not isinstance(document[key], list):
            raise InvalidDocument(
                f"line {locating.line(text, (key,))}: {key} must be an array, not {locating.json_type(document[key])}"
            )
    return document


def _unique_keys(pairs):
    mapping = dict(pairs)
    if len(mapping) < len(pairs):
        keys = [key for key, _ in pairs]
        twice = next(key for key in keys if keys.count(key) > 1)
        raise _NotPlainJSON(f"the key {twice!r} appears twice")
    return mapping


def _no_constant(name):
    raise _NotPlainJSON(f"{name} is not a JSON number")


def _locate_not_plain_json(text, error):
    """The InvalidDocument for a duplicate key or a NaN: at the record that has it, else the document."""
    try:
        document = locating.DECODER.decode(text)
    except json.JSONDecodeError as syntax:
        # Further down than the first problem, but a broken document has to be mended first anyway.
        return InvalidDocument(f"line {syntax.lineno} column {syntax.colno}: {syntax.msg}")
    for name in ("memories", "history"):
        if not (isinstance(document, dict) and isinstance(document.get(name), list)):
            continue
        for index, pos in enumerate(locating.element_offsets(text, locating.offset(text, (name,)))):
            try:
                _STRICT.raw_decode(text, pos)
            except _NotPlainJSON as record_error:
                return _invalid(text, name, index, document[name][index], str(record_error))
    return InvalidDocument(f"line {locating.line(text, ())}: the document: {error}")


# Each record


def _records(text, document, name, clean):
    """The records of ``document[name]`` as model field values, every one checked, ids unique.

    Each parsed record is let go once checked (its fields are all that is needed from then on), which
    nearly halves the memory a large import takes.
    """
    records = document[name]
    rows, seen = [], {}
    for index, record in enumerate(records):
        try:
            fields = clean(record)
        except LifecycleError as error:
            raise _invalid(text, name, index, record, _reason(error)) from None
        if fields["id"] in seen:
            first = seen[fields["id"]]
            also = f"{name}[{first}] on line {locating.line(text, (name, first))}"
            raise _invalid(text, name, index, record, f"id {fields['id']} is used twice: {also} has it too")
        seen[fields["id"]] = index
        rows.append(fields)
        records[index] = None
    return rows


def _defaults(model, fields, required):
    """The values of the fields a record may leave out: the model's defaults, as the export writes them
    (``created_at`` and ``confirmed_at``: now)."""
    return {
        name: json_ready(model._meta.get_field(attribute).get_default())
        for name, attribute in fields.items()
        if name not in required
    }


def _memory_fields(record, checked, defaults):
    _check_keys(record, MEMORY_FIELDS, REQUIRED_MEMORY_FIELDS, "a memory")
    record = {**defaults, **record}
    fields = {
        "id": _id("id", record["id"]),
        # Text and source are kept exactly: only what the write path would refuse outright is refused.
        "text": _text("text", record["text"]),
        "kind": _kind(record["kind"]),
        "subject": _label("subject", record["subject"]),
        "scope": _choice("scope", record["scope"], Scope),
        "user": _label("user", record["user"]),
        "channel": _label("channel", record["channel"]),
        "project": _label("project", record["project"]),
        "layer": _choice("layer", record["layer"], Layer),
        "status": _choice("status", record["status"], Status),
        "pinned": _boolean("pinned", record["pinned"]),
        "stale": _boolean("stale", record["stale"]),
        "superseded_by_id": _optional(_id, "superseded_by", record["superseded_by"]),
        "expires_at": _optional(_time, "expires_at", record["expires_at"]),
        "confidence": _confidence(record["confidence"]),
        "source": _text("source", record["source"]),
        "source_kind": _choice("source_kind", record["source_kind"], SourceKind),
        "message_id": _optional(_id, "message_id", record["message_id"]),
        "flags": _array("flags", record["flags"]),
        "created_at": _time("created_at", record["created_at"]),
        "confirmed_at": _time("confirmed_at", record["confirmed_at"]),
        "last_accessed_at": _optional(_time, "last_accessed_at", record["last_accessed_at"]),
        "access_count": _count("access_count", record["access_count"]),
        "deleted_at": _optional(_time, "deleted_at", record["deleted_at"]),
    }
    _refuse_secrets(
        checked, **{name: fields[name] for name in ("text", "source", "subject", "user", "channel", "project")}
    )
    return fields


def _history_fields(record, checked, defaults):
    _check_keys(record, HISTORY_FIELDS, REQUIRED_HISTORY_FIELDS, "a history event")
    record = {**defaults, **record}
    sha = _string("text_sha256", record["text_sha256"])
    if sha and not _SHA256.fullmatch(sha):
        raise InvalidValue("text_sha256", f"must be empty or 64 lower-case hex digits, not {sha!r}")
    actor = _string("actor", record["actor"])
    if len(actor) > MAX_ACTOR_LENGTH:
        raise InvalidValue("actor", f"must be at most {MAX_ACTOR_LENGTH} characters")
    _refuse_secrets(checked, actor=actor)
    _refuse_secrets_in_values(record, checked)
    return {
        "id": _id("id", record["id"]),
        "memory_id": _optional(_id, "memory_id", record["memory_id"]),
        "event": _choice("event", record["event"], AuditEvent.Event),
        "actor": actor,
        "at": _time("at", record["at"]),
        # The values before and after a change are whatever that change recorded.
        "old": record["old"],
        "new": record["new"],
        "text_sha256": sha,
        "note": _string("note", record["note"]),
    }


def _refuse_secrets(checked, **fields):
    unchecked = {name: value for name, value in fields.items() if value not in checked}
    refuse_secrets("nothing was imported", **unchecked)
    checked.update(unchecked.values())


def _refuse_secrets_in_values(record, checked):
    """An event's values hold the memory's text before and after a change: a secret there is refused
    like one in a memory."""
    fields = {"note": record["note"]} if isinstance(record["note"], str) else {}
    for side in ("old", "new"):
        for name, value in _strings_in(record[side]):
            where = f"{side} {name}".strip()
            _storable(where, name)  # the keys too
            fields[where] = _storable(where, value)
    _refuse_secrets(checked, **fields)


def _strings_in(value, name=""):
    """Every string in an event's values, at any depth, with where it is: a secret may hide in any."""
    if isinstance(value, str):
        yield name, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings_in(item, f"{name}.{key}" if name else str(key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _strings_in(item, f"{name}[{index}]")


def _check_keys(record, fields, required, what):
    if not isinstance(record, dict):
        raise LifecycleError(f"must be an object ({what}), not {locating.json_type(record)}")
    missing = [key for key in required if key not in record]
    unknown = [key for key in record if key not in fields]
    if missing or unknown:
        raise LifecycleError(f"{what} {_key_problem(missing, unknown, fields, required)}")


def _key_problem(missing, unknown, fields, required):
    problems = []
    if missing:
        problems.append(f"lacks the required key{'s' * (len(missing) > 1)} {', '.join(missing)}")
    if unknown:
        problems.append(f"has the unknown key{'s' * (len(unknown) > 1)} {', '.join(map(repr, unknown))}")
    optional = [key for key in fields if key not in required]
    return f"{' and '.join(problems)} (it needs {', '.join(required)}; it may have {', '.join(optional)})"


def _choice(field, value, choices):
    # clean_choice builds the list of values anew on each call, a third of a large import's checking time.
    if isinstance(value, str) and value in _CHOICES[choices]:
        return value
    return clean_choice(field, value, choices)


def _optional(clean, field, value):
    return None if value is None else clean(field, value)


def _string(field, value):
    if not isinstance(value, str):
        raise InvalidValue(field, f"must be a string, not {locating.json_type(value)}")
    return _storable(field, value)


def _storable(field, value):
    """Import keeps every string as it is, so one no column can hold is refused, not cleaned."""
    surrogate = characters.lone_surrogate(value)
    if surrogate is not None:
        raise InvalidValue(field, f"is not valid text: it holds {surrogate}, half of a UTF-16 pair")
    if "\x00" in value:
        raise InvalidValue(field, "holds a NUL character, which no database column takes")
    return value


def _text(field, value):
    clean_text(_string(field, value), field)
    return value


def _kind(value):
    if clean_kind(_string("kind", value)) != value:
        # The write path strips spaces around a kind, so a stored kind never has any.
        raise InvalidValue("kind", f"must be a lower-case slug without spaces around it, not {value!r}")
    return value


def _label(field, value):
    clean_label(field, _string(field, value))
    # clean_label measures the label without the spaces around it; the column holds all of it.
    if len(value) > MAX_LABEL_LENGTH:
        raise InvalidValue(field, f"must be at most {MAX_LABEL_LENGTH} characters")
    return value


def _id(field, value):
    if type(value) is not int or not 0 < value <= MAX_ID:
        raise InvalidValue(field, f"must be a positive whole number, not {locating.json_value(value)}")
    return value


def _count(field, value):
    if type(value) is not int or not 0 <= value <= MAX_COUNT:
        raise InvalidValue(field, f"must be a whole number from 0 to {MAX_COUNT}, not {locating.json_value(value)}")
    return value


def _boolean(field, value):
    if type(value) is not bool:
        raise InvalidValue(field, f"must be true or false, not {locating.json_value(value)}")
    return value


def _confidence(value):
    if type(value) not in (int, float):
        raise InvalidValue("confidence", f"must be a number from 0 to 1, not {locating.json_value(value)}")
    return clean_confidence(value)


def _array(field, value):
    if not isinstance(value, list):
        raise InvalidValue(field, f"must be an array, not {locating.json_type(value)}")
    return value


def _time(field, value):
    """An aware datetime from ISO-8601 text with a time zone, like every time iso() writes."""
    example = "like 2026-12-01T09:00:00Z"
    if not isinstance(value, str):
        raise InvalidValue(field, f"must be an ISO-8601 time {example}, not {locating.json_type(value)}")
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        raise InvalidValue(field, f"must be an ISO-8601 time {example}, not {value!r}") from None
    if timezone.is_naive(parsed):
        raise InvalidValue(field, f"must include a time zone ({example}), not {value!r}")
    try:
        return parsed.astimezone(UTC)
    except OverflowError:
        raise InvalidValue(field, f"is out of range: {value!r}") from None


# Between records


def _check_supersede_chains(text, memories):
    """Nobody supersedes itself, and following superseded_by inside the document always ends."""
    index = {fields["id"]: i for i, fields in enumerate(memories)}
    successor = {}
    for i, fields in enumerate(memories):
        target = fields["superseded_by_id"]
        if target == fields["id"]:
            raise _invalid(text, "memories", i, fields, "superseded_by is the memory's own id")
        if target in index:
            successor[fields["id"]] = target
    done = set()
    for start in successor:
        path, on_path = [], set()
        current = start
        while current in successor and current not in done and current not in on_path:
            path.append(current)
            on_path.add(current)
            current = successor[current]
        if current in on_path:
            loop = path[path.index(current) :]
            first = min(index[i] for i in loop)
            chain = " -> ".join(map(str, loop + [loop[0]]))
            raise _invalid(
                text,
                "memories",
                first,
                memories[first],
                f"superseded_by goes round in a loop: {chain}",
            )
        done.update(path)


def _check_supersede_targets(text, memories):
    in_document = {fields["id"] for fields in memories}
    outside = {fields["superseded_by_id"] for fields in memories} - in_document - {None}
    unknown = outside - _existing(Memory, outside)
    for i, fields in enumerate(memories):
        if fields["superseded_by_id"] in unknown:
            raise _invalid(
                text,
                "memories",
                i,
                fields,
                f"superseded_by {fields['superseded_by_id']} is neither in this document nor in the store",
            )


def _check_not_in_store(text, name, rows, model):
    clashes = _existing(model, [fields["id"] for fields in rows])
    if not clashes:
        return
    first = next(i for i, fields in enumerate(rows) if fields["id"] in clashes)
    shown = ", ".join(map(str, sorted(clashes)[:10])) + (", …" if len(clashes) > 10 else "")
    what = "memory" if model is Memory else "history event"
    raise _invalid(
        text,
        name,
        first,
        rows[first],
        f"a {what} with this id is already in the store ({len(clashes)} of the document's ids are: {shown});"
        " import into an empty store, or run `bestie memory clear --yes` first",
    )


def _existing(model, ids):
    """Which of ``ids`` are in ``model``'s table, asked in batches that fit SQLite's variable limit."""
    ids = sorted(ids)
    found = set()
    for start in range(0, len(ids), _BATCH):
        found.update(model.objects.filter(pk__in=ids[start : start + _BATCH]).values_list("pk", flat=True))
    return found


# Saying where

_STRICT = json.JSONDecoder(object_pairs_hook=_unique_keys, parse_constant=_no_constant)


def _invalid(text, name, index, record, reason):
    where = f"{name}[{index}]"
    if isinstance(record, dict) and "id" in record:
        where += f" (id {locating.json_value(record['id'])})"
    return InvalidDocument(f"line {locating.line(text, (name, index))}: {where}: {reason}")


def _reason(error):
    """``kind must be …``: after ``memories[3] (id 7):`` a second colon would read badly."""
    if isinstance(error, InvalidValue):
        return str(error).replace(f"{error.field}: ", f"{error.field} ", 1)
    return str(error)
