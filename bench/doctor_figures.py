"""The doctor's figures (issue #5): a full ``analyze`` over stores of 10k and 100k memories built by
bench/generate.py, and how it grows from one to the other.

    .venv/bin/python bench/doctor_figures.py [--sizes 10000 100000] [--rebuild]

Each size is measured in its own process on var/bench-doctor-N.sqlite3 (built when missing, or with
--rebuild). The baseline, on the same file in the same process, is the least any doctor must do: read
every live memory once and fold its words (``memories.language.words.words``). Times are wall clock, the
best of --repeat runs, with the process CPU time beside them (the machine may be shared).
"""

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def measure(db, repeat):
    sys.path.insert(0, str(ROOT))
    os.environ["BESTIE_DB_PATH"] = str(db)
    os.environ.pop("DATABASE_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bestie_site.settings")
    import django

    django.setup()
    from governance import doctor
    from memories.language.words import words
    from memories.models import Memory

    def baseline():
        return sum(len(words(text)) for text in Memory.objects.live().values_list("text", flat=True).iterator(5000))

    def timed(function):
        best = None
        for _ in range(repeat):
            wall, cpu = time.perf_counter(), time.process_time()
            result = function()
            run = (time.perf_counter() - wall, time.process_time() - cpu)
            best = run if best is None or run[0] < best[0] else best
        return best, result

    (base_wall, base_cpu), _ = timed(baseline)
    (wall, cpu), report = timed(doctor.analyze)
    return {
        "memories": Memory.objects.count(),
        "live": Memory.objects.live().count(),
        "baseline_seconds": round(base_wall, 2),
        "baseline_cpu_seconds": round(base_cpu, 2),
        "analyze_seconds": round(wall, 2),
        "analyze_cpu_seconds": round(cpu, 2),
        "duplicate_groups": len(report.duplicates),
        "conflicts": len(report.conflicts),
        "stale": len(report.stale),
        "noise": len(report.noise),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--rebuild", action="store_true")
    parser.add_argument("--measure", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.measure:
        print(json.dumps(measure(options.measure, options.repeat)))
        return
    results = {}
    for size in options.sizes:
        db = ROOT / "var" / f"bench-doctor-{size}.sqlite3"
        if options.rebuild or not db.exists():
            subprocess.run(
                [sys.executable, str(ROOT / "bench" / "generate.py"), "--size", str(size), "--db", str(db)],
                check=True,
                cwd=ROOT,
            )
        out = subprocess.run(
            [sys.executable, __file__, "--measure", str(db), "--repeat", str(options.repeat)],
            check=True,
            cwd=ROOT,
            capture_output=True,
            text=True,
        ).stdout
        results[size] = json.loads(out.strip().splitlines()[-1])
        r = results[size]
        print(
            f"{size:>7} memories ({r['live']} live): analyze {r['analyze_seconds']:.2f} s "
            f"(cpu {r['analyze_cpu_seconds']:.2f} s), baseline read+fold {r['baseline_seconds']:.2f} s "
            f"(cpu {r['baseline_cpu_seconds']:.2f} s); {r['duplicate_groups']} duplicate groups, "
            f"{r['conflicts']} conflicts, {r['stale']} stale, {r['noise']} noise"
        )
    if len(options.sizes) >= 2:
        small, large = results[options.sizes[0]], results[options.sizes[-1]]
        growth = large["analyze_seconds"] / small["analyze_seconds"]
        base_growth = large["baseline_seconds"] / small["baseline_seconds"]
        print(
            f"growth {options.sizes[0]} -> {options.sizes[-1]}: analyze x{growth:.1f} "
            f"(cpu x{large['analyze_cpu_seconds'] / small['analyze_cpu_seconds']:.1f}), baseline x{base_growth:.1f}"
        )


if __name__ == "__main__":
    main()
