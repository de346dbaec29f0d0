"""The foundation's figures, each against its baseline on the same rows in the same run.

    .venv/bin/python bench/store_figures.py --size 100000            # SQLite file under var/
    .venv/bin/python bench/store_figures.py --size 100000 --database-url postgres://postgres@127.0.0.1:5432/bench

Figures (issue #2):
- export of the whole store (memories and history): peak memory of the `bestie memory export` process, and
  its time against `sqlite3 -json` (SQLite) or `psql ... json_agg` (PostgreSQL) dumping the same two tables;
- `search`: median server-side time over 50 queries against the raw FTS5 / tsvector query;
- `question_search`: search as the owner types a question (``finding.find``: most questions are held by no
  memory in every word) against plain BM25 over any word of it;
- `list --json` of the whole store against the raw `SELECT * FROM memory ORDER BY id` fetched in Python;
- forgetting one memory, WAL checkpoint included.
Rebuilds the store first unless --reuse is given.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from io import StringIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

QUERIES = [
    "pnpm",
    "ha noi",
    "tieng viet",
    "user prefers",
    "project bestie",
    "da nang",
    "deploy",
    "bun cha",
    "docker",
    "concise replies",
    "cong tac",
    "sister",
    "budget",
    "pho bo",
    "thu hai",
    "anna",
    "release",
    "terraform",
    "hoi an",
    "tokyo",
    "wedding",
    "migration review",
    "cafe",
    "invoice",
    "Đà Lạt",
    "nguoi dung thich",
    "address the owner",
    "running joke",
    "away from keyboard",
    "du an",
    "sqlite",
    "postgresql",
    "react",
    "vite",
    "uv",
    "homelab",
    "garden",
    "tax",
    "mobile app",
    "meeting",
    "ramen",
    "sushi",
    "pizza",
    "thao",
    "khoa",
    "sai gon",
    "nha trang",
    "lisbon",
    "berlin",
    "design",
]


def timed(function, *args, **kwargs):
    started = time.perf_counter()
    result = function(*args, **kwargs)
    return time.perf_counter() - started, result


MEASURE = (
    "import resource, subprocess, sys, time; t = time.perf_counter();"
    " subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL);"
    " print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
)


def run_child(command, env):
    """Run a command with its output thrown away; returns (seconds, peak RSS in MB of that command).

    A fresh wrapper process runs it, so the peak belongs to this command and to no earlier child.
    """
    wrapper = subprocess.run(
        [sys.executable, "-c", MEASURE, *command], env=env, check=True, cwd=ROOT, capture_output=True, text=True
    )
    seconds, peak_kb = wrapper.stdout.split()
    return float(seconds), int(peak_kb) / 1024


def child_env(args):
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="bestie_site.settings")
    if args.database_url:
        env["DATABASE_URL"] = args.database_url
    else:
        env.pop("DATABASE_URL", None)
        env["BESTIE_DB_PATH"] = str(Path(args.db).resolve())
    return env


def bestie(args):
    script = ROOT / ".venv" / "bin" / "bestie"
    return [str(script)] if script.exists() else [sys.executable, str(ROOT / "manage.py")]


def figure_export(args, env):
    # Each measured in its own child so the peak RSS belongs to that command alone.
    seconds, peak = run_child([*bestie(args), "memory", "export"], env)

    # The export holds the memory table and the history: the baseline dumps the same two tables, and
    # the memory table alone for reference.
    def dump(tables):
        if args.database_url:
            return ["psql", args.database_url, "-Atc", "; ".join(f"SELECT json_agg(t) FROM {t} t" for t in tables)]
        return ["sqlite3", "-json", str(Path(args.db).resolve()), "; ".join(f"SELECT * FROM {t}" for t in tables)]

    baseline, _ = run_child(dump(["memory", "memory_history"]), env)
    memory_only, _ = run_child(dump(["memory"]), env)
    return {
        "export_s": seconds,
        "export_peak_mb": peak,
        "baseline_both_tables_s": baseline,
        "baseline_memory_table_s": memory_only,
        "ratio": seconds / baseline,
    }


def _raw_search(query, every_word):
    """Plain FTS5 BM25 / ``ts_rank`` over the query's words (every one, as prefixes, or any), best 20."""
    from django.db import connection

    from memories.language.folding import search_terms

    terms = search_terms(query)
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            words = [f'"{t}"*' if every_word else f'"{t}"' for t in terms]
            cursor.execute(
                "SELECT m.* FROM memory_fts f JOIN memory m ON m.id = f.rowid"
                " WHERE memory_fts MATCH %s ORDER BY f.rank LIMIT 20",
                [(" AND " if every_word else " OR ").join(words)],
            )
        else:
            words = [f"{t}:*" if every_word else t for t in terms]
            cursor.execute(
                "SELECT * FROM memory WHERE search_vector @@ to_tsquery('simple'::regconfig, %s)"
                " ORDER BY ts_rank(search_vector, to_tsquery('simple'::regconfig, %s)) DESC, id LIMIT 20",
                [(" & " if every_word else " | ").join(words)] * 2,
            )
        return cursor.fetchall()


