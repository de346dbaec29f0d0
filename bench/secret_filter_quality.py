"""How well and how fast the secret filter does on the labelled corpus (tests/data/secret_corpus.py).

Run from the repository root: ``.venv/bin/python bench/secret_filter_quality.py [--verbose]``. Prints the
confusion matrix, recall per kind, precision, and the time per call next to a baseline: one pass of a
single precompiled regex over the same sentences (the least any filter that reads the text costs).
TYPICAL are ordinary ~90-character memories, the common case on the write path.
"""

import argparse
import re
import sys
import timeit
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

TYPICAL = [
    "User prefers short answers in Vietnamese and likes the dark theme on the console app.",
    "Người dùng thích uống cà phê sữa đá vào buổi sáng trước khi đi làm ở quận 7 nhé.",
    "Project Bestie uses Django 5.2 and SQLite FTS5; the deploy runs on Debian 12 nightly.",
    "Owner's daughter Mai has swimming lessons on Saturday at 9:00 at the Yết Kiêu pool.",
]


def quality(find_secrets, secrets, not_secrets, verbose):
    refused = [(kind, text) for kind, text in secrets if find_secrets(text)]
    missed = [(kind, text) for kind, text in secrets if not find_secrets(text)]
    false_refusals = [text for text in not_secrets if find_secrets(text)]
    true_pos, false_neg = len(refused), len(missed)
    false_pos, true_neg = len(false_refusals), len(not_secrets) - len(false_refusals)
    print(f"corpus: {len(secrets)} secrets, {len(not_secrets)} look-alike non-secrets\n")
    print(f"{'':>16}{'refused':>10}{'stored':>10}")
    print(f"{'secret':>16}{true_pos:>10}{false_neg:>10}")
    print(f"{'not a secret':>16}{false_pos:>10}{true_neg:>10}\n")
    print(f"recall (secrets refused):           {true_pos / len(secrets):.1%}")
    print(f"false refusals (non-secrets):       {false_pos / len(not_secrets):.1%}")
    print(f"precision (refusals that were right): {true_pos / (true_pos + false_pos):.1%}\n")
    totals, caught = Counter(kind for kind, _ in secrets), Counter(kind for kind, _ in refused)
    for kind in sorted(totals):
        print(f"  {kind:<22}{caught[kind]:>4}/{totals[kind]}")
    if verbose:
        for kind, text in missed:
            print(f"missed {kind}: {text}")
        for text in false_refusals:
            print(f"refused: {text}")


def per_call(function, texts, number=500, repeat=7):
    """Seconds per call, the best of ``repeat`` rounds (the least disturbed by other processes)."""
    best = min(timeit.repeat(lambda: [function(text) for text in texts], number=number, repeat=repeat))
    return best / number / len(texts)


def speed(find_secrets, secrets, not_secrets):
    baseline = re.compile(r"(?i)password|mật khẩu|\d{4}").search
    everything = [text for _, text in secrets] + not_secrets
    rows = (
        ("baseline: one regex search", baseline, TYPICAL),
        ("find_secrets", find_secrets, TYPICAL),
        ("baseline, whole corpus", baseline, everything),
        ("find_secrets, whole corpus", find_secrets, everything),
    )
    for label, function, texts in rows:
        seconds = per_call(function, texts, number=2000 if texts is TYPICAL else 20)
        print(f"{label:<28}{seconds * 1e6:8.1f} µs per sentence ({1 / seconds:,.0f} per second)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--verbose", action="store_true", help="list every miss and false refusal")
    arguments = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from memories.screening.secrets import find_secrets
    from tests.data.secret_corpus import NOT_SECRETS, SECRETS

    quality(find_secrets, SECRETS, NOT_SECRETS, arguments.verbose)
    print()
    speed(find_secrets, SECRETS, NOT_SECRETS)
