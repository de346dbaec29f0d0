"""How well and how fast the secret filter does on the labelled corpus (tests/data/secret_corpus.py).

Run from the repository root: ``.venv/bin/python bench/secret_filter_quality.py [--verbose]``. Prints the
confusion matrix, recall per kind, precision, and the time per call next to a baseline: one pass of a
single precompiled regex over the same sentences (the least any filter that reads the text costs).
"""

import argparse
import re
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from memories.secrets import find_secrets  # noqa: E402
from tests.data.secret_corpus import NOT_SECRETS, SECRETS  # noqa: E402

TYPICAL = [
    "User prefers short answers in Vietnamese and likes the dark theme on the console app.",
    "Người dùng thích uống cà phê sữa đá vào buổi sáng trước khi đi làm ở quận 7 nhé.",
    "Project Bestie uses Django 5.2 and SQLite FTS5; the deploy runs on Debian 12 nightly.",
    "Owner's daughter Mai has swimming lessons on Saturday at 9:00 at the Yết Kiêu pool.",
]


def quality(verbose):
    refused = [(kind, text) for kind, text in SECRETS if find_secrets(text)]
    missed = [(kind, text) for kind, text in SECRETS if not find_secrets(text)]
    false_refusals = [text for text in NOT_SECRETS if find_secrets(text)]
    true_pos, false_neg = len(refused), len(missed)
    false_pos, true_neg = len(false_refusals), len(NOT_SECRETS) - len(false_refusals)
    print(f"corpus: {len(SECRETS)} secrets, {len(NOT_SECRETS)} look-alike non-secrets\n")
    print(f"{'':>16}{'refused':>10}{'stored':>10}")
    print(f"{'secret':>16}{true_pos:>10}{false_neg:>10}")
    print(f"{'not a secret':>16}{false_pos:>10}{true_neg:>10}\n")
    print(f"recall (secrets refused):           {true_pos / len(SECRETS):.1%}")
    print(f"false refusals (non-secrets):       {false_pos / len(NOT_SECRETS):.1%}")
    print(f"precision (refusals that were right): {true_pos / (true_pos + false_pos):.1%}\n")
    totals, caught = Counter(kind for kind, _ in SECRETS), Counter(kind for kind, _ in refused)
    for kind in sorted(totals):
        print(f"  {kind:<22}{caught[kind]:>4}/{totals[kind]}")
    if verbose:
        for kind, text in missed:
            print(f"missed {kind}: {text}")
        for text in false_refusals:
            print(f"refused: {text}")


def speed(rounds=20000):
    baseline = re.compile(r"(?i)password|mật khẩu|\d{4}")
    for label, call in (("baseline: one regex search", baseline.search), ("find_secrets", find_secrets)):
        start = time.perf_counter()
        for _ in range(rounds // len(TYPICAL)):
            for text in TYPICAL:
                call(text)
        per_call = (time.perf_counter() - start) / (rounds // len(TYPICAL) * len(TYPICAL))
        print(f"{label:<28}{per_call * 1e6:8.1f} µs per ~90-character sentence")
    everything = SECRETS and [text for _, text in SECRETS] + NOT_SECRETS
    start = time.perf_counter()
    for _ in range(20):
        for text in everything:
            find_secrets(text)
    per_call = (time.perf_counter() - start) / (20 * len(everything))
    print(f"{'find_secrets, whole corpus':<28}{per_call * 1e6:8.1f} µs per sentence")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--verbose", action="store_true", help="list every miss and false refusal")
    arguments = parser.parse_args()
    quality(arguments.verbose)
    print()
    speed()
