"""The maintenance jobs' figures (issue #6), each against its baseline on the same data in the same run.

    .venv/bin/python bench/jobs_figures.py --prune-rows 1000000 --soak-seconds 60 --backup-size 100000

- prune of N expired rows (``governance.prune.prune``: ``lifecycle.erase`` in batches, audit hashes, WAL
  checkpoints) against the seed's raw ``DELETE FROM memory WHERE expires_at <= now`` on a copy of the same
  file, each while a writer process keeps adding memories through ``lifecycle.add``: the time of each, and
  the longest the writer waited for one add;
- a soak on one SQLite file: 4 writer processes adding memories, a jobs process running prune and hygiene
  snapshots (the functions the schedules call) and a reader process doing console-like reads, for S
  seconds: lock errors, memories sent against memories stored, and the writers' waits against the same
  soak without the jobs process;
- a backup (``VACUUM INTO`` + ``PRAGMA integrity_check`` + rotation) of a store built by bench/generate.py.

Each part works on its own files under var/ (bench-jobs-*), rebuilt on every run.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VAR = ROOT / "var"
NOW_SQL = "2026-06-01 00:00:00"


def child(role, db, *args, stop=None, wait=True):
    env = dict(os.environ, BESTIE_DB_PATH=str(db), DJANGO_SETTINGS_MODULE="bestie_site.settings")
    env.pop("DATABASE_URL", None)
    command = [sys.executable, __file__, "--role", role, "--db", str(db), *map(str, args)]
    if stop:
        command += ["--stop", str(stop)]
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return finish(process) if wait else process


def finish(process):
    stdout, stderr = process.communicate()
    if process.returncode:
        raise SystemExit(f"child failed ({process.args[3]}):\n{stderr[-3000:]}")
    return json.loads(stdout.strip().splitlines()[-1]) | {"stderr": stderr}


# ---------------------------------------------------------------------------------------------------
# Roles, run in child processes with Django set up on --db


def _django():
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bestie_site.settings")
    import django

    django.setup()


def role_build(options):
    """A migrated store with N expired memories, each with its 'add' audit event, and delete policy allow."""
    _django()
    from django.core.management import call_command
    from django.db import connection

    from memories.lifecycle.policies import set_delete_policy
    from memories.models import AuditEvent, Memory

    call_command("migrate", verbosity=0)
    set_delete_policy("allow", actor="bench")
    count, batch = int(options.extra[0]), 20000
    expired = "2026-01-01 00:00:00"
    for start in range(0, count, batch):
        rows = Memory.objects.bulk_create(
            Memory(
                text=f"Expired note {i}: the owner was in Đà Nẵng for the {i % 97} meetup.",
                kind="note",
                source="bench",
                source_kind="owner",
                status="approved",
                expires_at=expired,
            )
            for i in range(start, min(start + batch, count))
        )
        AuditEvent.objects.bulk_create(AuditEvent(memory_id=m.pk, event="add", actor="bench") for m in rows)
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    print(json.dumps({"memories": Memory.objects.count()}))


def role_writer(options):
    """Add memories until the stop file appears; report how many, the errors and the longest wait."""
    _django()
    from memories import lifecycle

    name, sent, errors, longest, waits = options.extra[0], 0, [], 0.0, []
    stop = Path(options.stop)
    while not stop.exists():
        started = time.perf_counter()
        try:
            lifecycle.add(
                text=f"soak writer {name} memory {sent}",
                kind="fact",
                source=f"soak-{name}",
                source_kind="owner",
                actor="bench",
            )
            sent += 1
        except Exception as error:  # noqa: BLE001  (counted and reported: a lock error is the figure)
            errors.append(f"{type(error).__name__}: {error}")
        waited = time.perf_counter() - started
        waits.append(waited)
        longest = max(longest, waited)
        time.sleep(0.01)
    waits.sort()
    print(
        json.dumps(
            {
                "sent": sent,
                "errors": errors[:5],
                "error_count": len(errors),
                "longest_wait_s": round(longest, 3),
                "p99_wait_s": round(waits[int(len(waits) * 0.99)] if waits else 0, 4),
            }
        )
    )


def role_prune(options):
    _django()
    from governance import prune

    started = time.perf_counter()
    result = prune.prune()
    print(
        json.dumps(
            {
                "seconds": round(time.perf_counter() - started, 2),
                "deleted": result.deleted,
                "batches": result.batches,
                "longest_batch_s": result.longest_batch_seconds,
            }
        )
    )


def role_raw_delete(options):
    """The seed's prune statement, on a connection with the app's pragmas."""
    _django()
    from django.conf import settings
    from django.db import connection

    connection.ensure_connection()
    database = connection.connection
    started = time.perf_counter()
    with connection.cursor() as cursor:
        cursor.execute("BEGIN IMMEDIATE")
        cursor.execute("DELETE FROM memory WHERE expires_at IS NOT NULL AND expires_at <= %s", [NOW_SQL])
        deleted = cursor.rowcount
        cursor.execute("COMMIT")
    assert settings.SQLITE_PRAGMAS["foreign_keys"] == "ON" and database
    print(json.dumps({"seconds": round(time.perf_counter() - started, 2), "deleted": deleted}))


def role_jobs(options):
    """What the cluster does, back to back: prune and a hygiene snapshot, until the stop file appears."""
    _django()
    from governance import hygiene, prune

    stop, runs, deleted, errors = Path(options.stop), 0, 0, []
    while not stop.exists():
        try:
            deleted += prune.prune().deleted
            hygiene.snapshot()
            runs += 1
        except Exception as error:  # noqa: BLE001
            errors.append(f"{type(error).__name__}: {error}")
        time.sleep(0.2)
    print(json.dumps({"runs": runs, "deleted": deleted, "errors": errors[:5], "error_count": len(errors)}))


def role_reader(options):
    """Console-like reads: the live list, the counts, a search, the pending queue."""
    _django()
    from memories import reports
    from memories.models import Memory
    from memories.search import matching

    stop, reads, errors, longest = Path(options.stop), 0, [], 0.0
    while not stop.exists():
        started = time.perf_counter()
        try:
            list(Memory.objects.live().order_by("-id")[:50])
            reports.counts()
            list(matching(Memory.objects.all(), "da nang meetup")[:20])
            list(Memory.objects.pending().order_by("created_at")[:20])
            reads += 1
        except Exception as error:  # noqa: BLE001
            errors.append(f"{type(error).__name__}: {error}")
        longest = max(longest, time.perf_counter() - started)
        time.sleep(0.05)
    print(
        json.dumps(
            {"reads": reads, "errors": errors[:5], "error_count": len(errors), "longest_read_s": round(longest, 3)}
        )
    )


def role_count(options):
    _django()
    from django.db import connection

    from memories.models import Memory

    with connection.cursor() as cursor:
        cursor.execute("PRAGMA integrity_check")
        integrity = cursor.fetchone()[0]
    print(
        json.dumps(
            {
                "soak_stored": Memory.objects.filter(source__startswith="soak-").count(),
                "expired_left": Memory.objects.filter(source="bench").count(),
                "integrity": integrity,
            }
        )
    )


def role_backup(options):
    _django()
    from governance import backups

    with tempfile.TemporaryDirectory(dir=VAR) as dest:
        result = backups.backup(dest)
        problems = backups.integrity_problems(result.path)
        print(
            json.dumps(
                {
                    "seconds": result.seconds,
                    "size_mb": round(result.size_bytes / 2**20, 1),
                    "integrity": problems or "ok",
                }
            )
        )


ROLES = {name.removeprefix("role_"): function for name, function in globals().items() if name.startswith("role_")}


# ---------------------------------------------------------------------------------------------------
# The figures


def remove_database(path):
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


def with_writer(db, role, *args):
    """Run ``role`` while a writer process adds memories; returns (role's answer, writer's answer)."""
    stop = Path(f"{db}.stop")
    stop.unlink(missing_ok=True)
    writer = child("writer", db, "w", stop=stop, wait=False)
    time.sleep(2)
    answer = child(role, db, *args)
    time.sleep(0.5)
    stop.touch()
    written = finish(writer)
    stop.unlink()
    return answer, written


def prune_figure(rows, baseline=True):
    ours, raw = VAR / f"bench-jobs-prune-{rows}.sqlite3", VAR / f"bench-jobs-raw-{rows}.sqlite3"
    for path in (ours, raw):
        remove_database(path)
    started = time.perf_counter()
    built = child("build", ours, rows)
    print(f"built {built['memories']} expired memories in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    figure = {"rows": rows}
    if baseline:
        shutil.copyfile(ours, raw)
        raw_answer, raw_writer = with_writer(raw, "raw_delete")
        figure["raw_delete"] = {k: v for k, v in raw_answer.items() if k != "stderr"}
        figure["raw_delete_writer"] = {k: v for k, v in raw_writer.items() if k != "stderr"}
        print(json.dumps(figure), file=sys.stderr)
    prune_answer, prune_writer = with_writer(ours, "prune")
    for path in (ours, raw):
        remove_database(path)
    figure["prune"] = {k: v for k, v in prune_answer.items() if k != "stderr"}
    figure["prune_writer"] = {k: v for k, v in prune_writer.items() if k != "stderr"}
    if baseline:
        figure["prune_vs_raw"] = round(prune_answer["seconds"] / max(figure["raw_delete"]["seconds"], 1e-9), 2)
    return figure


def soak_figure(seconds, expired_rows, with_jobs=True):
    db = VAR / "bench-jobs-soak.sqlite3"
    remove_database(db)
    child("build", db, expired_rows)
    stop = Path(f"{db}.stop")
    stop.unlink(missing_ok=True)
    processes = [child("writer", db, n, stop=stop, wait=False) for n in range(4)]
    processes += [child("reader", db, stop=stop, wait=False)]
    if with_jobs:
        processes += [child("jobs", db, stop=stop, wait=False)]
    time.sleep(seconds)
    stop.touch()
    answers = [finish(process) for process in processes]
    stop.unlink()
    counted = child("count", db)
    remove_database(db)
    writers, reader = answers[:4], answers[4]
    jobs = answers[5] if with_jobs else {"runs": 0, "deleted": 0}
    every_stderr = "".join(answer["stderr"] for answer in answers)
    return {
        "seconds": seconds,
        "sent": sum(w["sent"] for w in writers),
        "stored": counted["soak_stored"],
        "lock_errors": every_stderr.count("locked") + sum(sum("locked" in e for e in a["errors"]) for a in answers),
        "errors": sum(a["error_count"] for a in answers),
        "longest_writer_wait_s": max(w["longest_wait_s"] for w in writers),
        "p99_writer_wait_s": max(w["p99_wait_s"] for w in writers),
        "job_runs": jobs["runs"],
        "pruned": jobs["deleted"],
        "expired_left": counted["expired_left"],
        "reads": reader["reads"],
        "longest_read_s": reader["longest_read_s"],
        "integrity": counted["integrity"],
    }


def backup_figure(size):
    db = VAR / f"bench-jobs-backup-{size}.sqlite3"
    remove_database(db)
    subprocess.run(
        [sys.executable, str(ROOT / "bench" / "generate.py"), "--size", str(size), "--db", str(db)],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    answer = child("backup", db)
    remove_database(db)
    return {"memories": size, **{k: v for k, v in answer.items() if k != "stderr"}}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--prune-rows", type=int, default=1_000_000, help="0 skips the prune figure")
    parser.add_argument(
        "--no-baseline",
        action="store_true",
        help="prune only, without the raw DELETE (which takes ~50 minutes at 1M rows)",
    )
    parser.add_argument("--soak-seconds", type=int, default=60, help="0 skips the soak")
    parser.add_argument("--soak-expired", type=int, default=100_000, help="expired rows for prune during the soak")
    parser.add_argument("--backup-size", type=int, default=100_000, help="0 skips the backup figure")
    parser.add_argument("--role", choices=sorted(ROLES), help=argparse.SUPPRESS)
    parser.add_argument("--db", help=argparse.SUPPRESS)
    parser.add_argument("--stop", help=argparse.SUPPRESS)
    parser.add_argument("extra", nargs="*", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.role:
        return ROLES[options.role](options)
    figures = {}
    if options.prune_rows:
        figures["prune"] = prune_figure(options.prune_rows, baseline=not options.no_baseline)
        print(json.dumps(figures["prune"]), file=sys.stderr)
    if options.soak_seconds:
        # The baseline: the same writers and reads on the same data with no maintenance job running.
        figures["soak_without_jobs"] = soak_figure(options.soak_seconds, options.soak_expired, with_jobs=False)
        print(json.dumps(figures["soak_without_jobs"]), file=sys.stderr)
        figures["soak"] = soak_figure(options.soak_seconds, options.soak_expired)
        print(json.dumps(figures["soak"]), file=sys.stderr)
    if options.backup_size:
        figures["backup"] = backup_figure(options.backup_size)
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
