"""Export: every memory and the audit history as one JSON document, streamed."""

from collections import Counter
from dataclasses import dataclass

import orjson
from django.core.exceptions import EmptyResultSet
from django.db import connection, connections
from django.db.models import (
    BooleanField,
    DateTimeField,
    F,
    Func,
    JSONField,
    TextField,
    Value,
)
from django.utils import timezone

from memories.models import AuditEvent, Memory
from memories.times import iso
from memories.transfer.document import (
    FORMAT,
    HISTORY_FIELDS,
    MEMORY_FIELDS,
    VERSION,
)

# Records per chunk: few enough to keep memory flat, enough that the writer is not called per line.
CHUNK_RECORDS = 500
# Fields whose column holds JSON text.
_JSON_FIELDS = {"flags", "old", "new"}
# SQLite hands back naive UTC datetimes, PostgreSQL aware ones in UTC: both come out as ...Z, like iso().
_ORJSON_OPTIONS = orjson.OPT_NAIVE_UTC | orjson.OPT_UTC_Z


@dataclass(frozen=True)
class ExportResult:
    memories: int
    history: int


def iter_export(memories=None, *, exported_at=None):
    """The export document as str chunks, read from the database while it is written out.

    ``memories`` narrows the export to a queryset (the console's filtered download); the history then
    holds only the events of those memories. Without it every memory and the whole history go out.
    """
    return _export_chunks(memories, exported_at, Counter())


def write_export(out, memories=None, *, exported_at=None):
    """Write the export document to the text file ``out``; returns how many records it holds."""
    tally = Counter()
    for chunk in _export_chunks(memories, exported_at, tally):
        out.write(chunk)
    return ExportResult(memories=tally["memories"], history=tally["history"])


def _export_chunks(memories, exported_at, tally):
    if memories is None:
        memories, history = Memory.objects.all(), AuditEvent.objects.all()
    else:
        history = _history_of(memories)
    exported_at = iso(exported_at or timezone.now())
    # One record per line, so that memories[i] is on line i + 3 and two exports diff record by record.
    yield f'{{"format": "{FORMAT}", "version": {VERSION}, "exported_at": "{exported_at}",\n"memories": ['
    yield from _record_chunks(memories, MEMORY_FIELDS, tally, "memories")
    yield '\n],\n"history": ['
    yield from _record_chunks(history, HISTORY_FIELDS, tally, "history")
    yield "\n]}\n"


def _history_of(memories):
    """The audit events of the memories of a queryset, in one query whatever their number."""
    return AuditEvent.objects.filter(memory_id__in=memories.order_by().values("id"))


def _sqlite_json_object(model, fields):
    """On SQLite each record is made into its JSON line by SQLite's ``json_object`` (C, no per-value
    Python): times as ``iso()`` writes them (the stored ``YYYY-MM-DD HH:MM:SS[.ffffff]`` is UTC),
    booleans as true/false, JSON columns as JSON. Numbers keep 15 significant digits."""
    by_column = {field.attname: field for field in model._meta.concrete_fields}
    arguments = []
    for name, column in fields.items():
        field = by_column[column]
        if isinstance(field, DateTimeField):
            value = Func(F(column), template="replace(%(expressions)s, ' ', 'T') || 'Z'")
        elif isinstance(field, BooleanField):
            value = Func(F(column), template="json(CASE WHEN %(expressions)s THEN 'true' ELSE 'false' END)")
        elif isinstance(field, JSONField):
            value = Func(F(column), function="json")
        else:
            value = F(column)
        arguments += [Value(name), value]
    return Func(*arguments, function="json_object", output_field=TextField())


def _lines(queryset, fields):
    """Each row of ``queryset`` as its exported JSON object (the fields of ``fields``, times by ``iso``), encoded."""
    if connection.vendor == "sqlite":
        for (line,) in database_rows(queryset, [_sqlite_json_object(queryset.model, fields)]):
            yield line.encode()
        return
    names = list(fields)
    # JSON columns hold JSON text already: it goes into the line as it is.
    json_columns = [i for i, field in enumerate(names) if field in _JSON_FIELDS]
    for row in database_rows(queryset, fields.values()):
        row = list(row)
        for i in json_columns:
            if row[i] is not None:
                row[i] = orjson.Fragment(row[i])
        yield orjson.dumps(dict(zip(names, row)), option=_ORJSON_OPTIONS)


def _record_chunks(queryset, fields, tally, name):
    """The records of ``queryset`` in id order, one per line, in chunks of ``CHUNK_RECORDS``."""
    lines = []
    separator = b"\n"
    for line in _lines(queryset.order_by("id"), fields):
        lines.append(line)
        if len(lines) == CHUNK_RECORDS:
            yield (separator + b",\n".join(lines)).decode()
            tally[name] += len(lines)
            lines = []
            separator = b",\n"
    if lines:
        yield (separator + b",\n".join(lines)).decode()
        tally[name] += len(lines)


def database_rows(queryset, columns):
    """The rows of ``values_list(*columns)`` as the database driver returns them, in the queryset's order.

    A plain ``values_list`` would run each value through Django's converters, which makes an export or a
    ``list --json`` four times slower; the driver already gives booleans, numbers and datetimes (naive
    UTC on SQLite, aware on PostgreSQL), and JSON comes as text.
    """
    try:
        sql, params = queryset.values_list(*columns).query.get_compiler(queryset.db).as_sql()
    except EmptyResultSet:
        return
    # A server-side cursor on PostgreSQL, so that rows arrive as they are read, not all at once.
    with connections[queryset.db].chunked_cursor() as cursor:
        cursor.execute(sql, params)
        while rows := cursor.fetchmany(2000):
            yield from rows
