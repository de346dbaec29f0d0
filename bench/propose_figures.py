"""The agent write path's figures (issue #3), each against its baseline on the same rows in the same run.

    .venv/bin/python bench/propose_figures.py --size 100000            # SQLite file under var/
    .venv/bin/python bench/propose_figures.py --size 100000 --database-url postgres://postgres@127.0.0.1:5432/bench

- propose over HTTP with the write policy ``allow``: a real gunicorn (as ``bestie serve`` runs it) on
  127.0.0.1, one client process with one keep-alive connection, proposals/s sustained over --count
  proposals (token check, validation, secret filter, poisoning check, duplicate check, insert, audit);
- propose in-process (``memories.lifecycle.proposals.propose``), proposals/s;
- baseline for both: a plain INSERT of the same rows, one statement and one commit per row;
- approving 10,000 selected pending memories with ``lifecycle.approve``: seconds, and that it wrote one
  audit event each.
About one proposal in ten repeats a memory already in the store (the duplicate path: confirm).
Rebuilds the store first unless --reuse is given.
"""

import argparse
import http.client
import json
import os
import random
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

ACTOR = "owner:bench"


def proposals_for(rng, count, run, repeats):
    """``count`` proposal bodies: new memories, and about one in ten a repeat of a stored one."""
    from generate import SOURCE_KINDS, _text

    bodies = []
    for i in range(count):
        if repeats and rng.random() < 0.1:
            text, kind, subject, user = rng.choice(repeats)
        else:
            kind, subject, text = _text(rng)
            text, user = f"{text} ({run} {i})", "owner"
        source_kind = rng.choice([k for k in SOURCE_KINDS if k != "import"])
        bodies.append(
            {
                "text": text,
                "kind": kind,
                "subject": subject,
                "user": user,
                "source": "telegram message",
                "source_kind": source_kind,
                "channel": "telegram:1001",
                "confidence": 0.9,
            }
        )
    return bodies


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(env, port):
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "bestie_site.wsgi:application",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            "2",
            "--threads",
            "4",
            "--no-control-socket",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return server
        except OSError:
            time.sleep(0.1)
    server.terminate()
    sys.exit("gunicorn did not start within 30 s")


def figure_http(env, token, bodies):
    port = free_port()
    server = start_server(env, port)
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port)
        headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}

        def post(body):
            connection.request("POST", "/api/v1/memories", json.dumps(body), headers)
            response = connection.getresponse()
            answer = json.loads(response.read())
            if response.status not in (200, 201):
                raise SystemExit(f"unexpected answer {response.status}: {answer}")
            return answer["status"]

        for body in bodies[:100]:  # warm-up: both workers loaded, connection open
            post(body)
        measured = bodies[100:]
        started = time.perf_counter()
        statuses = [post(body) for body in measured]
        seconds = time.perf_counter() - started
        connection.close()
    finally:
        server.terminate()
        server.wait(timeout=15)
    return {
        "proposals": len(measured),
        "seconds": seconds,
        "per_second": len(measured) / seconds,
        "answers": {s: statuses.count(s) for s in sorted(set(statuses))},
    }


def figure_in_process(bodies):
    from memories.lifecycle import proposals

    started, cpu_started = time.perf_counter(), time.thread_time()
    statuses = [proposals.propose(**body, agent="bench").status for body in bodies]
    seconds, cpu_seconds = time.perf_counter() - started, time.thread_time() - cpu_started
    # The thread's CPU time too, for runs on a busy machine: the proposals per second it would do alone.
    return {
        "proposals": len(bodies),
        "seconds": seconds,
        "per_second": len(bodies) / seconds,
        "per_cpu_second": len(bodies) / cpu_seconds,
        "answers": {s: statuses.count(s) for s in sorted(set(statuses))},
    }


def figure_plain_insert(bodies):
    """The same rows with nothing but an INSERT each (autocommit, like one proposal per request)."""
    from django.db import connection
    from django.utils import timezone

    now = timezone.now()
    columns = (
        "text",
        "kind",
        "subject",
        "scope",
        '"user"',
        "channel",
        "project",
        "layer",
        "status",
        "pinned",
        "stale",
        "confidence",
        "source",
        "source_kind",
        "flags",
        "text_key",
        "created_at",
        "confirmed_at",
        "access_count",
    )
    sql = f"INSERT INTO memory ({', '.join(columns)}) VALUES ({', '.join(['%s'] * len(columns))})"
    started = time.perf_counter()
    with connection.cursor() as cursor:
        for body in bodies:
            cursor.execute(
                sql,
                [
                    body["text"] + " [baseline]",
                    body["kind"],
                    body["subject"],
                    "core",
                    body["user"],
                    body["channel"],
                    "",
                    "working",
                    "approved",
                    False,
                    False,
                    body["confidence"],
                    body["source"],
                    body["source_kind"],
                    "[]",
                    "",
                    now,
                    now,
                    0,
                ],
            )
    seconds = time.perf_counter() - started
    return {"rows": len(bodies), "seconds": seconds, "per_second": len(bodies) / seconds}


def figure_approve():
    from memories import lifecycle
    from memories.models import AuditEvent, Memory

    ids = list(Memory.objects.pending().order_by("?").values_list("pk", flat=True)[:10_000])
    events_before = AuditEvent.objects.filter(event="approve").count()
    started = time.perf_counter()
    count = lifecycle.approve(ids, actor=ACTOR)
    seconds = time.perf_counter() - started
    events = AuditEvent.objects.filter(event="approve").count() - events_before
    return {"selected": len(ids), "approved": count, "audit_events": events, "seconds": seconds}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--count", type=int, default=3000, help="proposals per measurement")
    parser.add_argument("--db", help="SQLite file (default var/bench-SIZE.sqlite3)")
    parser.add_argument("--database-url", help="a postgres:// URL instead of SQLite")
    parser.add_argument("--reuse", action="store_true", help="keep the store from an earlier run")
    args = parser.parse_args()
    args.db = args.db or str(ROOT / "var" / f"bench-{args.size}.sqlite3")
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="bestie_site.settings")
    if args.database_url:
        env["DATABASE_URL"] = args.database_url
    else:
        env.pop("DATABASE_URL", None)
        env["BESTIE_DB_PATH"] = str(Path(args.db).resolve())
    os.environ.clear()
    os.environ.update(env)
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

    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from memories import agent_tokens
    from memories.lifecycle import policies
    from memories.models import Memory

    call_command("migrate", verbosity=0)
    policies.resume(actor=ACTOR)
    policies.set_write_policy("allow", actor=ACTOR)
    token = agent_tokens.create_token(f"bench-{int(time.time())}", actor=ACTOR)
    rng = random.Random(3)
    repeats = list(Memory.objects.live().order_by("?").values_list("text", "kind", "subject", "user")[:500])
    # The run's time in the new texts: with --reuse, a second run's proposals are new memories too, not
    # duplicates of the first run's.
    run = int(time.time())
    in_process = proposals_for(rng, args.count, f"in-process {run}", repeats)
    over_http = proposals_for(rng, args.count + 100, f"http {run}", repeats)

    results = {"engine": connection.vendor, "size": args.size}
    results["propose_in_process"] = figure_in_process(in_process)
    results["propose_http"] = figure_http(env, token, over_http)
    results["baseline_plain_insert"] = figure_plain_insert(in_process)
    baseline = results["baseline_plain_insert"]["per_second"]
    results["propose_in_process"]["vs_baseline"] = results["propose_in_process"]["per_second"] / baseline
    results["propose_http"]["vs_baseline"] = results["propose_http"]["per_second"] / baseline
    results["approve_10000"] = figure_approve()
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
