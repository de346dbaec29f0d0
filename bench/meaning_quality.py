"""Duplicates and contradictions the doctor finds on the blind bilingual meaning sets.

    .venv/bin/python bench/meaning_quality.py                 # the tune part (bench/meaning_set_tune.py)
    .venv/bin/python bench/meaning_quality.py --held-out      # the held-out part: measure, never tune on it
    .venv/bin/python bench/meaning_quality.py --held-out-N    # N = 2 to 18: parts written blind later (--help says
                                                              # which is for what; 4 is the one held out for good)
    .venv/bin/python bench/meaning_quality.py --same-language [--same-language-held-out]   # duplicates and
                                                              # contradictions within one language
    BESTIE_EMBEDDINGS=local .venv/bin/python bench/meaning_quality.py --store [--held-out]   # with meaning

The sets were written blind (by someone who saw only a description of them): memories of several people
in Vietnamese and English, each with the user, kind and subject slug an agent would give it, labelled
with the group of memories stating the same fact, the pairs of groups that cannot both be true, and
look-alike pairs that are neither. Most duplicate groups mix the two languages, and their subject slugs
often differ.

Scores:
- duplicates, over pairs: a pair the doctor groups is right when both memories are in one labelled group
  (precision); a labelled pair should be grouped (recall);
- contradictions, over labelled pairs of groups: found when the doctor reports a conflict between a
  memory of each; a reported conflict between two groups the set says are compatible is a false one, and
  so is one between memories of one group (counted apart, as conflicts inside a group);
- look-alikes taken for duplicates: labelled look-alike pairs the doctor grouped.
The doctor compares the memories of one block (user, kind, subject), as it does in the store.
"""

import argparse
import importlib
import os
import sys
from collections import defaultdict
from itertools import combinations
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _pairs(groups):
    return {tuple(sorted(pair)) for group in groups for pair in combinations(group, 2)}


def doctor_findings(rows):
    """The doctor's duplicate groups and conflicts (lists of keys), block by block."""
    from governance.doctor import block_findings
    from memories.language.folding import fold

    blocks = defaultdict(list)
    for key, user, kind, subject, text, _ in rows:
        blocks[(user, kind, fold(subject))].append((key, text))
    duplicates, conflicts = [], []
    for (_user, kind, subject), members in blocks.items():
        found, opposed = block_findings(members, subject, kind)
        duplicates.extend(found)
        conflicts.extend(opposed)
    return duplicates, conflicts


def write_store(rows):
    """The rows written to a fresh SQLite store, one approved memory each with its user, kind and subject,
    their vectors made when embeddings are on: ``{memory id: row}``."""
    from django.core.management import call_command

    from memories import lifecycle, vectors
    from memories.language import embeddings

    call_command("migrate", verbosity=0)
    row_of = {}
    for row in rows:
        _key, user, kind, subject, text, _group = row
        memory = lifecycle.add(
            text=text,
            kind=kind,
            subject=subject,
            user=user,
            source="meaning set",
            source_kind="owner",
            actor="owner:bench",
        )
        row_of[memory.pk] = row
    if embeddings.enabled():
        vectors.build()
    return row_of


def store_findings(rows):
    """The doctor's findings as the store gives them (``write_store``, then ``find_duplicates_and_conflicts``),
    mapped back to the set's keys."""
    from governance.doctor import find_duplicates_and_conflicts

    key_of = {memory_id: row[0] for memory_id, row in write_store(rows).items()}
    duplicates, conflicts = find_duplicates_and_conflicts()
    return [[key_of[i] for i in group] for group in duplicates], [[key_of[i] for i in group] for group in conflicts]


def score(module, duplicates, conflicts):
    group_of = {key: group for key, *_, group in module.MEMORIES}
    labelled = defaultdict(list)
    for key, group in group_of.items():
        labelled[group].append(key)
    truth, guessed = _pairs(labelled.values()), _pairs(duplicates)
    right = truth & guessed
    contradictions = {tuple(sorted(pair)) for pair in module.CONTRADICTIONS}
    reported, inside = set(), 0
    for keys in conflicts:
        groups = {group_of[key] for key in keys}
        reported.update(tuple(sorted(pair)) for pair in combinations(sorted(groups), 2))
        # A conflict between two memories stating one fact is a false one the pairs of groups cannot count.
        inside += len(groups) == 1
    lookalikes = {tuple(sorted(pair)) for pair in getattr(module, "LOOKALIKES", [])}
    grouped_groups = {tuple(sorted((group_of[a], group_of[b]))) for a, b in guessed if group_of[a] != group_of[b]}
    return {
        "memories": len(group_of),
        "duplicate_pairs": len(truth),
        "duplicate_precision": round(len(right) / len(guessed), 3) if guessed else 1.0,
        "duplicate_recall": round(len(right) / len(truth), 3) if truth else 1.0,
        "wrong_duplicate_pairs": len(guessed - truth),
        "contradictions": len(contradictions),
        "contradictions_found": len(contradictions & reported),
        "contradictions_missed": len(contradictions - reported),
        "false_contradictions": len(reported - contradictions),
        "conflicts_inside_a_group": inside,
        "lookalikes_taken_for_duplicates": len(lookalikes & grouped_groups),
    }


