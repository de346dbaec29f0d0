"""Context assembly timings next to the raw full-text query for the same text on the same rows.

    .venv/bin/python bench/generate.py --size 10000 --db var/bench-retrieval-10000.sqlite3
    .venv/bin/python bench/generate.py --size 100000 --db var/bench-retrieval-100000.sqlite3
    .venv/bin/python bench/context_figures.py --db var/bench-retrieval-10000.sqlite3 \
        --db var/bench-retrieval-100000.sqlite3
    .venv/bin/python bench/generate.py --size 100000 --database-url postgres://postgres@127.0.0.1:5432/bench_pg
    .venv/bin/python bench/context_figures.py --database-url postgres://postgres@127.0.0.1:5432/bench_pg

For each store, every query runs ``build_context`` as the agent API does (user ``owner``, project
``bestie``, channel ``cli``, recording access: one UPDATE per request) and, interleaved with it, the
baseline: ``SELECT rowid, bm25(memory_fts)`` (on PostgreSQL ``ts_rank`` over the indexed ``tsvector``)
for the query's words (any of them, as plain BM25 would take a natural-language question) over the
injectable rows, best ten. Times are server-side, in this process, after one warm-up round; each store
is measured in its own child process so the stores do not share a connection or caches.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

QUERIES = [
    "what package manager should I use for bestie",
    "pnpm",
    "Người dùng thích ăn phở ở Hà Nội",
    "nguoi dung thich an pho o ha noi",
    "deploy docker homelab",
    "Minh sống ở đâu",
    "when is the release for the shop due",
    "how should you reply to me",
    "trả lời ngắn gọn",
    "is Lan the owner's sister",
    "decided to move the thesis to PostgreSQL",
    "đang đi công tác ở Đà Nẵng",
    "don't message Tom before 9am",
    "bún bò Huế",
    "terraform migration review",
    "what do we use for the mobile-app design",
    "dự án wedding dùng gì",
    "inside joke about sushi",
    "user prefers",
    "replies in English unless asked otherwise",
]

INJECTABLE = (
    "m.status = 'approved' AND m.superseded_by_id IS NULL AND m.deleted_at IS NULL AND NOT m.stale"
    " AND m.layer != 'archive' AND (m.expires_at IS NULL OR m.expires_at > %s)"
)


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def measure(store, rounds):
    if store.startswith("postgres"):
        os.environ["DATABASE_URL"] = store
    else:
        os.environ["BESTIE_DB_PATH"] = str(Path(store).resolve())
        os.environ.pop("DATABASE_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bestie_site.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.db import connection
    from django.utils import timezone

    from memories.language.folding import search_terms
    from memories.models import Memory
    from memories.retrieval import build_context
    from memories.search import PG_VECTOR

    def baseline(query):
        if connection.vendor == "postgresql":
            vector = f"m.{PG_VECTOR}"
            with connection.cursor() as cursor:
                cursor.execute(
                    f"SELECT m.id, ts_rank({vector}, q) AS r FROM memory m,"
                    " to_tsquery('simple'::regconfig, %s) q"
                    f" WHERE {vector} @@ q AND {INJECTABLE} ORDER BY r DESC LIMIT 10",
                    [" | ".join(search_terms(query)), timezone.now()],
                )
                return cursor.fetchall()
        expression = " OR ".join(f'"{word}"' for word in search_terms(query))
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT f.rowid, bm25(memory_fts) FROM memory_fts f JOIN memory m ON m.id = f.rowid"
                f" WHERE memory_fts MATCH %s AND {INJECTABLE} ORDER BY rank LIMIT 10",
                [expression, timezone.now()],
            )
            return cursor.fetchall()

    def assemble(query):
        return build_context(query, user="owner", project="bestie", channel="cli")

    times = {"context": [], "bm25": []}
    cpu = {"context": [], "bm25": []}
    for round_number in range(rounds + 1):
        for query in QUERIES:
            for name, run in (("context", assemble), ("bm25", baseline)):
                started, started_cpu = time.perf_counter(), time.thread_time()
                run(query)
                if round_number:
                    times[name].append((time.perf_counter() - started) * 1000)
                    cpu[name].append((time.thread_time() - started_cpu) * 1000)
    return {"memories": Memory.objects.count(), "live": Memory.objects.live().count(), "times": times, "cpu": cpu}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", action="append", default=[], help="an SQLite store from bench/generate.py")
    parser.add_argument(
        "--database-url", action="append", default=[], help="a postgres:// store from bench/generate.py"
    )
    parser.add_argument("--rounds", type=int, default=10, help="times each query is asked (default 10)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    stores = args.db + args.database_url
    if not stores:
        parser.error("give at least one --db or --database-url")
    if args.child:
        print(json.dumps(measure(stores[0], args.rounds)))
        return

    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    print("wall = elapsed time; cpu = this thread's CPU time (what the work costs when other processes compete)")
    print(f"{'store':<34}{'live':>8}  {'clock':<5}{'context median/p95 ms':>23}  {'bm25 median/p95 ms':>19}  ratio")
    medians = {"wall": {}, "cpu": {}}
    for db in stores:
        answer = subprocess.run(
            [sys.executable, __file__, "--child", "--db", db, "--rounds", str(args.rounds)],
            check=True,
            capture_output=True,
            text=True,
        )
        result = json.loads(answer.stdout)
        for clock, key in (("wall", "times"), ("cpu", "cpu")):
            context, bm25 = result[key]["context"], result[key]["bm25"]
            medians[clock][db] = statistics.median(context)
            print(
                f"{Path(db).name:<34}{result['live']:>8}  {clock:<5}"
                f"{statistics.median(context):>13.2f} / {percentile(context, 0.95):>6.2f}  "
                f"{statistics.median(bm25):>9.2f} / {percentile(bm25, 0.95):>6.2f}  "
                f"{statistics.median(context) / statistics.median(bm25):>5.2f}x"
            )
    if len(stores) > 1:
        smallest, largest = stores[0], stores[-1]
        for clock in ("wall", "cpu"):
            growth = medians[clock][largest] / medians[clock][smallest]
            print(f"growth {Path(smallest).name} -> {Path(largest).name} ({clock}, median): {growth:.2f}x")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
