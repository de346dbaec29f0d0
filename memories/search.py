"""Full-text search over memory and message text, insensitive to case and diacritics.

SQLite: an FTS5 index per table (``memory_fts``, ``message_fts``) with external content, kept in sync by
triggers so that every write path (the ORM, bulk updates, an owner's own SQL) updates it. ``secure-delete``
makes a deleted row's words leave the index at once, which forgetting relies on.
PostgreSQL: a stored generated column ``search_vector`` on each table, ``to_tsvector('simple',
bestie_fold(text))``, with a GIN index (``memory_search_vector``, ``message_search_vector``). PostgreSQL
computes it on every insert and every change of ``text``, whatever writes it, and it leaves with its row;
ranking and rechecks read it instead of folding the text again. ``bestie_fold`` is plain SQL, with no
extension (see ``PG_FOLD``).

Both fold "đ" to "d" like ``memories.language.folding.fold`` does for the query, so "da nang" finds "Đà Nẵng".
"""

import re
from typing import NamedTuple

from django.db import connection, transaction
from django.db.models import BooleanField, Expression, F, Field, FloatField, Func, Value

from memories.language.folding import fold
from memories.language.people import WHOSE_INDEXED, words_after_whose_for
from memories.language.states import other_names, things_of_kind
from memories.language.words import (
    could_be_vietnamese,
    english_forms,
    phrasal_words,
    reads_as_english,
    search_words,
    singular,
)

# A word an OR search may hold: letters and digits only, so it is never read as the search's own syntax.
_SEARCHABLE = re.compile(r"\w+")

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
    if schema_connection.vendor == "postgresql":
        install_stored_vectors(schema_connection)


# PostgreSQL's ``bestie_fold``: what ``memories.language.folding.fold`` does, in built-in SQL (no extension):
# "đ" by hand (it has no decomposition) and "ß" as ``casefold`` has it, then NFKD and the combining marks
# dropped, then lower case. It gives ``fold``'s answer for every Latin letter with diacritics (U+00C0-U+024F,
# U+1E00-U+1EFF; ``tests/test_search_postgres.py``), as ``unaccent`` did not ("ø", "ł", "æ"). Immutable, so
# that a generated column may use it; it needs a UTF-8 database, as ``normalize`` does.
PG_FOLD = (
    "CREATE OR REPLACE FUNCTION bestie_fold(value text) RETURNS text"
    " LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE"
    " AS $$ SELECT lower(regexp_replace(normalize("
    "replace(replace(translate(value, 'đĐ', 'dD'), 'ß', 'ss'), 'ẞ', 'ss'), NFKD),"
    " '[\\u0300-\\u036f\\u1ab0-\\u1aff\\u1dc0-\\u1dff\\u20d0-\\u20ff\\ufe20-\\ufe2f]', '', 'g')) $$"
)
# The stored column each indexed table carries on PostgreSQL, and its index.
PG_COLUMN = "search_vector"
PG_INDEXES = {"memory": "memory_search_vector", "memory_message": "message_search_vector"}


def install_stored_vectors(schema_connection):
    """PostgreSQL: ``bestie_fold``, the stored ``search_vector`` columns and their GIN indexes. Idempotent.

    Adding a column computes it for every row in one pass (a table rewrite, under an exclusive lock: a
    100,000-memory store takes seconds). The GIN expression indexes of earlier versions are dropped.
    Does nothing on SQLite.
    """
    if schema_connection.vendor != "postgresql":
        return
    with transaction.atomic(using=schema_connection.alias), schema_connection.cursor() as cursor:
        cursor.execute(PG_FOLD)
        for table, index in PG_INDEXES.items():
            cursor.execute(
                f"ALTER TABLE {table} ADD COLUMN IF NOT EXISTS {PG_COLUMN} tsvector"
                f" GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, bestie_fold(text))) STORED"
            )
            # No pending list: every search reads the index as it is, not a list of recent writes besides.
            cursor.execute(
                f"CREATE INDEX IF NOT EXISTS {index} ON {table} USING gin ({PG_COLUMN}) WITH (fastupdate = off)"
            )
            cursor.execute(f"DROP INDEX IF EXISTS {INDEXED_TABLES[table]}")
        install_vocabulary(cursor)