def _against(ours, raw, queries, rounds=1):
    """Median and p95 of ``ours`` over ``queries`` (each ``rounds`` times) against the median of ``raw``."""
    for query in queries[:5]:  # warm the page cache for both
        ours(query), raw(query)
    ours_times = [timed(ours, q)[0] for q in queries for _ in range(rounds)]
    raw_times = [timed(raw, q)[0] for q in queries for _ in range(rounds)]
    median, baseline = statistics.median(ours_times), statistics.median(raw_times)
    return {
        "median_ms": median * 1000,
        "p95_ms": sorted(ours_times)[int(len(ours_times) * 0.95) - 1] * 1000,
        "baseline_median_ms": baseline * 1000,
        "ratio": median / baseline,
    }


def figure_search(args):
    from memories import search
    from memories.models import Memory

    def ours(query):
        return list(search.matching(Memory.objects.all(), query)[:20])

    return _against(ours, lambda query: _raw_search(query, every_word=True), QUERIES)


def figure_question_search(args):
    """Search as the owner types a question (``finding.find``, words alone: most are held by no memory in
    every word, so the memories holding most of it are ranked), the first 20, against plain BM25 over any
    word of the question on the same rows."""
    from bench.context_figures import QUERIES as QUESTIONS
    from memories.models import Memory
    from memories.retrieval.finding import find

    def ours(query):
        return list(find(Memory.objects.all(), query)[:20])

    return _against(ours, lambda query: _raw_search(query, every_word=False), QUESTIONS, rounds=3)


def figure_list(args):
    from django.core.management import call_command
    from django.db import connection

    class Sink(StringIO):
        def write(self, text):
            return len(text)

    def raw():
        with connection.cursor() as cursor:
            cursor.execute("SELECT * FROM memory ORDER BY id")
            while cursor.fetchmany(2000):
                pass

    ours, _ = timed(call_command, "memory", "list", "--json", stdout=Sink())
    baseline, _ = timed(raw)
    return {"list_json_s": ours, "baseline_s": baseline, "ratio": ours / baseline}


def figure_forget(args):
    from memories import lifecycle
    from memories.models import Memory

    ids = list(
        Memory.objects.filter(superseded_by__isnull=True, supersedes__isnull=True)
        .order_by("?")
        .values_list("pk", flat=True)[:10]
    )
    times = [timed(lifecycle.forget, memory_id, actor="owner:bench", confirmed=True)[0] for memory_id in ids]
    return {"median_ms": statistics.median(times) * 1000, "max_ms": max(times) * 1000}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--db", help="SQLite file (default var/bench-SIZE.sqlite3)")
    parser.add_argument("--database-url", help="a postgres:// URL instead of SQLite")
    parser.add_argument("--reuse", action="store_true", help="keep the store from an earlier run")
    args = parser.parse_args()
    args.db = args.db or str(ROOT / "var" / f"bench-{args.size}.sqlite3")
    env = child_env(args)
    os.environ.update({k: v for k, v in env.items() if k in ("DATABASE_URL", "BESTIE_DB_PATH")})
    if not args.database_url:
        os.environ.pop("DATABASE_URL", None)
    if not args.reuse:
        subprocess.run(
            [
                sys.executable,
                str(ROOT / "bench" / "generate.py"),
                "--size",
                str(args.size),
                *(["--database-url", args.database_url] if args.database_url else ["--db", args.db]),
            ],
            check=True,
        )
    if not args.database_url and not shutil.which("sqlite3"):
        sys.exit("the sqlite3 command is needed for the export baseline: apt-get install sqlite3")

    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bestie_site.settings")
    django.setup()
    from django.db import connection

    results = {"engine": connection.vendor, "size": args.size}
    results["export"] = figure_export(args, env)
    results["search"] = figure_search(args)
    results["question_search"] = figure_question_search(args)
    results["list_json"] = figure_list(args)
    results["forget"] = figure_forget(args)
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
