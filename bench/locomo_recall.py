"""Context recall on LoCoMo conversations: the project's context next to plain BM25 on the same rows.

    .venv/bin/python bench/locomo_recall.py                          # ../shared/data/locomo-dev/*.json
    .venv/bin/python bench/locomo_recall.py --data DIR [--verbose]   # any folder of LoCoMo conversations
    BESTIE_EMBEDDINGS=local .venv/bin/python bench/locomo_recall.py  # hybrid, next to lexical and dense alone
    .venv/bin/python bench/locomo_recall.py --database-url postgres://postgres@127.0.0.1:5432/bench_locomo

The task of the data's README: each conversation is one user; its session observations are that user's
memories (kind ``fact``, written at the session's date, the source naming the session and its date);
each question of categories 1 to 4 is sent to ``build_context`` for that user with a limit of 10, and it is
a hit at k when one of the first k memories returned cites one of the question's evidence turns. The
baseline is SQLite FTS5 BM25 over any word of the question, on the same user's rows.

The store is a fresh SQLite file (``--db``, rebuilt on every run), or a PostgreSQL database
(``--database-url``, emptied first; the FTS5 baseline is then left out). The data is read in place and
never copied into the repository.
"""

import argparse
import json
import re
import sys
from collections import defaultdict
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.generate import fresh_store  # noqa: E402

DEFAULT_DATA = ROOT.parent / "shared" / "data" / "locomo-dev"
ANSWERABLE = {1, 2, 3, 4}
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}


def session_time(text):
    """``1:56 pm on 8 May, 2023`` as an aware datetime (the conversations give no zone: UTC)."""
    return datetime.strptime(text.strip(), "%I:%M %p on %d %B, %Y").replace(tzinfo=ZoneInfo("UTC"))


def observations(conversation):
    """``(session number, when, speaker, fact, dia ids)`` of every observation, in session order."""
    sessions = sorted(
        int(match.group(1)) for key in conversation if (match := re.fullmatch(r"session_(\d+)_observation", key))
    )
    for number in sessions:
        when = session_time(conversation[f"session_{number}_date_time"])
        for speaker, facts in conversation[f"session_{number}_observation"].items():
            for fact, cited in facts:
                yield number, when, speaker, fact, {cited} if isinstance(cited, str) else set(cited)


def build(files):
    """Store every conversation's observations; returns ``{user: {memory id: dia ids}}``."""
    from memories import lifecycle

    cited = defaultdict(dict)
    for path in files:
        user = f"locomo-{path.stem}"
        for number, when, speaker, fact, dia_ids in observations(json.loads(path.read_text(encoding="utf-8"))):
            memory = lifecycle.add(
                text=fact,
                kind="fact",
                subject="",
                user=user,
                source=f"LoCoMo conversation {path.stem}, session {number} ({when:%d %B %Y}), {speaker}",
                source_kind="import",
                created_at=when,
                actor="owner:bench",
            )
            cited[user][memory.pk] = dia_ids
    return cited


def bm25_ids(question, user, limit):
    from django.db import connection

    from memories.language.folding import search_terms

    words = search_terms(question)
    if not words:
        return []
    expression = " OR ".join(f'"{word}"' for word in words)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT f.rowid FROM memory_fts f JOIN memory m ON m.id = f.rowid"
            ' WHERE memory_fts MATCH %s AND m."user" = %s ORDER BY rank LIMIT %s',
            [expression, user, limit],
        )
        return [row[0] for row in cursor.fetchall()]


def context_ids(question, user, limit):
    from memories.retrieval import build_context

    context = build_context(question, user=user, limit=limit, record_access=False)
    return [item.id for item in context.items if item.layer == "working"]


def lexical_ids(question, user, limit):
    """The context with embeddings off: words alone, on the same store."""
    from django.test import override_settings

    with override_settings(BESTIE_EMBEDDINGS="off"):
        return context_ids(question, user, limit)


def semantic_ids(question, user, limit):
    """Plain dense search: the closest vectors of the user's memories, nothing else."""
    from memories import vectors
    from memories.models import Memory

    found = vectors.nearest(question, Memory.objects.filter(user=user), limit)
    return list(found.closeness)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="a folder of LoCoMo conversation files")
    parser.add_argument("--db", default=str(ROOT / "var" / "bench-locomo.sqlite3"))
    parser.add_argument("--database-url", help="a postgres:// database to empty and use instead of the SQLite file")
    parser.add_argument("--verbose", action="store_true", help="print every question the context misses at 5")
    options = parser.parse_args()
    files = sorted(options.data.glob("*.json"))
    if not files:
        sys.exit(f"no LoCoMo conversations (*.json) in {options.data}")
    fresh_store(options.db, options.database_url)
    cited = build(files)
    methods = {"context": context_ids} if options.database_url else {"context": context_ids, "bm25": bm25_ids}
    from memories.language import embeddings

    if embeddings.enabled():
        from memories import vectors

        built = vectors.build()
        print(f"{built.made} vectors made ({embeddings.model_name()})", file=sys.stderr)
        methods = {"context": context_ids, "lexical": lexical_ids, "semantic": semantic_ids}
        if not options.database_url:
            methods["bm25"] = bm25_ids
    hits = {name: defaultdict(lambda: [0, 0, 0]) for name in methods}  # category: [at 5, at 10, questions]
    for path in files:
        user = f"locomo-{path.stem}"
        for qa in json.loads(path.read_text(encoding="utf-8"))["qa"]:
            if qa.get("category") not in ANSWERABLE:
                continue
            evidence = set(qa["evidence"])
            for name, find in methods.items():
                found = [cited[user].get(memory_id, set()) for memory_id in find(qa["question"], user, 10)]
                at = [bool(evidence & dia_ids) for dia_ids in found]
                counts = hits[name][qa["category"]]
                counts[0] += any(at[:5])
                counts[1] += any(at[:10])
                counts[2] += 1
                if options.verbose and name == "context" and not any(at[:5]):
                    print(f"missed [{CATEGORIES[qa['category']]}] {path.stem}: {qa['question']}")
    result = {"conversations": [path.stem for path in files], "memories": sum(map(len, cited.values()))}
    for name, by_category in hits.items():
        at5, at10, total = (sum(counts[i] for counts in by_category.values()) for i in range(3))
        result[name] = {
            "questions": total,
            "recall@5": round(at5 / total, 3),
            "recall@10": round(at10 / total, 3),
            "by_category@5": {CATEGORIES[c]: round(v[0] / v[2], 3) for c, v in sorted(by_category.items())},
        }
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
