"""The pending queue page with ~100k pending proposals, against the raw SQL of the same page.

    .venv/bin/python bench/console_figures.py                      # SQLite file var/bench-console.sqlite3
    .venv/bin/python bench/console_figures.py --database-url postgres://postgres@127.0.0.1:5432/bench_console

Builds a store with bench/generate.py (--size, default 120,000), then sets most of it pending. For 1k,
10k and all pending it times, server side (the Django view through middleware, filters, paginator and
template; no network), the median of --runs requests of: the first page, a page deep in the queue, a
filtered page, a search, and the htmx fragment. The baseline is the same page's SQL (the 50 rows and
their messages, plus one) run raw on the same connection, so the difference is what the console adds.
With 10k pending it also approves a whole filtered set (about 6,000) through the confirmation page and its
POST, against a plain UPDATE of the same rows (rolled back).
The target (issue #3): under 200 ms with 100k pending, and no growth with the number pending.
Rebuilds the store first unless --reuse is given.
"""

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

PENDING_LEVELS = (1_000, 10_000, None)  # None: every row that can be pending

PAGES = {
    "first page": {},
    "page 100": {"page": "100"},
    "flagged, source kind": {"flagged": "true", "source_kind": "tool_output"},
    "search 'tieng viet'": {"q": "tieng viet"},
    "user + project + dates": {"user": "owner", "project": "bestie", "created_after": "2025-01-01"},
}


def median_ms(function, runs):
    """Median wall time and median CPU time of this process, in ms. On a busy machine the wall time
    includes waiting for a CPU; the CPU time does not (but leaves out PostgreSQL's own work)."""
    function()  # warm caches: the figure is the steady state an owner sees while reviewing
    wall, cpu = [], []
    for _ in range(runs):
        started, started_cpu = time.perf_counter(), time.process_time()
        function()
        wall.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - started_cpu) * 1000)
    return round(statistics.median(wall), 1), round(statistics.median(cpu), 1)


def set_pending(limit):
    """Make the first ``limit`` rows pending (every row when None) and the rest approved; returns how
    many are pending as the queue counts them."""
    from django.db import connection, transaction

    from governance import prune
    from memories.models import Memory

    with transaction.atomic(), connection.cursor() as cursor:
        if limit is None:
            cursor.execute("UPDATE memory SET status = 'pending' WHERE superseded_by_id IS NULL")
        else:
            cursor.execute("UPDATE memory SET status = 'approved' WHERE status = 'pending'")
            # The first ``limit`` rows that the queue can show, whatever their ids.
            ids = list(
                Memory.objects.filter(superseded_by__isnull=True)
                .not_expired()
                .filter(deleted_at__isnull=True)
                .order_by("id")
                .values_list("id", flat=True)[:limit]
            )
            for start in range(0, len(ids), 500):
                Memory.objects.filter(pk__in=ids[start : start + 500]).update(status="pending")
    if connection.vendor == "sqlite":
        prune.refresh_planner_statistics()  # as the prune job leaves them
    else:
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    return Memory.objects.pending().count()


def count_queries(function):
    """How many SQL statements ``function`` runs (the test client's request signals reset Django's own
    query log, so the statements are counted as they go)."""
    from django.db import connection

    statements = []
    with connection.execute_wrapper(lambda execute, sql, *args: statements.append(sql) or execute(sql, *args)):
        function()
    return len(statements)


def page_sql(params):
    """The SQL and parameters of the rows the view reads for this page (the page plus one)."""
    from django.http import QueryDict
    from django.utils.http import urlencode

    from review.views import PAGE_SIZE, pending_filter, pending_rows

    filterset = pending_filter(QueryDict(urlencode(params)))
    filterset.is_valid()
    start = (int(params.get("page", 1)) - 1) * PAGE_SIZE
    return pending_rows(filterset)[start : start + PAGE_SIZE + 1].query.sql_with_params()


