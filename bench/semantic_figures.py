"""Context assembly with embeddings on, next to words alone and to the raw vector query, on one store.

    .venv/bin/python bench/generate.py --size 100000 --db var/bench-retrieval-100000.sqlite3
    .venv/bin/python bench/semantic_figures.py --db var/bench-retrieval-100000.sqlite3
    .venv/bin/python bench/semantic_figures.py --database-url postgres://postgres@127.0.0.1:5432/bench_pg
    .venv/bin/python bench/semantic_figures.py --backfill 1000     # vectors made per second, model memory
    .venv/bin/python bench/semantic_figures.py --proposals         # proposals per CPU second, off and on
    .venv/bin/python bench/semantic_figures.py --db … --doctor     # the doctor's meaning step at 100k
    .venv/bin/python bench/semantic_figures.py --after-write 300   # the job's checks of fresh proposals

The store's vectors are filled first with random unit vectors (``--fill``, in one statement per batch):
what a search costs does not depend on what the vectors say, and 100,000 real ones take the model about
fifteen minutes. Each query is embedded for real by the local model every time (the query cache is
cleared), as a new question would be. For every query of ``bench/context_figures.py`` it times:
- ``hybrid``: ``build_context`` with ``BESTIE_EMBEDDINGS=local`` (embedding the query included);
- ``lexical``: ``build_context`` with embeddings off, on the same store;
- ``embed``: embedding the query alone;
- ``index``: ``vectors.nearest`` (the process's matrix, brought up to date with the table);
- ``sql scan``: the baseline without an index: read every vector from the table and take the best ten.
The store is changed (vectors added); use a copy you can regenerate.
"""

import argparse
import json
import os
import random
import resource
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def setup(store):
    if store and store.startswith("postgres"):
        os.environ["DATABASE_URL"] = store
    elif store:
        os.environ["BESTIE_DB_PATH"] = str(Path(store).resolve())
        os.environ.pop("DATABASE_URL", None)
    os.environ["BESTIE_EMBEDDINGS"] = "local"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bestie_site.settings")
    import django

    django.setup()


def fill(dimensions=384, batch=5000):
    """Random unit vectors for every embeddable memory without one, under the local model's name."""
    import numpy
    from django.utils import timezone

    from memories import vectors
    from memories.language import embeddings
    from memories.models import MemoryVector

    model = embeddings.model_name()
    generator = numpy.random.default_rng(7)
    todo = list(vectors.embeddable().filter(vector__isnull=True).values_list("pk", "text"))
    for start in range(0, len(todo), batch):
        rows = todo[start : start + batch]
        matrix = generator.standard_normal((len(rows), dimensions)).astype(numpy.float32)
        matrix /= numpy.linalg.norm(matrix, axis=1, keepdims=True)
        MemoryVector.objects.bulk_create(
            MemoryVector(
                memory_id=pk,
                model=model,
                text_sha256=vectors.text_sha256(text),
                language=vectors.language_of(text),
                vector=vectors.to_bytes(vector),
                made_at=timezone.now(),
            )
            for (pk, text), vector in zip(rows, matrix, strict=True)
        )
    return len(todo)


def measure(rounds):
    import numpy
    from context_figures import QUERIES
    from django.db import connection
    from django.test import override_settings

    from memories import vectors
    from memories.language import embeddings
    from memories.models import Memory, MemoryVector
    from memories.retrieval import build_context

    model = embeddings.model_name()
    embedder = embeddings.embedder()

    def hybrid(query):
        vectors._query_vector.cache_clear()
        return build_context(query, user="owner", project="bestie", channel="cli")

    def lexical(query):
        with override_settings(BESTIE_EMBEDDINGS="off"):
            return build_context(query, user="owner", project="bestie", channel="cli")

    def embed(query):
        return embedder.queries([query])

    def index(query):
        vectors._query_vector.cache_clear()
        return vectors.nearest(query, Memory.objects.injectable(), 50)

    def sql_scan(query):
        vector = embedder.queries([query])[0]
        with connection.cursor() as cursor:
            cursor.execute("SELECT memory_id, vector FROM memory_vector WHERE model = %s", [model])
            ids, blobs = zip(*cursor.fetchall(), strict=True)
        matrix = numpy.frombuffer(b"".join(bytes(blob) for blob in blobs), dtype="<f4").reshape(len(ids), -1)
        scores = matrix @ vector
        return [ids[i] for i in numpy.argsort(-scores)[:10]]

    methods = {"hybrid": hybrid, "lexical": lexical, "embed": embed, "index": index, "sql scan": sql_scan}
    times = {name: [] for name in methods}
    cpu = {name: [] for name in methods}
    hybrid("warm up")  # loads the model, the anchors and the matrix
    for round_number in range(rounds + 1):
        for query in QUERIES:
            for name, run in methods.items():
                if name == "sql scan" and round_number > 1:
                    continue  # seconds each: two rounds say enough
                started, started_cpu = time.perf_counter(), time.process_time()
                run(query)
                if round_number:
                    times[name].append((time.perf_counter() - started) * 1000)
                    cpu[name].append((time.process_time() - started_cpu) * 1000)
    meaning = build_context("where do I live", record_access=False).meaning
    return {
        "vendor": connection.vendor,
        "live": Memory.objects.live().count(),
        "vectors": MemoryVector.objects.count(),
        "meaning": meaning,
        "rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "times": times,
        "cpu": cpu,
    }


