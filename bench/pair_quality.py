"""The doctor's and the write path's verdict on labelled pairs of memories, one pair at a time.

    .venv/bin/python bench/pair_quality.py PAIRS [--show wrong|all] [--json]
    BESTIE_EMBEDDINGS=local .venv/bin/python bench/pair_quality.py PAIRS …   # with meaning

PAIRS is a text file of lines ``TEXT A || TEXT B || label``, the label one of ``dup`` (the same fact),
``contra`` (one value of a fact in place of the other) or ``none`` (look-alikes: both can be true). Such
sets are written blind, by someone who sees only a description of the labels, and run once on the code as
it is before anything is tuned on them:
- ``bench/meaning_pairs_tune.txt``: 150 pairs written blind on 2026-12-07, run once, then tuned on;
- ``bench/meaning_pairs_held_out.txt``: 150 more written blind the same day, run once before and once after
  that session's rules; of its verdicts only the four wrong duplicates of the after run were looked at.
- ``bench/meaning_pairs_tune_2.txt``: 150 written blind on 2026-12-07 (eleventh session) by another helper,
  run once, then tuned on;
- ``bench/meaning_pairs_held_out_2.txt``: 150 written blind the same day by a third, about another owner (a
  café owner in Da Nang), run once before and once after that session's rules (the last ten lines of the
  first run's list of wrong verdicts were seen, nothing tuned on them);
- ``bench/meaning_pairs_tune_3.txt``: 150 written blind on 2026-12-07 (twelfth session) about a freelance developer
  in Ho Chi Minh City, run once, then tuned on;
- ``bench/meaning_pairs_held_out_3.txt``: 150 written blind the same day by another helper about a retired teacher
  in Huế, run once before that session's rules and after; only the totals are looked at.

Each pair is judged in a fresh store (its own SQLite file), both memories the owner's, fact, no subject,
of one user:
- the doctor: both stored, approved; ``find_duplicates_and_conflicts`` says ``dup`` when it groups them,
  ``contra`` when it lists them as a conflict, ``none`` otherwise;
- the write path: A stored, approved; B proposed by an agent (and, with embeddings on, checked by meaning
  after the write as the job cluster does). ``dup`` when the answer is ``duplicate`` (or
  the proposal is A itself), ``contra`` when the proposal is flagged as a possible update, ``none``
  otherwise. A proposal refused (the secret filter, a rule) is counted apart.

Printed: per label, how many each reader answered with each verdict; the verdicts right; the wrong
duplicates (a fact dropped or merged that the set says is not the same) and the false contradictions.
"""

import argparse
import json
import os
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

LABELS = ("dup", "contra", "none")


def read_pairs(path):
    pairs = []
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        parts = [part.strip() for part in line.split("||")]
        if len(parts) != 3 or parts[2] not in LABELS:
            raise SystemExit(f"{path}:{number}: expected 'TEXT A || TEXT B || dup|contra|none'")
        pairs.append(tuple(parts))
    return pairs


# Both memories of a pair: one user's facts, with no subject.
MEMORY = {"kind": "fact", "subject": "", "user": "owner", "source": "pair set"}


def _add(text):
    from memories import lifecycle

    return lifecycle.add(text=text, source_kind="owner", actor="owner:bench", **MEMORY)


def _fresh_store():
    from memories.lifecycle import proposals
    from memories.models import Memory

    # One pair's memories never meet the next pair's: the bench's own store, emptied between pairs, and the
    # word counts the write path looks memories up by asked again.
    Memory.objects.all().delete()
    proposals.forget_counts()


def doctor_verdict(first, second):
    from governance.doctor import find_duplicates_and_conflicts
    from memories import vectors
    from memories.language import embeddings

    _fresh_store()
    ids = {_add(first).pk, _add(second).pk}
    if embeddings.enabled():
        vectors.build()
    duplicates, conflicts = find_duplicates_and_conflicts()
    if any(ids <= set(group) for group in duplicates):
        return "dup"
    if any(ids <= set(group) for group in conflicts):
        return "contra"
    return "none"


def write_verdict(first, second):
    from memories import vectors
    from memories.language import embeddings
    from memories.lifecycle import proposals
    from memories.lifecycle.validation import Refused
    from memories.models import Memory

    _fresh_store()
    stored = _add(first)
    if embeddings.enabled():
        vectors.build()
    try:
        answer = proposals.propose(text=second, source_kind="user_message", agent="bench", **MEMORY)
    except Refused:
        return "refused"
    if answer.status == proposals.REFUSED:
        return "refused"
    if answer.status != proposals.DUPLICATE and answer.id is not None and embeddings.enabled():
        proposals.embed_and_check()  # the job cluster's check after the write, run here and now
    if answer.status == proposals.DUPLICATE or answer.id == stored.pk:
        return "dup"
    memory = Memory.objects.filter(pk=answer.id).first()
    if memory is not None and memory.superseded_by_id == stored.pk:
        return "dup"  # merged by meaning after the write
    if memory is not None and proposals.POSSIBLE_UPDATE in (memory.flags or []):
        return "contra"
    return "none"


def run(pairs):
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    rows = []
    for first, second, label in pairs:
        rows.append(
            {
                "a": first,
                "b": second,
                "label": label,
                "doctor": doctor_verdict(first, second),
                "write": write_verdict(first, second),
            }
        )
    return rows


def summary(rows):
    result = {}
    for reader in ("doctor", "write"):
        table = {label: Counter(row[reader] for row in rows if row["label"] == label) for label in LABELS}
        result[reader] = {
            "by_label": {label: dict(table[label]) for label in LABELS},
            "right": sum(row[reader] == row["label"] for row in rows),
            "wrong_duplicates": sum(row[reader] == "dup" and row["label"] != "dup" for row in rows),
            "false_contradictions": sum(row[reader] == "contra" and row["label"] != "contra" for row in rows),
        }
    result["pairs"] = len(rows)
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pairs", help="a file of 'TEXT A || TEXT B || dup|contra|none' lines")
    parser.add_argument("--show", choices=("wrong", "all"), help="print the pairs, or those a reader got wrong")
    parser.add_argument("--json", action="store_true", help="print the rows and the summary as JSON")
    args = parser.parse_args()
    pairs = read_pairs(args.pairs)

    os.environ["BESTIE_VAR_DIR"] = tempfile.mkdtemp(prefix="bestie-pairs-")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bestie_site.settings")
    import django

    django.setup()
    rows = run(pairs)
    result = summary(rows)
    if args.json:
        print(json.dumps({"rows": rows, "summary": result}, ensure_ascii=False, indent=1))
        return
    for row in rows:
        wrong = row["doctor"] != row["label"] or row["write"] != row["label"]
        if args.show == "all" or (args.show == "wrong" and wrong):
            print(f"{row['label']:6} doctor {row['doctor']:7} write {row['write']:7} | {row['a']} || {row['b']}")
    for reader in ("doctor", "write"):
        figures = result[reader]
        counts = {label: sorted(figures["by_label"][label].items()) for label in LABELS}
        table = "  ".join(
            f"{label}: " + ", ".join(f"{verdict} {count}" for verdict, count in counts[label]) for label in LABELS
        )
        print(
            f"{reader:6} right {figures['right']}/{result['pairs']}  wrong duplicates {figures['wrong_duplicates']}"
            f"  false contradictions {figures['false_contradictions']}  ({table})"
        )


if __name__ == "__main__":
    main()
