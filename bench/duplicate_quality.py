"""How well the doctor finds duplicates on the labelled set (bench/duplicate_set.py).

Run from the repository root: ``.venv/bin/python bench/duplicate_quality.py [--verbose]``. Scores are over
pairs: a pair the doctor groups is right when the set puts both in one group (precision), and a pair of
one group should be grouped (recall). The baseline is the write path's own check alone (the same
``text_key``, or ``same_memory``: the same words in an order saying the same, typos only), on the same blocks.
"""

import argparse
import sys
from collections import defaultdict
from itertools import combinations
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _pairs(groups):
    return {tuple(sorted(pair)) for group in groups for pair in combinations(group, 2)}


def blocks(rows):
    by_block = defaultdict(list)
    for key, user, kind, subject, text, _ in rows:
        by_block[(user, kind, subject)].append((key, text))
    return by_block


def doctor_groups(rows):
    from governance.doctor import block_findings

    found = []
    for (_user, kind, subject), members in blocks(rows).items():
        found.extend(block_findings(members, subject, kind)[0])
    return found


def write_path_groups(rows):
    from memories.language.meaning import same_memory

    found = []
    for members in blocks(rows).values():
        groups = []
        for key, text in members:
            for group in groups:
                if same_memory(text, group[0]):
                    group[1].append(key)
                    break
            else:
                groups.append((text, [key]))
        found.extend(keys for _, keys in groups if len(keys) > 1)
    return found


def score(rows, found):
    """``(precision, recall, wrong pairs, missed pairs)`` of ``found`` groups against the labels."""
    labelled = defaultdict(list)
    for key, *_, group in rows:
        labelled[group].append(key)
    truth, guessed = _pairs(labelled.values()), _pairs(found)
    right = truth & guessed
    precision = len(right) / len(guessed) if guessed else 1.0
    recall = len(right) / len(truth) if truth else 1.0
    return precision, recall, sorted(guessed - truth), sorted(truth - guessed)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--verbose", action="store_true", help="print every wrong and missed pair")
    options = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    import os

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bestie_site.settings")
    import django

    django.setup()
    from bench.duplicate_set import group_count, memories

    rows = list(memories())
    texts = {row[0]: row[4] for row in rows}
    print(f"set: {len(rows)} memories in {group_count()} groups\n")
    for name, finder in (("baseline: write-path check", write_path_groups), ("doctor", doctor_groups)):
        precision, recall, wrong, missed = score(rows, finder(rows))
        print(
            f"{name:<28} precision {precision:.3f}  recall {recall:.3f}  "
            f"({len(wrong)} wrong, {len(missed)} missed pairs)"
        )
        if options.verbose and name == "doctor":
            for a, b in wrong:
                print(f"  wrong:  {texts[a]!r} ~ {texts[b]!r}")
            for a, b in missed:
                print(f"  missed: {texts[a]!r} ~ {texts[b]!r}")


if __name__ == "__main__":
    main()