def backfill(count):
    """Vectors made per second by ``vectors.build`` on ``count`` fresh memories, and the model's memory."""
    import tempfile

    path = Path(tempfile.mkdtemp()) / "backfill.sqlite3"
    setup(str(path))
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from context_figures import QUERIES

    from memories import lifecycle, vectors

    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    news = [
        lifecycle.prepare(
            text=f"{QUERIES[i % len(QUERIES)]} (note {i})",
            kind="fact",
            source="bench",
            source_kind="owner",
        )
        for i in range(count)
    ]
    lifecycle.store_many(news, actor="owner:bench", status="approved", flags=[()] * count)
    started = time.perf_counter()
    built = vectors.build()
    seconds = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {
        "memories": count,
        "made": built.made,
        "seconds": round(seconds, 1),
        "per_second": round(built.made / seconds, 1),
        "rss_before_mib": round(before),
        "rss_after_mib": round(after),
    }


def proposals_cpu(rounds=4, batch=500):
    """Proposals per CPU second with embeddings off and on, alternating in one process on a fresh store:
    with them on, a write only registers a hook that asks the job cluster for vectors."""
    import tempfile

    setup(str(Path(tempfile.mkdtemp()) / "proposals.sqlite3"))
    from django.core.management import call_command
    from django.test import override_settings

    call_command("migrate", verbosity=0)
    from django_q.models import OrmQ

    from memories.lifecycle import proposals

    rates, number = {"off": [], "local": []}, 0
    for _ in range(rounds):
        for mode in rates:
            with override_settings(BESTIE_EMBEDDINGS=mode):
                started = time.process_time()
                for _ in range(batch):
                    number += 1
                    proposals.propose(
                        text=f"User note number {number} about topic {number % 97} and thing {number % 13}",
                        kind="fact",
                        subject=f"s{number % 50}",
                        source="bench",
                        source_kind="user_message",
                        agent="bench",
                        user="owner",
                    )
                rates[mode].append(round(batch / (time.process_time() - started)))
    return {"per_cpu_second": rates, "tasks_queued": OrmQ.objects.count(), "proposals": number}