def decide_filtered_set(client, params):
    """Approve the whole filtered set through the console (confirmation page, then the POST), against a
    plain UPDATE of the same rows rolled back; returns the figures."""
    from django.db import connection, transaction

    from memories.models import AuditEvent, Memory
    from review.views import pending_filter

    ids = list(pending_filter(params).qs.order_by().values_list("pk", flat=True))
    with transaction.atomic():
        started = time.perf_counter()
        with connection.cursor() as cursor:
            for i in range(0, len(ids), 500):
                chunk = ids[i : i + 500]
                cursor.execute(
                    f"UPDATE memory SET status = 'approved' WHERE id IN ({', '.join(['%s'] * len(chunk))})", chunk
                )
        baseline = time.perf_counter() - started
        transaction.set_rollback(True)
    events_before = AuditEvent.objects.filter(event="approve").count()
    started = time.perf_counter()
    confirm = client.get("/pending/filtered/", {"decision": "approve", **params}, HTTP_HOST="localhost")
    confirm_s = time.perf_counter() - started
    assert confirm.status_code == 200
    started = time.perf_counter()
    done = client.post(
        "/pending/filtered/", {"decision": "approve", "expected": str(len(ids)), **params}, HTTP_HOST="localhost"
    )
    decide_s = time.perf_counter() - started
    assert done.status_code == 302, done.status_code
    approved = Memory.objects.filter(pk__in=ids[:1000], status="approved").count()
    return {
        "proposals": len(ids),
        "confirm_page_s": round(confirm_s, 3),
        "approve_s": round(decide_s, 3),
        "baseline_plain_update_s": round(baseline, 3),
        "audit_events": AuditEvent.objects.filter(event="approve").count() - events_before,
        "approved_of_first_1000": approved,
    }


def measure(level, runs, client):
    from django.db import connection

    pending = set_pending(level)
    row = {"pending": pending, "pages": {}}

    for name, params in PAGES.items():

        def view(params=params):
            response = client.get("/pending/", params, HTTP_HOST="localhost")
            assert response.status_code == 200, response.status_code

        sql, sql_params = page_sql(params)

        def raw(sql=sql, sql_params=sql_params):
            with connection.cursor() as cursor:
                cursor.execute(sql, sql_params)
                return cursor.fetchall()

        view_ms, view_cpu_ms = median_ms(view, runs)
        raw_ms, raw_cpu_ms = median_ms(raw, runs)
        row["pages"][name] = {
            "view_ms": view_ms,
            "view_cpu_ms": view_cpu_ms,
            "raw_sql_ms": raw_ms,
            "raw_sql_cpu_ms": raw_cpu_ms,
            "queries": count_queries(view),
        }

    def fragment():
        response = client.get("/pending/", HTTP_HOST="localhost", HTTP_HX_REQUEST="true")
        assert response.status_code == 200

    view_ms, view_cpu_ms = median_ms(fragment, runs)
    row["pages"]["first page, htmx fragment"] = {"view_ms": view_ms, "view_cpu_ms": view_cpu_ms}
    if level == 10_000:
        row["approve_filtered_set"] = decide_filtered_set(client, {"source_kind": "user_message"})
    return row


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", type=int, default=120_000)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--db", default=str(ROOT / "var" / "bench-console.sqlite3"))
    parser.add_argument("--database-url", help="a postgres:// URL instead of the SQLite file")
    parser.add_argument("--reuse", action="store_true", help="use the store as it is")
    args = parser.parse_args()

    import generate

    generate._setup(args)
    if not args.reuse:
        started = time.perf_counter()
        generate.generate(args.size)
        print(f"generated {args.size} memories in {time.perf_counter() - started:.0f}s", file=sys.stderr)

    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client
    from django.test.utils import override_settings

    owner, _ = get_user_model().objects.get_or_create(username="bench-owner", defaults={"is_superuser": True})
    client = Client()
    client.force_login(owner)
    # Pages link their static files by name; collectstatic's manifest is not what is measured here.
    plain_static = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    results = {
        "engine": connection.vendor,
        "size": args.size,
        "runs": args.runs,
        "load_average": os.getloadavg(),
        "cpus": os.cpu_count(),
        "levels": [],
    }
    with override_settings(STORAGES=plain_static):
        for level in PENDING_LEVELS:
            row = measure(level, args.runs, client)
            results["levels"].append(row)
            load = os.getloadavg()[0]
            print(f"\n{row['pending']:>7} pending ({connection.vendor}, load {load:.1f})", file=sys.stderr)
            for name, figures in row["pages"].items():
                extra = "".join(f"  {key}={value}" for key, value in figures.items() if key != "view_ms")
                print(f"  {name:<28} view {figures['view_ms']:>7.1f} ms{extra}", file=sys.stderr)
            if "approve_filtered_set" in row:
                print(f"  approve a filtered set: {row['approve_filtered_set']}", file=sys.stderr)
    print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
