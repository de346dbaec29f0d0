"""Retrieval quality: recall@5 and recall@10 of the default scoring next to plain BM25, same rows.

    .venv/bin/python bench/retrieval_quality.py --distractors 20000 --db var/bench-retrieval-quality.sqlite3

Builds a store with ``bench/generate.py`` (the distractors: realistic memories in Vietnamese and English in
every layer and state), adds the labelled memories of ``bench/retrieval_set.py`` as live working memories
with random confidence, age and use (so the other signals are noise with respect to the labels), then asks
every question of the set three ways over the same rows (what governed retrieval may inject for user
``owner``, working layer):

- ``default``: ``build_context`` as an assistant would call it (limit 10, budget large enough for 10);
  only what it would inject counts, so its score threshold can cost recall here;
- ``bm25 (OR)``: plain FTS5 BM25 over the query's words, any of them (``bm25(memory_fts)``);
- ``bm25 (AND)``: plain FTS5 BM25 needing every word, as ``bestie memory search`` does.

A question is recalled at k when its memory is among the first k working memories.
"""

import argparse
import os
import random
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.generate import _setup, generate  # noqa: E402


def add_labelled(memories, seed=3):
    """The labelled memories as live working memories; returns {key: id}."""
    from memories.language.meaning import text_key
    from memories.models import Memory

    rng = random.Random(seed)
    now = datetime.now(UTC)
    rows = []
    for key, text in memories.items():
        confirmed = now - timedelta(days=rng.randint(0, 400))
        rows.append(
            Memory(
                text=text,
                kind="fact",
                subject=key.split(":")[0],
                scope="core",
                user="owner",
                layer="working",
                status="approved",
                confidence=round(rng.uniform(0.5, 1.0), 2),
                source="retrieval set",
                source_kind="owner",
                created_at=confirmed,
                confirmed_at=confirmed,
                text_key=text_key(text),
                access_count=rng.choice([0, 0, 1, 5, 30]),
            )
        )
    created = Memory.objects.bulk_create(rows)
    return {key: memory.pk for key, memory in zip(memories, created)}


def plain_bm25(query, allowed_ids, k, conjunction):
    """The first k of ``allowed_ids`` by FTS5 bm25 for the query's folded words, OR or AND."""
    from django.db import connection

    from memories.language.folding import search_terms

    words = search_terms(query)
    if not words:
        return []
    expression = f" {conjunction} ".join(f'"{word}"' for word in words)
    with connection.cursor() as cursor:
        cursor.execute("SELECT rowid FROM memory_fts WHERE memory_fts MATCH %s ORDER BY rank LIMIT 2000", [expression])
        ranked = [row[0] for row in cursor.fetchall()]
    return [memory_id for memory_id in ranked if memory_id in allowed_ids][:k]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--distractors", type=int, default=20000)
    parser.add_argument("--db", default=str(ROOT / "var" / "bench-retrieval-quality.sqlite3"))
    parser.add_argument("--show-misses", action="store_true", help="print the questions the default scoring missed")
    args = parser.parse_args()
    args.database_url = None
    _setup(args)

    from bench.retrieval_set import MEMORIES, PAIRS
    from memories.models import Layer, Memory
    from memories.retrieval import build_context, governed

    generate(args.distractors, seed=1)
    ids = add_labelled(MEMORIES)
    allowed = set(
        governed(Memory.objects.injectable(), "governed", user="owner", channel="", project="")
        .filter(layer=Layer.WORKING)
        .values_list("pk", flat=True)
    )
    print(
        f"store: {Memory.objects.count()} memories, {len(allowed)} injectable working for user owner; "
        f"{len(MEMORIES)} labelled memories, {len(PAIRS)} questions"
    )

    hits = {name: {5: 0, 10: 0} for name in ("default", "bm25 (OR)", "bm25 (AND)")}
    misses = []
    started = time.perf_counter()
    for query, key in PAIRS:
        target = ids[key]
        context = build_context(query, user="owner", limit=10, budget_tokens=10_000, record_access=False)
        rankings = {
            "default": [item.id for item in context.items if item.layer == Layer.WORKING],
            "bm25 (OR)": plain_bm25(query, allowed, 10, "OR"),
            "bm25 (AND)": plain_bm25(query, allowed, 10, "AND"),
        }
        for name, ranking in rankings.items():
            for k in (5, 10):
                hits[name][k] += target in ranking[:k]
        if target not in rankings["default"][:5]:
            misses.append((query, MEMORIES[key]))
    elapsed = time.perf_counter() - started

    print(f"{'scoring':<12}{'recall@5':>10}{'recall@10':>11}")
    for name, found in hits.items():
        print(f"{name:<12}{found[5] / len(PAIRS):>10.3f}{found[10] / len(PAIRS):>11.3f}")
    print(f"({len(PAIRS)} questions in {elapsed:.1f}s)")
    if args.show_misses:
        for query, text in misses:
            print(f"missed@5: {query!r} -> {text!r}")


if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bestie_site.settings")
    main()
