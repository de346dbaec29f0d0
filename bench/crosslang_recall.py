"""Questions in the other language than their memory: context recall on the blind bilingual retrieval sets.

    .venv/bin/python bench/crosslang_recall.py                 # the tune part (bench/crosslang_set_tune.py)
    .venv/bin/python bench/crosslang_recall.py --held-out      # the held-out part: measure, never tune on it
    .venv/bin/python bench/crosslang_recall.py --held-out-2    # the second, written 2026-12-03
    .venv/bin/python bench/crosslang_recall.py --held-out-3    # the third, as an owner types, written 2026-12-06
    BESTIE_EMBEDDINGS=local .venv/bin/python bench/crosslang_recall.py [--held-out]   # hybrid too
    .venv/bin/python bench/crosslang_recall.py --database-url postgres://postgres@127.0.0.1:5432/bench_crosslang

The sets were written blind (by someone who saw only a description of them): an owner's memories, half in
Vietnamese and half in English, with look-alikes (the same topic, another person or value), and questions
each answered by one memory, most of them asked in the other language, some typed without diacritics.

Each question is sent to ``build_context`` (limit 10) over the same store, in these ways:
- ``context``: the context as it is (with embeddings on, hybrid);
- ``own words``: the context with the lexical backend's reading of the query in the other language left
  out (the baseline: the words alone, as before the lexicon served retrieval);
- ``bm25``: plain SQLite FTS5 BM25 over any word of the question (SQLite only);
- with embeddings on, ``lexical``: the context with embeddings off.
- ``search``: search as the owner types it (``memories.retrieval.finding.find``, the first 10), and with
  embeddings on ``lexical search``, the same with embeddings off.
A question is recalled at k when its memory is among the first k working memories the context injects
(a near-miss does not count); ``injected`` is how many memories a question gets on average (for search,
how many it shows), ``wrong first`` how many questions get another memory first.

``unrelated`` asks the same store the questions of the first two LoCoMo conversations (``--unrelated``,
read in place: questions about other people's lives, which no memory here answers) and counts, for each
way, the questions that get any memory and how many they get on average: what a way shows for nothing.
"""

import argparse
import importlib.util
import json
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.generate import fresh_store  # noqa: E402
from bench.locomo_recall import ANSWERABLE, DEFAULT_DATA  # noqa: E402
from bench.locomo_recall import bm25_ids as locomo_bm25_ids  # noqa: E402

SETS = {
    "tune": ROOT / "bench" / "crosslang_set_tune.py",
    "held out": ROOT / "bench" / "crosslang_set_held_out.py",
    "held out 2": ROOT / "bench" / "crosslang_set_held_out_2.py",
    "held out 3": ROOT / "bench" / "crosslang_set_held_out_3.py",
}


def load(path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.MEMORIES, module.QUESTIONS


def build(memories):
    from memories import lifecycle

    return {
        key: lifecycle.add(
            text=text,
            kind="fact",
            subject="",
            user="owner",
            source="crosslang set",
            source_kind="owner",
            actor="owner:bench",
        ).pk
        for key, text in memories.items()
    }


def context_ids(question):
    from memories.retrieval import build_context

    context = build_context(question, user="owner", limit=10, record_access=False)
    return [item.id for item in context.items if item.layer == "working"]


def own_words_ids(question):
    from unittest import mock

    from memories.retrieval.relevance import Across, LexicalBackend

    with mock.patch.object(LexicalBackend, "read_across", lambda self, queryset, query, limit: Across([], [], ())):
        return context_ids(question)


def lexical_ids(question):
    from django.test import override_settings

    with override_settings(BESTIE_EMBEDDINGS="off"):
        return context_ids(question)


def search_ids(question):
    """Search as the owner uses it (``memories.retrieval.finding.find``): the live memories, best first."""
    from memories.models import Memory
    from memories.retrieval.finding import find

    return list(find(Memory.objects.live().filter(user="owner"), question).values_list("pk", flat=True)[:10])


def lexical_search_ids(question):
    from django.test import override_settings

    with override_settings(BESTIE_EMBEDDINGS="off"):
        return search_ids(question)


def bm25_ids(question):
    return locomo_bm25_ids(question, "owner", 10)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--held-out", action="store_true", help="the held-out part")
    parser.add_argument("--held-out-2", action="store_true", help="the second held-out part (2026-12-03)")
    parser.add_argument(
        "--held-out-3", action="store_true", help="the third, as an owner types (2026-12-06): run once before and after"
    )
    parser.add_argument("--db", default=str(ROOT / "var" / "bench-crosslang.sqlite3"))
    parser.add_argument("--database-url", help="a postgres:// database to empty and use instead of the SQLite file")
    parser.add_argument("--verbose", action="store_true", help="print every question the context misses at 5")
    parser.add_argument(
        "--unrelated", type=Path, default=DEFAULT_DATA, help="a folder of LoCoMo conversations to ask questions from"
    )
    options = parser.parse_args()
    part = (
        "held out 3"
        if options.held_out_3
        else "held out 2"
        if options.held_out_2
        else "held out"
        if options.held_out
        else "tune"
    )
    memories, questions = load(SETS[part])
    fresh_store(options.db, options.database_url)
    from memories.language import embeddings
    from memories.language.words import VIETNAMESE, language_of

    ids = build(memories)
    methods = {"context": context_ids, "own words": own_words_ids, "search": search_ids}
    if embeddings.enabled():
        from memories import vectors

        vectors.build()
        methods["lexical"] = lexical_ids
        methods["lexical search"] = lexical_search_ids
    if not options.database_url:
        methods["bm25"] = bm25_ids
    # method: which: [at 1, at 5, questions, injected, wrong first]
    counts = {name: defaultdict(lambda: [0, 0, 0, 0, 0]) for name in methods}
    for question, key in questions:
        across = (language_of(question) == VIETNAMESE) != (language_of(memories[key]) == VIETNAMESE)
        which = "across languages" if across else "same language"
        for name, find in methods.items():
            found = find(question)
            for tally in (counts[name][which], counts[name]["all"]):
                tally[0] += found[:1] == [ids[key]]
                tally[1] += ids[key] in found[:5]
                tally[2] += 1
                tally[3] += len(found)
                tally[4] += bool(found) and found[0] != ids[key]
            if options.verbose and name == "context" and ids[key] not in found[:5]:
                print(f"missed ({which}): {question!r} -> {memories[key]!r}", file=sys.stderr)
    unrelated = [
        qa["question"]
        for path in sorted(options.unrelated.glob("*.json"))[:2]
        for qa in json.loads(path.read_text(encoding="utf-8"))["qa"]
        if qa.get("category") in ANSWERABLE
    ]
    result = {"set": part, "memories": len(memories), "questions": len(questions)}
    if unrelated:
        result["unrelated"] = {"questions": len(unrelated)}
        for name, find in methods.items():
            if name != "bm25":
                shown = [len(find(question)) for question in unrelated]
                result["unrelated"][name] = {
                    "with any": sum(1 for count in shown if count),
                    "shown": round(sum(shown) / len(shown), 2),
                }
    for name, by_which in counts.items():
        result[name] = {
            which: {
                "questions": tally[2],
                "recall@1": round(tally[0] / tally[2], 3),
                "recall@5": round(tally[1] / tally[2], 3),
                "injected": round(tally[3] / tally[2], 2),
                "wrong first": tally[4],
            }
            for which, tally in sorted(by_which.items())
        }
    print(json.dumps(result, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