# PostgreSQL's counterpart of FTS5's vocabulary: how many memories hold each word of ``search_vector``, and
# under the empty word (which no tsvector holds) how many memories there are. A GIN index cannot count
# without reading every matching row of the table; this table answers BM25's document frequencies from its
# primary key. Triggers keep it: one statement per write statement, from its transition tables, and a word
# whose count reaches 0 leaves (a forgotten memory's words with it). Every statement that changes it takes
# the total's row first, so two writers never wait for each other's words in opposite orders.
PG_VOCABULARY = "memory_vocabulary"
# The words FTS5 would count: the parser also keeps "mobile-app", "a@b.com" or "1.2.3" whole beside their
# parts, which would count "mobile-app" twice for the prefix "mobil".
_PG_WORD = "term !~ '[[:punct:]]'"
_PG_VOCABULARY_UPSERT = f"""
    upserted AS (
        INSERT INTO {PG_VOCABULARY} AS v (term, documents) SELECT term, documents FROM change ORDER BY term
        ON CONFLICT (term) DO UPDATE SET documents = v.documents + excluded.documents RETURNING term, documents
    )
    SELECT array_agg(term) INTO emptied FROM upserted WHERE documents <= 0 AND term <> ''"""
_PG_VOCABULARY_FUNCTION = f"""
CREATE OR REPLACE FUNCTION {PG_VOCABULARY}_count() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    emptied text[];
BEGIN
    IF TG_OP = 'TRUNCATE' THEN
        DELETE FROM {PG_VOCABULARY};
        INSERT INTO {PG_VOCABULARY} (term, documents) VALUES ('', 0);
        RETURN NULL;
    ELSIF TG_OP = 'INSERT' THEN
        WITH change AS (
            SELECT '' AS term, count(*) AS documents FROM new_rows
            UNION ALL SELECT term, count(*) FROM new_rows, unnest(tsvector_to_array({PG_COLUMN})) AS term
            WHERE {_PG_WORD} GROUP BY term
        ), {_PG_VOCABULARY_UPSERT};
    ELSIF TG_OP = 'DELETE' THEN
        WITH change AS (
            SELECT '' AS term, -count(*) AS documents FROM old_rows
            UNION ALL SELECT term, -count(*) FROM old_rows, unnest(tsvector_to_array({PG_COLUMN})) AS term
            WHERE {_PG_WORD} GROUP BY term
        ), {_PG_VOCABULARY_UPSERT};
    ELSE
        WITH changed AS (
            SELECT n.{PG_COLUMN} AS new_vector, o.{PG_COLUMN} AS old_vector
            FROM new_rows n JOIN old_rows o ON o.id = n.id WHERE n.{PG_COLUMN} <> o.{PG_COLUMN}
        ), words AS (
            SELECT term, sum(documents) AS documents FROM (
                SELECT unnest(tsvector_to_array(new_vector)) AS term, 1 AS documents FROM changed
                UNION ALL SELECT unnest(tsvector_to_array(old_vector)), -1 FROM changed
            ) each_word WHERE {_PG_WORD} GROUP BY term HAVING sum(documents) <> 0
        ), change AS (
            SELECT '' AS term, 0::bigint AS documents WHERE EXISTS (SELECT FROM words)
            UNION ALL SELECT term, documents FROM words
        ), {_PG_VOCABULARY_UPSERT};
    END IF;
    IF emptied IS NOT NULL THEN
        DELETE FROM {PG_VOCABULARY} WHERE term = ANY (emptied) AND documents <= 0;
    END IF;
    RETURN NULL;
END $$
"""
_PG_VOCABULARY_TRIGGERS = {
    "insert": "AFTER INSERT ON memory REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT",
    "delete": "AFTER DELETE ON memory REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT",
    # Transition tables cannot go with ``UPDATE OF text``: the function compares the vectors instead.
    "update": "AFTER UPDATE ON memory REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT",
    "truncate": "AFTER TRUNCATE ON memory FOR EACH STATEMENT",
}


