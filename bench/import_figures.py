"""Importing 100,000 memories: from mem0 (`import --from mem0`) and the same memories as Bestie's own export.

    .venv/bin/python bench/import_figures.py --size 100000 --dir var/bench-import

Writes a mem0 `get_all()` JSON (`{"results": [...]}`, items as mem0's `_get_all_from_vector_store` makes
them) of SIZE memories with varied English and Vietnamese texts (bench/generate.py's templates, each with a
detail of its own so no two are the same), and an export document of the same memories, each with the
`propose` event the mem0 import writes. Each is imported into a fresh, migrated SQLite store by
`manage.py memory import` in its own process: the figures are that process's wall-clock seconds and peak
resident set (ru_maxrss from wait4), Django's start-up included, and what the store holds afterwards.
"""

import argparse
import hashlib
import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from generate import CITIES, DAYS, PEOPLE, PROJECTS, _text  # noqa: E402

DETAILS = [
    "since {year}",
    "as {person} mentioned on {day}",
    "noted in chat {n}",
    "according to the {city} trip notes",
    "told during call {n}",
    "for the {project} work in {year}",
]


def _memories(size, seed):
    rng = random.Random(seed)
    start = datetime(2023, 1, 1, tzinfo=UTC)
    for n in range(size):
        _, _, text = _text(rng)
        detail = rng.choice(DETAILS).format(
            year=rng.randint(2010, 2025),
            person=rng.choice(PEOPLE),
            day=rng.choice(DAYS),
            n=n,
            city=rng.choice(CITIES),
            project=rng.choice(PROJECTS),
        )
        text = f"{text.rstrip('.')} ({detail}, #{n})."
        created = start + timedelta(minutes=7 * n + rng.randint(0, 6))
        yield str(uuid.UUID(int=rng.getrandbits(128), version=4)), text, created


def write_mem0(path, memories):
    items = []
    for memory_id, text, created in memories:
        items.append(
            {
                "id": memory_id,
                "memory": text,
                "hash": hashlib.md5(text.encode()).hexdigest(),
                "metadata": None,
                "created_at": created.isoformat(),
                "updated_at": None,
                "user_id": "alice",
            }
        )
    path.write_text(json.dumps({"results": items}, ensure_ascii=False))


def write_native(path, memories, name):
    now = datetime.now(UTC).isoformat().replace("+00:00", "Z")
    with path.open("w", encoding="utf-8") as out:
        out.write(f'{{"format": "bestie-memory-export", "version": 1, "exported_at": "{now}", "memories": [\n')
        events = []
        for index, (memory_id, text, created) in enumerate(memories, 1):
            at = created.isoformat().replace("+00:00", "Z")
            record = {
                "id": index,
                "text": text,
                "kind": "fact",
                "subject": "",
                "scope": "core",
                "user": "alice",
                "channel": "",
                "project": "",
                "layer": "working",
                "status": "pending",
                "pinned": False,
                "stale": False,
                "superseded_by": None,
                "expires_at": None,
                "confidence": 1.0,
                "source": f"mem0:{name}#{memory_id}",
                "source_kind": "import",
                "message_id": None,
                "flags": [],
                "created_at": at,
                "confirmed_at": now,
                "last_accessed_at": None,
                "access_count": 0,
                "deleted_at": None,
            }
            out.write(("" if index == 1 else ",\n") + json.dumps(record, ensure_ascii=False))
            events.append({"id": index, "memory_id": index, "event": "propose", "actor": "owner:cli", "at": now})
        out.write('\n], "history": [\n')
        for index, event in enumerate(events):
            event.update(old=None, new={"status": "pending"}, text_sha256="", note="")
            out.write(("" if index == 0 else ",\n") + json.dumps(event))
        out.write("\n]}\n")


def _run(args, env):
    """Run a child; its wall-clock seconds and peak resident set in MB."""
    started = time.perf_counter()
    child = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT)
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - started
    stderr = child.stderr.read().decode(errors="replace")
    child.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(map(str, args))} failed:\n{stderr}")
    return round(seconds, 2), round(usage.ru_maxrss / 1024, 1)


def measure(directory, name, file, extra):
    db = directory / f"{name}.sqlite3"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    env = {**os.environ, "BESTIE_DB_PATH": str(db), "BESTIE_VAR_DIR": str(directory)}
    env.pop("DATABASE_URL", None)
    manage = [sys.executable, str(ROOT / "manage.py")]
    _run([*manage, "migrate", "--verbosity", "0"], env)
    seconds, peak = _run([*manage, "memory", "import", *extra, str(file)], env)
    with sqlite3.connect(db) as connection:
        statuses = dict(connection.execute("SELECT status, count(*) FROM memory GROUP BY status").fetchall())
        flagged = connection.execute("SELECT count(*) FROM memory WHERE flags != '[]'").fetchone()[0]
        events = connection.execute("SELECT count(*) FROM memory_history").fetchone()[0]
    return {
        "seconds": seconds,
        "peak_rss_mb": peak,
        "file_mb": round(file.stat().st_size / 2**20, 1),
        "memories": statuses,
        "flagged": flagged,
        "history_events": events,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dir", default=str(ROOT / "var" / "bench-import"))
    args = parser.parse_args()
    directory = Path(args.dir).resolve()
    shutil.rmtree(directory, ignore_errors=True)
    directory.mkdir(parents=True)
    mem0_file, native_file = directory / "mem0-export.json", directory / "bestie-export.json"
    memories = list(_memories(args.size, args.seed))
    write_mem0(mem0_file, memories)
    write_native(native_file, memories, mem0_file.name)
    figures = {
        "size": args.size,
        "mem0": measure(directory, "mem0", mem0_file, ["--from", "mem0"]),
        "native": measure(directory, "native", native_file, []),
    }
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
