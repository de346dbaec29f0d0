"""What the console's tests share: the owner's actor, the htmx header, a proposal, a memory's events, and the
plans of the statements a page runs."""

import re

from memories.models import AuditEvent
from tests.factories import add_memory

ACTOR = "owner:owner"
HTMX = {"HTTP_HX_REQUEST": "true"}


def propose(text="User prefers tea in the morning.", **fields):
    fields.setdefault("source", "telegram message 17")
    fields.setdefault("source_kind", "user_message")
    fields.setdefault("actor", "agent:bestie")
    return add_memory(text, status="pending", **fields)


def events(memory_id, event=None):
    rows = AuditEvent.objects.filter(memory_id=memory_id)
    return list(rows.filter(event=event) if event else rows)


def text_of(response):
    return response.content.decode()


def plans_of(function, table="memory"):
    """SQLite's plan for each statement reading ``table`` that ``function`` runs, as ``[(sql, plan)]``.
    (PostgreSQL plans a test's few rows unlike a store's thousands; its plans at 100k memories are in
    docs/benchmarks.md.)"""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        function()
    statements = [sql for query in queries if (sql := query["sql"]).startswith("SELECT") and f'FROM "{table}" ' in sql]
    plans = []
    with connection.cursor() as cursor:
        for sql in statements:
            cursor.execute("EXPLAIN QUERY PLAN " + sql)
            plans.append((sql, " ".join(str(row[-1]) for row in cursor.fetchall())))
    return plans


def uses_index(plan, name):
    """Whether a plan of ``plans_of`` goes through the index ``name`` (not one whose name starts the same)."""
    return re.search(rf"\b{name}\b", plan) is not None


def reads_the_table(sql, table="memory"):
    """Whether SQLite's program for ``sql`` reads a column of ``table`` itself, not only of its indexes."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT rootpage FROM sqlite_schema WHERE type = 'table' AND name = %s", [table])
        root = cursor.fetchone()[0]
        cursor.execute("EXPLAIN " + sql)
        program = cursor.fetchall()
    # Columns of EXPLAIN: addr, opcode, p1, p2, ...; OpenRead's p1 is the cursor and p2 the root page.
    cursors = {row[2] for row in program if row[1] == "OpenRead" and row[3] == root}
    return any(row[1] == "Column" and row[2] in cursors for row in program)


def set_planner_statistics(statistics):
    """SQLite's planner statistics as a store can have them: ``none`` (a new store) or ``sampled`` (what
    every prune leaves)."""
    from django.db import connection

    from governance import prune

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE sqlite_schema")  # sqlite_stat1 exists
        cursor.execute("DELETE FROM sqlite_stat1")
        if statistics == "sampled":
            prune.refresh_planner_statistics()
        cursor.execute("ANALYZE sqlite_schema")  # the planner reads the statistics again