def after_write(count, stored=3000):
    """The job after writes (``proposals.embed_and_check``) on ``count`` fresh proposals among ``stored``
    live memories of one user, against its baseline in the same run: ``vectors.build`` alone on as many
    fresh memories, the model's part. What is left is the checks by meaning, per proposal."""
    import tempfile

    setup(str(Path(tempfile.mkdtemp()) / "after-write.sqlite3"))
    from django.core.management import call_command
    from django.test import override_settings

    call_command("migrate", verbosity=0)
    from generate import _text

    from memories import lifecycle, vectors
    from memories.lifecycle import policies, proposals

    rng = random.Random(7)
    with override_settings(BESTIE_EMBEDDINGS="local"):
        stored_news = [
            lifecycle.prepare(
                text=_text(rng)[2], kind="fact", subject=f"s{i % 40}", user="owner", source="bench", source_kind="owner"
            )
            for i in range(stored)
        ]
        lifecycle.store_many(stored_news, actor="owner:bench", status="approved", flags=[()] * stored)
        vectors.build()

        def fresh():
            return [
                lifecycle.prepare(
                    text=f"{_text(rng)[2]} (note {i})",
                    kind="fact",
                    subject=f"t{i % 40}",
                    user="owner",
                    source="bench",
                    source_kind="owner",
                )
                for i in range(count)
            ]

        lifecycle.store_many(fresh(), actor="owner:bench", status="approved", flags=[()] * count)
        started = time.perf_counter()
        vectors.build()
        build_seconds = time.perf_counter() - started
        policies.set_write_policy("ask", actor="owner:bench")
        answers = [
            proposals.propose(
                text=f"{_text(rng)[2]} (remark {i})",
                kind="fact",
                subject=f"u{i % 40}",
                user="owner",
                source="bench",
                source_kind="user_message",
                agent="bench",
            )
            for i in range(count)
        ]
        started = time.perf_counter()
        report = proposals.embed_and_check()
        job_seconds = time.perf_counter() - started
    return {
        "stored": stored,
        "proposals": count,
        "pending": sum(answer.status == "pending" for answer in answers),
        "job": report,
        "job_seconds": round(job_seconds, 2),
        "baseline_build_seconds": round(build_seconds, 2),
        "checks_ms_per_proposal": round(1000 * (job_seconds - build_seconds) / count, 1),
    }


def doctor_times():
    """``find_duplicates_and_conflicts`` on the store with embeddings off (the baseline: words inside each
    subject) and on (neighbours in meaning and counterparts across languages too), best of two each."""
    from django.test import override_settings

    from governance import doctor
    from memories import vectors
    from memories.language import embeddings

    vectors.index(embeddings.model_name())  # read the matrix once, as a long-running process has
    for mode in ("off", "local"):
        with override_settings(BESTIE_EMBEDDINGS=mode):
            best = None
            for _ in range(2):
                started, cpu = time.perf_counter(), time.process_time()
                duplicates, conflicts = doctor.find_duplicates_and_conflicts()
                took = (time.perf_counter() - started, time.process_time() - cpu)
                best = min(best or took, took)
            print(
                f"  doctor, embeddings {mode:<5}: wall {best[0]:6.1f} s, cpu {best[1]:6.1f} s,"
                f" {len(duplicates)} duplicate groups, {len(conflicts)} conflicts"
            )


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", help="an SQLite store from bench/generate.py")
    parser.add_argument("--database-url", help="a postgres:// store from bench/generate.py")
    parser.add_argument("--rounds", type=int, default=5, help="times each query is asked (default 5)")
    parser.add_argument("--backfill", type=int, help="measure vectors.build on this many new memories instead")
    parser.add_argument("--proposals", action="store_true", help="proposals per CPU second, embeddings off and on")
    parser.add_argument(
        "--doctor", action="store_true", help="the doctor's duplicates and conflicts on the store, meaning off and on"
    )
    parser.add_argument("--after-write", type=int, help="the job's checks of this many fresh proposals")
    args = parser.parse_args()
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    if args.after_write:
        print(json.dumps(after_write(args.after_write), indent=2))
        return
    if args.proposals:
        print(json.dumps(proposals_cpu(), indent=2))
        return
    if args.backfill:
        print(json.dumps(backfill(args.backfill), indent=2))
        return
    store = args.db or args.database_url
    if not store:
        parser.error("give --db, --database-url or --backfill")
    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    setup(store)
    started = time.perf_counter()
    filled = fill()
    print(f"filled {filled} random vectors in {time.perf_counter() - started:.1f} s")
    if args.doctor:
        doctor_times()
        return
    result = measure(args.rounds)
    print(
        f"{result['vendor']}: {result['live']} live memories, {result['vectors']} vectors,"
        f" meaning {result['meaning']!r}, peak RSS {result['rss_mib']:.0f} MiB"
    )
    print("  wall = elapsed; cpu = CPU time of every thread of this process (what the work costs when others compete)")
    for name, values in result["times"].items():
        spent = result["cpu"][name]
        print(
            f"  {name:<8} wall median {statistics.median(values):8.2f} p95 {percentile(values, 0.95):8.2f} ms"
            f"   cpu median {statistics.median(spent):8.2f} p95 {percentile(spent, 0.95):8.2f} ms"
        )
    hybrid, lexical = result["times"]["hybrid"], result["times"]["lexical"]
    print(f"  hybrid / lexical (median): {statistics.median(hybrid) / statistics.median(lexical):.2f}x")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
