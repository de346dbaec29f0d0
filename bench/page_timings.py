"""Every console page's server time on a 1,000- and a 100,000-memory store: median and p95, and the ratio.

    .venv/bin/python bench/page_timings.py                       # SQLite stores var/bench-pages-{1000,100000}.sqlite3
    .venv/bin/python bench/page_timings.py --database-url postgres://postgres@127.0.0.1:5432/bench_pages

Each store is built by bench/generate.py (--sizes, default 1000 and 100000; with --database-url also one
PostgreSQL store of --postgres-size, default 100000, in that database, which must exist and is emptied),
then given what a store that has run for a year holds besides its memories, the same at every size: a
year of job runs and hygiene snapshots, the job schedules, two digest channels, an agent token, a few
deletion requests, a backup (SQLite), and one memory the owner changed twenty times through the write
path. A PostgreSQL store is then vacuumed, as autovacuum soon does. --reuse measures the stores as they
are, building only those that are empty.

Each store is measured in a process of its own. The owner is logged in with Django's test client and
every page and htmx fragment is requested --runs times (default 20) after one warm-up round, a round
being every page once, so that a burst of load on the machine falls on every page alike. The time is
the test client's request, server side: middleware, session, view, queries and template, no network;
beside it the median CPU time of this process, which waiting for a core on a busy machine leaves out (and
so does PostgreSQL's own work).
/doctor/ and /cleanup/ are left out (they become jobs).

It prints the table (median and p95 per page per store, and the median and p95 at the largest SQLite store
over those at the smallest) on stderr, with the load average before and after each store, and every figure as JSON on
stdout. A p95 over --goal milliseconds (default 300) is marked with "!".
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import warnings
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

SEARCH = "tieng viet"  # folded, as an owner types it without diacritics
PREVIEW = "which package manager does the website use?"


def pages(ids):
    """(name, path, query, htmx) of every page and fragment timed; ``ids`` are the memories to show."""
    return [
        ("dashboard", "/", {}, False),
        ("pending", "/pending/", {}, False),
        ("pending htmx", "/pending/", {}, True),
        ("pending ?q=", "/pending/", {"q": SEARCH}, False),
        ("pending ?q= htmx", "/pending/", {"q": SEARCH}, True),
        ("pending ?flagged=true", "/pending/", {"flagged": "true"}, False),
        ("pending ?page=20 htmx", "/pending/", {"page": "20"}, True),
        ("pending item htmx", f"/pending/{ids['pending']}/", {}, True),
        ("pending edit htmx", f"/pending/{ids['pending']}/edit/", {}, True),
        ("memories", "/memories/", {}, False),
        ("memories htmx", "/memories/", {}, True),
        ("memories ?q=", "/memories/", {"q": SEARCH}, False),
        ("memories ?q= htmx", "/memories/", {"q": SEARCH}, True),
        ("memories live working", "/memories/", {"state": "live", "layer": "working"}, False),
        ("memories ?page=20 htmx", "/memories/", {"page": "20"}, True),
        ("detail live", f"/memories/{ids['live']}/", {}, False),
        ("detail changed 20×", f"/memories/{ids['changed']}/", {}, False),
        ("detail replaces", f"/memories/{ids['replaces']}/", {}, False),
        ("detail superseded", f"/memories/{ids['superseded']}/", {}, False),
        ("detail htmx", f"/memories/{ids['live']}/", {}, True),
        ("edit form htmx", f"/memories/{ids['live']}/edit/", {}, True),
        ("drift", "/review/", {}, False),
        ("core", "/core/", {}, False),
        ("core htmx", "/core/", {"user": "owner"}, True),
        ("channels", "/channels/", {}, False),
        ("channels digest htmx", "/channels/", {"queued": ids["queued"]}, True),
        ("backups", "/backups/", {}, False),
        ("backups htmx", "/backups/", {"queued": ids["queued"]}, True),
        ("jobs", "/jobs/", {}, False),
        ("jobs ?job=prune htmx", "/jobs/", {"job": "prune"}, True),
        ("settings", "/settings/", {}, False),
        ("preview", "/preview/", {}, False),
        ("preview ?q=", "/preview/", {"q": PREVIEW}, False),
    ]


def p95(values):
    """Nearest rank: the value 95% of the runs took at most."""
    ordered = sorted(values)
    return ordered[max(0, -(-len(ordered) * 95 // 100) - 1)]


# ---------------------------------------------------------------------------------------------------
# One store, in a process of its own


def year_of_history(now):
    """What a store that ran for a year holds besides its memories, the same whatever their number."""
    from django.contrib.auth import get_user_model

    from governance import schedules
    from governance.models import DigestChannel, HygieneSnapshot, JobRun
    from memories import agent_tokens, agents, lifecycle
    from memories.lifecycle import policies
    from memories.models import AgentToken, Memory

    JobRun.objects.all().delete()
    HygieneSnapshot.objects.all().delete()
    DigestChannel.objects.all().delete()
    schedules.seed(now)
    runs = []
    for day in range(365):
        started = now - timedelta(days=day, hours=20)
        for job, counts in (
            ("backup", {"path": "var/backups/bestie-backup.sqlite3", "size_bytes": 1, "integrity": "ok"}),
            ("prune", {"expired": 3, "superseded": 1, "planner_statistics": True}),
            ("message_retention", {"deleted": 12}),
            ("hygiene", {"score": 81}),
        ):
            runs.append(
                JobRun(
                    job=job, started_at=started, finished_at=started + timedelta(seconds=2), outcome="ok", counts=counts
                )
            )
        if day % 7 == 0:
            deliveries = [{"channel": "email:owner@example.com", "ok": True}, {"channel": "telegram:1001", "ok": True}]
            runs.append(
                JobRun(
                    job="digest",
                    started_at=started,
                    finished_at=started + timedelta(seconds=1),
                    outcome="ok",
                    counts={"sent": True, "deliveries": deliveries},
                )
            )
    JobRun.objects.bulk_create(runs, batch_size=500)
    HygieneSnapshot.objects.bulk_create(
        [HygieneSnapshot(taken_at=now - timedelta(days=day), counts={}, score=70 + day % 20) for day in range(365)]
    )
    DigestChannel.objects.create(kind="email", target="owner@example.com")
    DigestChannel.objects.create(kind="telegram", target="1001")
    AgentToken.objects.all().delete()
    access = agent_tokens.authenticate(
        agent_tokens.create_token("bestie", actor="owner:bench", scopes=["propose", "recall", "read", "forget"])
    )
    policies.set_delete_policy("ask", actor="owner:bench")
    for memory in Memory.objects.live().filter(pinned=False).order_by("id")[:5]:
        agents.forget(access, memory.pk, reason="the owner said so in chat")

    changed = Memory.objects.live().filter(pinned=False).order_by("id").first()
    for turn in range(5):
        lifecycle.edit(changed.pk, f"{changed.text} (checked {turn + 1} times)", actor="owner:bench")
        lifecycle.pin(changed.pk, actor="owner:bench")
        lifecycle.unpin(changed.pk, actor="owner:bench")
        lifecycle.confirm(changed.pk, actor="owner:bench")
    owner, _ = get_user_model().objects.get_or_create(
        username="bench-owner", defaults={"is_superuser": True, "is_staff": True}
    )
    return changed.pk


def shown_memories():
    """The memories whose pages are timed, chosen the same way at every size."""
    from governance.models import JobRun
    from memories.models import AuditEvent, Memory

    changed = (
        AuditEvent.objects.filter(actor="owner:bench", event="edit").order_by("-id").values_list("memory_id", flat=True)
    ).first()
    replaces = Memory.objects.live().filter(supersedes__isnull=False).order_by("id").first()
    return {
        "live": Memory.objects.live().filter(message__isnull=True).order_by("-id").first().pk,
        "changed": changed,
        "replaces": replaces.pk,
        "superseded": replaces.supersedes.order_by("id").first().pk,
        "pending": Memory.objects.pending().order_by("created_at", "id").first().pk,
        # A run the page waits for that has finished: the fragment shows its outcome.
        "queued": (JobRun.objects.order_by("-started_at").first().started_at - timedelta(minutes=1)).isoformat(),
    }


def time_pages(client, listed, runs):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def get(path, query, htmx):
        headers = {"HX-Request": "true"} if htmx else {}
        response = client.get(path, query, headers=headers, HTTP_HOST="localhost")
        assert response.status_code == 200, (path, query, response.status_code)
        return response

    for _name, path, query, htmx in listed:
        get(path, query, htmx)
    times = {name: [] for name, *_ in listed}
    cpu = {name: [] for name, *_ in listed}
    for _ in range(runs):
        for name, path, query, htmx in listed:
            started, started_cpu = time.perf_counter(), time.process_time()
            get(path, query, htmx)
            times[name].append((time.perf_counter() - started) * 1000)
            cpu[name].append((time.process_time() - started_cpu) * 1000)
    figures = {}
    for name, path, query, htmx in listed:
        with CaptureQueriesContext(connection) as queries:
            response = get(path, query, htmx)
        figures[name] = {
            "median_ms": round(statistics.median(times[name]), 1),
            "p95_ms": round(p95(times[name]), 1),
            "cpu_median_ms": round(statistics.median(cpu[name]), 1),
            "queries": len(queries),
            "sql_ms": round(sum(float(query["time"]) for query in queries.captured_queries) * 1000, 1),
            "bytes": len(response.content),
        }
    return figures


def measure_store(args):
    import generate

    # Whitenoise looks for collectstatic's folder, which the bench does not need.
    warnings.filterwarnings("ignore", message="No directory at")

    generate._setup(args)
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client
    from django.test.utils import override_settings
    from django.utils import timezone

    from governance import backups
    from memories.models import DeletionRequest, Memory

    started = time.perf_counter()
    if not (args.reuse and Memory.objects.exists()):
        DeletionRequest.objects.all().delete()  # they point at the memories generate() empties
        generate.generate(args.size)
        year_of_history(timezone.now())
        if connection.vendor == "sqlite":
            backups.backup()
        else:
            # What autovacuum does soon after a store is filled: the visibility map that lets PostgreSQL
            # answer from an index alone, as it can on a store that has been running.
            with connection.cursor() as cursor:
                cursor.execute("VACUUM ANALYZE")
    built_s = time.perf_counter() - started
    ids = shown_memories()
    client = Client()
    client.force_login(get_user_model().objects.get(username="bench-owner"))
    # Pages link their static files by name; collectstatic's manifest is not what is measured here.
    plain_static = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    load_before = os.getloadavg()
    with override_settings(STORAGES=plain_static):
        figures = time_pages(client, pages(ids), args.runs)
    return {
        "engine": connection.vendor,
        "size": Memory.objects.count(),
        "built_s": round(built_s, 1),
        "runs": args.runs,
        "load_before": [round(load, 2) for load in load_before],
        "load_after": [round(load, 2) for load in os.getloadavg()],
        "memories_shown": ids,
        "backup_dir": str(settings.BESTIE_BACKUP_DIR),
        "pages": figures,
    }


# ---------------------------------------------------------------------------------------------------
# Every store, and the table


def run_store(args, size, db=None, database_url=None):
    command = [sys.executable, __file__, "--one-store", "--size", str(size), "--runs", str(args.runs)]
    command += ["--database-url", database_url] if database_url else ["--db", db]
    if args.reuse:
        command.append("--reuse")
    env = dict(os.environ)
    if db:
        # The store's backup goes beside it, never into the owner's var/backups.
        env["BESTIE_BACKUP_DIR"] = str(Path(db).with_suffix(".backups"))
    done = subprocess.run(command, env=env, stdout=subprocess.PIPE, check=True, cwd=ROOT)
    return json.loads(done.stdout)


def label(store):
    size = store["size"]
    return f"{store['engine']} {size // 1000}k" if size >= 1000 else f"{store['engine']} {size}"


def print_table(stores, goal, out=sys.stderr):
    sqlite = [store for store in stores if store["engine"] == "sqlite"]
    smallest, largest = (sqlite[0], sqlite[-1]) if len(sqlite) > 1 else (None, None)
    names = list(stores[0]["pages"])
    header = f"{'page':<26}" + "".join(f"{label(store) + ' med / p95 (cpu) ms':>38}" for store in stores)
    if smallest:
        header += f"{label(largest).split()[1] + '/' + label(smallest).split()[1] + ' med, p95':>18}"
    print(header, file=out)
    for name in names:
        line = f"{name:<26}"
        for store in stores:
            figures = store["pages"][name]
            mark = "!" if figures["p95_ms"] > goal else " "
            line += (
                f"{figures['median_ms']:>14.1f} / {figures['p95_ms']:>6.1f}{mark} ({figures['cpu_median_ms']:>5.1f})"
                f" {figures['queries']:>2}q"
            )
        if smallest:
            ratios = [
                largest["pages"][name][key] / max(smallest["pages"][name][key], 0.1) for key in ("median_ms", "p95_ms")
            ]
            line += f"{ratios[0]:>11.1f}×, {ratios[1]:.1f}×"
        print(line, file=out)
    for store in stores:
        print(
            f"{label(store)}: {store['size']} memories, {store['runs']} runs, load average "
            f"{' '.join(map(str, store['load_before']))} before, {' '.join(map(str, store['load_after']))} after",
            file=out,
        )


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="*", default=[1_000, 100_000], help="SQLite stores to measure")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--goal", type=float, default=300.0, help="p95 to stay under, in ms")
    parser.add_argument("--store-dir", default=str(ROOT / "var"), help="where the SQLite stores are kept")
    parser.add_argument("--database-url", help="also measure one PostgreSQL store in this (existing) database")
    parser.add_argument("--postgres-size", type=int, default=100_000)
    parser.add_argument("--reuse", action="store_true", help="measure the stores as they are (build the empty ones)")
    parser.add_argument("--one-store", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--size", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--db", help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.one_store:
        print(json.dumps(measure_store(args)))
        return
    stores = []
    for size in sorted(args.sizes):
        db = str(Path(args.store_dir).resolve() / f"bench-pages-{size}.sqlite3")
        stores.append(run_store(args, size, db=db))
        print(f"measured {label(stores[-1])} (load {stores[-1]['load_after'][0]})", file=sys.stderr)
    if args.database_url:
        stores.append(run_store(args, args.postgres_size, database_url=args.database_url))
        print(f"measured {label(stores[-1])} (load {stores[-1]['load_after'][0]})", file=sys.stderr)
    print_table(stores, args.goal)
    print(json.dumps({"goal_p95_ms": args.goal, "cpus": os.cpu_count(), "stores": stores}, indent=1))


if __name__ == "__main__":
    main()