# The held-out parts, newest first, each with what it is for (its ``--held-out-N`` flag).
PARTS = {
    "held_out_18": "an eighteenth, of an accountant in Hải Phòng, her crane-operator husband, her sister and father, "
    "written blind on 2026-12-07 (seventeenth session) after the session's first rules, run on the code before "
    "and after them, never opened",
    "held_out_17": "a seventeenth, of a rice-and-fertiliser shop owner in Vĩnh Long and his family, written blind on "
    "2026-12-07 (seventeenth session) after the session's first rules, run on the code before and after them, "
    "then opened",
    "held_out_16": "a sixteenth, of a pharmacist, her family and her assistant, written blind on 2026-12-07 (sixteenth "
    "session) after the session's first rules, run once on the code before and after them",
    "held_out_15": "a fifteenth, of a bakery-café owner, her family and her baker, written blind on 2026-12-07 "
    "(fifteenth session) after the session's rules, run once on the code before and after them",
    "held_out_14": "a fourteenth, of a developer who mixes English into Vietnamese (code-switching), written blind on "
    "2026-12-07 (fifteenth session), run once on the code as found before tuning",
    "held_out_13": "a thirteenth, of users called by name, written blind on 2026-12-07 (fourteenth session), run once "
    "on the code before and after the session's reading of names",
    "same_language_held_out": "a held-out part of duplicates and contradictions within one language, written blind on "
    "2026-12-06 (third session), run once before tuning; about 45 rows shown once by accident (a linter's output), "
    "not tuned on",
    "same_language": "duplicates and contradictions within one language, written blind on 2026-12-06 (third session) "
    "to tune on",
    "held_out_12": "a twelfth, written blind on 2026-12-06 (second session), run once on the code before and after",
    "held_out_11": "an eleventh, written blind on 2026-12-06, run once before and after this session's rules",
    "held_out_10": "a tenth, written blind on 2026-12-05, never opened",
    "held_out_9": "a ninth, written blind on 2026-12-05, shown once by accident (a formatter's diff), not tuned on",
    "held_out_8": "an eighth, written blind on 2026-12-05, run once before tuning",
    "held_out_7": "a seventh, written blind on 2026-12-04, for measuring (first rows seen, one rule rejected on it)",
    "held_out_6": "a sixth, written blind on 2026-12-03, for measuring only",
    "held_out_5": "a fifth, written blind later, for measuring only",
    "held_out_4": "a fourth, the one held out for good",
    "held_out_3": "a third, written blind later",
    "held_out_2": "a second held-out part, written blind later",
    "held_out": "the held-out part: measure, never tune on it",
}


def add_part_options(parser):
    """A flag for each held-out part (``--held-out``, ``--held-out-2``, …)."""
    for part, help in PARTS.items():
        parser.add_argument("--" + part.replace("_", "-"), action="store_true", help=help)


def load_set(options):
    """The set module the options name (``--held-out``, ``--held-out-2``, …; the tune part without one)."""
    name = next((part for part in PARTS if getattr(options, part, False)), "tune")
    return importlib.import_module(f"bench.meaning_set_{name}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_part_options(parser)
    parser.add_argument(
        "--store",
        action="store_true",
        help="through a fresh store and the doctor itself (with BESTIE_EMBEDDINGS=local: with meaning)",
    )
    options = parser.parse_args()
    if options.store:
        import tempfile

        os.environ["BESTIE_DB_PATH"] = str(Path(tempfile.mkdtemp()) / "meaning.sqlite3")
        os.environ.pop("DATABASE_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bestie_site.settings")
    import django

    django.setup()
    module = load_set(options)
    rows = list(module.MEMORIES)
    duplicates, conflicts = store_findings(rows) if options.store else doctor_findings(rows)
    result = score(module, duplicates, conflicts)
    print(f"{module.__name__}: " + ", ".join(f"{name} {value}" for name, value in result.items()))


if __name__ == "__main__":
    main()
