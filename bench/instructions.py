"""A workload to count instructions of, for before/after comparisons on a machine whose speed moves.

    valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        .venv/bin/python bench/instructions.py propose --db var/bench-100000.sqlite3 --count 600
    valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        .venv/bin/python bench/instructions.py propose --db var/bench-100000.sqlite3 --count 0   # start-up

callgrind prints ``I refs``: the instructions run. The same command with nothing to do (``--count 0``,
``--rounds 0``) gives the start-up; the difference is the work. ``--code DIR`` measures the code of another
checkout (an older commit, say) with this script. ``propose`` works on a copy of the store, so every run
starts from the same rows; ``context`` (the 20 questions of ``context_figures.py``, not counted as used)
and ``doctor`` (``analyze``) only read it.
"""

import argparse
import os
import random
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("workload", choices=["propose", "context", "doctor"])
    parser.add_argument("--db", required=True, help="an SQLite store from bench/generate.py")
    parser.add_argument("--code", default=str(ROOT), help="the checkout whose code runs (default this one)")
    parser.add_argument("--count", type=int, default=600, help="proposals (propose)")
    parser.add_argument("--rounds", type=int, default=1, help="times the work is done (context, doctor)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as scratch:
        db = args.db
        if args.workload == "propose":
            db = str(Path(scratch) / "store.sqlite3")
            shutil.copy(args.db, db)
        sys.path[:0] = [args.code, str(Path(args.code) / "bench"), str(ROOT / "bench")]
        os.environ.pop("DATABASE_URL", None)
        os.environ.update(BESTIE_DB_PATH=db, DJANGO_SETTINGS_MODULE="bestie_site.settings")
        import django

        django.setup()
        print(globals()[args.workload](args))


def propose(args):
    import propose_figures

    from memories.models import Memory

    try:
        from memories.lifecycle import policies
    except ImportError:  # before the layering
        from governance import policies
    policies.set_write_policy("allow", actor="owner:bench")
    repeats = list(Memory.objects.live().values_list("text", "kind", "subject", "user")[:2000])
    bodies = propose_figures.proposals_for(random.Random(7), args.count, 1, repeats)
    return propose_figures.figure_in_process(bodies)["answers"] if bodies else {}


def context(args):
    from context_figures import QUERIES

    from memories.retrieval import build_context

    found = 0
    for _ in range(args.rounds):
        for query in QUERIES:
            found += len(build_context(query, user="owner", project="bestie", channel="cli", record_access=False).items)
    return {"items": found}


def doctor(args):
    from governance import doctor as store_doctor

    report = None
    for _ in range(args.rounds):
        report = store_doctor.analyze()
    return report and {"duplicates": len(report.duplicates), "conflicts": len(report.conflicts)}


if __name__ == "__main__":
    main()