def install_vocabulary(cursor):
    """PostgreSQL: ``memory_vocabulary``, its function and triggers; counted again from ``memory`` in one
    statement when a trigger was missing (as SQLite's index is rebuilt)."""
    cursor.execute(
        f'CREATE TABLE IF NOT EXISTS {PG_VOCABULARY} (term text COLLATE "C" PRIMARY KEY, documents bigint NOT NULL)'
    )
    cursor.execute(
        "SELECT count(*) FROM pg_trigger WHERE tgrelid = 'memory'::regclass AND tgname LIKE %s",
        [f"{PG_VOCABULARY}_%"],
    )
    intact = cursor.fetchone()[0] == len(_PG_VOCABULARY_TRIGGERS)
    cursor.execute(f"SELECT count(*) FROM {PG_VOCABULARY} WHERE term = ''")
    intact = intact and cursor.fetchone()[0] == 1
    cursor.execute(_PG_VOCABULARY_FUNCTION)
    for name, when in _PG_VOCABULARY_TRIGGERS.items():
        cursor.execute(f"DROP TRIGGER IF EXISTS {PG_VOCABULARY}_{name} ON memory")
        cursor.execute(f"CREATE TRIGGER {PG_VOCABULARY}_{name} {when} EXECUTE FUNCTION {PG_VOCABULARY}_count()")
    if not intact:
        cursor.execute("LOCK TABLE memory IN SHARE MODE")
        cursor.execute(f"DELETE FROM {PG_VOCABULARY}")
        cursor.execute(
            f"INSERT INTO {PG_VOCABULARY} (term, documents) SELECT '', count(*) FROM memory"
            f" UNION ALL SELECT term, count(*) FROM memory, unnest(tsvector_to_array({PG_COLUMN})) AS term"
            f" WHERE {_PG_WORD} GROUP BY term"
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
    uninstall_stored_vectors(schema_connection)


def uninstall_stored_vectors(schema_connection):
    """PostgreSQL: drop what ``install_stored_vectors`` made (the vocabulary, its function and triggers,
    the stored columns with their indexes). Does nothing on SQLite."""
    if schema_connection.vendor != "postgresql":
        return
    with schema_connection.cursor() as cursor:
        cursor.execute(f"DROP TABLE IF EXISTS {PG_VOCABULARY}")
        cursor.execute(f"DROP FUNCTION IF EXISTS {PG_VOCABULARY}_count() CASCADE")
        for table in PG_INDEXES:
            cursor.execute(f"ALTER TABLE {table} DROP COLUMN IF EXISTS {PG_COLUMN}")


# PostgreSQL: the indexed column (in raw SQL over ``memory``), a tsquery, and a match.
PG_VECTOR = PG_COLUMN


class StoredVector(Expression):
    """The ``search_vector`` column of the queryset's own table (``memory`` or ``memory_message``): not a
    model field, since SQLite has no such column."""

    output_field = Field()

    def as_sql(self, compiler, connection):
        alias = compiler.query.get_initial_alias()
        return f"{compiler.quote_name_unless_alias(alias)}.{PG_COLUMN}", []


def pg_vector():
    return StoredVector()


def pg_tsquery(expression):
    return Func(Value(expression), template="to_tsquery('simple'::regconfig, %(expressions)s)")


def pg_matches(tsquery):
    return Func(pg_vector(), tsquery, template="%(expressions)s", arg_joiner=" @@ ", output_field=BooleanField())


def matching(queryset, query, *, kinds=False):
    """``queryset`` narrowed to rows whose text contains every word of ``query`` (a word typed without
    diacritics may be the start of one) but the words of a question that say nothing (``search_words``),
    annotated with ``rank`` (lower is better) and
    ordered best first. With ``kinds`` (search as the owner types it), a word naming a kind of thing is also
    held by a memory naming one of its things (``search_alternatives``: "pets" by "User has two cats"). A
    phrasal verb is searched as the word it means or the words a memory may say it with (``phrasal_words``:
    "go to bed" by "sleeps" or "goes to bed"); a relation by the words naming it after a word saying whose
    (``people.words_after_whose_for``: "boss" by "my manager", not "package manager").

    An empty query (no words) matches nothing.
    """
    terms = search_words(query)
    if not terms:
        return queryset.none()
    english = reads_as_english(term for term, _ in terms)
    phrasal = phrasal_words(query)
    words = [
        (search_alternatives(term, english, prefix) if kinds else [(term, prefix)])
        + [(word, False) for word in phrasal.get(term, ())]
        + [(f"{whose} {word}", False) for word in words_after_whose_for(term) for whose in sorted(WHOSE_INDEXED)]
        for term, prefix in terms
    ]
    if connection.vendor == "sqlite":
        expression = " AND ".join(
            "(" + " OR ".join(f'"{word}"' + ("*" if prefix else "") for word, prefix in either) + ")"
            for either in words
        )
        return (
            queryset.filter(search_entry__text__match=expression)
            .annotate(rank=F("search_entry__rank"))
            .order_by("rank", "id")
        )
    expression = " & ".join(
        "(" + " | ".join(word.replace(" ", " <-> ") + (":*" if prefix else "") for word, prefix in either) + ")"
        for either in words
    )
    tsquery = pg_tsquery(expression)
    rank = Func(pg_vector(), tsquery, template="-ts_rank(%(expressions)s)", output_field=FloatField())
    return queryset.filter(pg_matches(tsquery)).annotate(rank=rank).order_by("rank", "id")


def search_alternatives(term, english, prefix=True):
    """``[(word, prefix)]``: a folded search word, as a prefix when ``prefix``, and when it names a kind of
    thing (``states.things_of_kind``) each thing of it and its plural, whole: "pets" is also "cat", "dogs".
    Only in English: in a query that reads as English (``english``), or a word no Vietnamese syllable is
    spelt as."""
    kind = words_of_kind((singular(term),)) if english or not could_be_vietnamese(term) else frozenset()
    return [(term, prefix)] + [(word, False) for word in sorted(kind | other_names(term)) if word != term]


def words_of_kind(name):
    """The words naming a thing of the kind ``name`` (a tuple of folded words) calls, and their plurals:
    ("pet",) -> {"cat", "cats", "dog", "dogs", …} (``states.things_of_kind``); empty for any other name."""
    things = things_of_kind(name)
    return things | {form for thing in things for form in english_forms(thing) if form.endswith("s")}


# The share of the store holding an OR search's words from which PostgreSQL finds the newest by walking back
# from the newest memory, not by sorting all that hold them (``matching_any``'s ``common``).
MANY_HOLD = 0.01


def matching_any(queryset, phrases, *, common=False):
    """``queryset`` narrowed to rows whose text holds one of ``phrases``, newest first: an OR search, for the
    write path's looks beyond a proposal's own subject. Each phrase is ``(words, prefix)``: the words it must
    all hold, as prefixes when ``prefix`` ("liv" for "lives"), else whole. No phrase matches nothing.
    ``common``: the words may be common (names: one may be in a memory in a hundred); on PostgreSQL, when the
    index's counts say more than ``MANY_HOLD`` of the store hold them, the primary key is walked backwards to
    the caller's limit instead of sorting them all."""
    found = []
    for words, prefix in phrases:
        words = tuple(word for word in (fold(word).lower() for word in words) if _SEARCHABLE.fullmatch(word))
        if words and (words, prefix) not in found:
            found.append((words, prefix))
    if not found:
        return queryset.none()
    if connection.vendor == "sqlite":
        expression = " OR ".join(
            "(" + " AND ".join(f'"{word}"' + ("*" if prefix else "") for word in words) + ")" for words, prefix in found
        )
        # By the index's rowid: SQLite walks the index backwards and stops at the caller's limit instead of
        # sorting every match.
        return queryset.filter(search_entry__text__match=expression).order_by(F("search_entry__memory_id").desc())
    expression = " | ".join(
        "(" + " & ".join(word + (":*" if prefix else "") for word in words) + ")" for words, prefix in found
    )
    # Found in the GIN index and sorted, not by walking the primary key backwards (``id + 0`` is not its
    # order) past every other memory; unless many hold them, when the walk ends soon.
    if common:
        held, total = frequencies([SearchTerm(word, prefix) for words, prefix in found for word in words])
        common = sum(held.values()) > total * MANY_HOLD
    return queryset.filter(pg_matches(pg_tsquery(expression))).order_by("-id" if common else (F("id") + 0).desc())


class SearchTerm(NamedTuple):
    """A word as ``frequencies`` counts it: folded, maybe a prefix, with other words that count as it."""

    text: str
    prefix: bool = False
    forms: frozenset = frozenset()


def frequencies(terms):
    """``({term: number of memories holding it}, number of memories)`` over the whole table, from the index's
    own counts. A term has ``text``, ``prefix`` (a word it begins counts) and ``forms`` (other words that
    count as it)."""
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute(
                "CREATE VIRTUAL TABLE IF NOT EXISTS temp.memory_fts_vocabulary USING fts5vocab(main, memory_fts, row)"
            )
            # The index's own row count (its "averages" record) costs nothing; count(*) reads the table.
            parts, params = ["(SELECT block FROM memory_fts_data WHERE id = 1)"], []
            table, documents = "temp.memory_fts_vocabulary", "doc"
        else:
            # The same sums from ``memory_vocabulary``, its primary key and no row of ``memory``.
            parts, params = [f"(SELECT documents FROM {PG_VOCABULARY} WHERE term = '')"], []
            table, documents = PG_VOCABULARY, "documents"
        # A term's memories: those holding its text (or a word it is the prefix of) plus those holding
        # each of its other forms; a memory holding two forms counts twice, as it would for a prefix.
        for term in terms:
            sums = []
            if term.prefix:
                sums.append(f"(SELECT coalesce(sum({documents}), 0) FROM {table} WHERE term >= %s AND term < %s)")
                params += [term.text, after_prefix(term.text)]
            for word in ([] if term.prefix else [term.text]) + sorted(term.forms):
                sums.append(f"(SELECT coalesce(sum({documents}), 0) FROM {table} WHERE term = %s)")
                params.append(word)
            parts.append("(" + " + ".join(sums) + ")")
        cursor.execute("SELECT " + ", ".join(parts), params)
        total, *counts = cursor.fetchone()
        counts = [int(count) for count in counts]
    if connection.vendor == "sqlite":
        total = _varint(total) if total else 0
    return dict(zip(terms, counts)), total or 0


def _varint(data):
    """The first SQLite varint of ``data``: FTS5's averages record starts with the number of rows."""
    value = 0
    for index, byte in enumerate(data[:9]):
        if index == 8:
            return (value << 8) | byte
        value = (value << 7) | (byte & 0x7F)
        if not byte & 0x80:
            return value
    return value


def after_prefix(prefix):
    """The smallest string greater than every string that starts with ``prefix``."""
    return prefix[:-1] + chr(ord(prefix[-1]) + 1)
