"""Full-text search over memory and message text, insensitive to case and diacritics.

SQLite: an FTS5 index per table (``memory_fts``, ``message_fts``) with external content, kept in sync by
triggers so that every write path (the ORM, bulk updates, an owner's own SQL) updates it. ``secure-delete``
makes a deleted row's words leave the index at once, which forgetting relies on.
PostgreSQL: a GIN expression index on ``to_tsvector('simple', bestie_fold(text))``, where ``bestie_fold`` is
an immutable wrapper of ``unaccent``.

Both fold "đ" to "d" like ``memories.language.folding.fold`` does for the query, so "da nang" finds "Đà Nẵng".
"""

from django.db import connection
from django.db.models import BooleanField, F, FloatField, Func, Value

from memories.language.folding import search_terms

# Tables whose ``text`` column is indexed, and the name of their index.
INDEXED_TABLES = {"memory": "memory_fts", "memory_message": "message_fts"}

_SQLITE_FOLD = "replace(replace({}, 'đ', 'd'), 'Đ', 'D')"

# SPEC §2's live, in SQL: the ``live_memory`` view and the write path's raw lookups. ``Memory.objects.live()``
# is the same condition for the ORM, ``Memory.state`` for one row in Python.
LIVE_CONDITION = (
    "status = 'approved' AND superseded_by_id IS NULL AND deleted_at IS NULL"
    " AND (expires_at IS NULL OR expires_at > {now})"
)


def _sqlite_statements(table, index):
    new_text = _SQLITE_FOLD.format("new.text")
    old_text = _SQLITE_FOLD.format("old.text")
    return [
        f"CREATE VIRTUAL TABLE IF NOT EXISTS {index} USING fts5("
        f"text, content='{table}', content_rowid='id', tokenize='unicode61 remove_diacritics 2')",
        f"INSERT INTO {index}({index}, rank) VALUES ('secure-delete', 1)",
        f"CREATE TRIGGER IF NOT EXISTS {index}_insert AFTER INSERT ON {table} BEGIN "
        f"INSERT INTO {index}(rowid, text) VALUES (new.id, {new_text}); END",
        f"CREATE TRIGGER IF NOT EXISTS {index}_delete AFTER DELETE ON {table} BEGIN "
        f"INSERT INTO {index}({index}, rowid, text) VALUES ('delete', old.id, {old_text}); END",
        f"CREATE TRIGGER IF NOT EXISTS {index}_update AFTER UPDATE OF text ON {table} "
        f"WHEN old.text IS NOT new.text BEGIN "
        f"INSERT INTO {index}({index}, rowid, text) VALUES ('delete', old.id, {old_text}); "
        f"INSERT INTO {index}(rowid, text) VALUES (new.id, {new_text}); END",
    ]


def install(schema_connection):
    """Create the full-text indexes and their triggers. Idempotent.

    Runs from the migration and again after every ``migrate``: rebuilding a table (as SQLite migrations
    do) drops its triggers, and an index that missed writes is rebuilt from the table.
    """
    with schema_connection.cursor() as cursor:
        if schema_connection.vendor == "sqlite":
            for table, index in INDEXED_TABLES.items():
                cursor.execute(
                    "SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name LIKE %s",
                    [f"{index}_%"],
                )
                intact = cursor.fetchone()[0] == 3
                for statement in _sqlite_statements(table, index):
                    cursor.execute(statement)
                if not intact:
                    cursor.execute(f"INSERT INTO {index}({index}) VALUES ('delete-all')")
                    cursor.execute(
                        f"INSERT INTO {index}(rowid, text) SELECT id, {_SQLITE_FOLD.format('text')} FROM {table}"
                    )
        else:
            cursor.execute("CREATE EXTENSION IF NOT EXISTS unaccent")
            cursor.execute(
                "CREATE OR REPLACE FUNCTION bestie_fold(value text) RETURNS text"
                " LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE"
                " AS $$ SELECT lower(public.unaccent('public.unaccent'::regdictionary, value)) $$"
            )
            for table, index in INDEXED_TABLES.items():
                cursor.execute(
                    f"CREATE INDEX IF NOT EXISTS {index} ON {table}"
                    f" USING gin (to_tsvector('simple'::regconfig, bestie_fold(text)))"
                )


def install_live_view(schema_connection):
    """``live_memory``: what retrieval may see, for an owner reading the file with sqlite3 or psql.

    Created after every ``migrate`` and dropped before it, because a view over ``memory`` would stop
    SQLite from rebuilding the table and PostgreSQL from changing a column type.
    """
    if schema_connection.vendor == "sqlite":
        now = "strftime('%Y-%m-%d %H:%M:%f', 'now')"
    else:
        now = "now()"
    with schema_connection.cursor() as cursor:
        cursor.execute("DROP VIEW IF EXISTS live_memory")
        cursor.execute(f"CREATE VIEW live_memory AS SELECT * FROM memory WHERE {LIVE_CONDITION.format(now=now)}")


def drop_live_view(schema_connection):
    with schema_connection.cursor() as cursor:
        cursor.execute("DROP VIEW IF EXISTS live_memory")


def uninstall(schema_connection):
    with schema_connection.cursor() as cursor:
        for index in INDEXED_TABLES.values():
            if schema_connection.vendor == "sqlite":
                for suffix in ("insert", "delete", "update"):
                    cursor.execute(f"DROP TRIGGER IF EXISTS {index}_{suffix}")
                cursor.execute(f"DROP TABLE IF EXISTS {index}")
            else:
                cursor.execute(f"DROP INDEX IF EXISTS {index}")


# PostgreSQL: the indexed expression (it must read exactly as the GIN index does), a tsquery, and a match.
PG_VECTOR = "to_tsvector('simple'::regconfig, bestie_fold(text))"


def pg_vector():
    return Func(Func(F("text"), function="bestie_fold"), template="to_tsvector('simple'::regconfig, %(expressions)s)")


def pg_tsquery(expression):
    return Func(Value(expression), template="to_tsquery('simple'::regconfig, %(expressions)s)")


def pg_matches(tsquery):
    return Func(pg_vector(), tsquery, template="%(expressions)s", arg_joiner=" @@ ", output_field=BooleanField())


def matching(queryset, query):
    """``queryset`` narrowed to rows whose text contains every word of ``query`` (prefixes allowed),
    annotated with ``rank`` (lower is better) and ordered best first.

    An empty query (no words) matches nothing.
    """
    terms = search_terms(query)
    if not terms:
        return queryset.none()
    if connection.vendor == "sqlite":
        expression = " AND ".join(f'"{term}"*' for term in terms)
        return (
            queryset.filter(search_entry__text__match=expression)
            .annotate(rank=F("search_entry__rank"))
            .order_by("rank", "id")
        )
    tsquery = pg_tsquery(" & ".join(f"{term}:*" for term in terms))
    rank = Func(pg_vector(), tsquery, template="-ts_rank(%(expressions)s)", output_field=FloatField())
    return queryset.filter(pg_matches(tsquery)).annotate(rank=rank).order_by("rank", "id")
