"""The doctor and cleanup pages' server time on a store built by bench/generate.py.

    .venv/bin/python bench/generate.py --size 20000 --db /tmp/doctor-jobs-20k.sqlite3
    .venv/bin/python bench/doctor_pages.py --db /tmp/doctor-jobs-20k.sqlite3 [--runs 5] [--code ../before]

Times, server side (the Django view through middleware and template, with the test client; no network),
after one request that warms the process up, the first request and the median of --runs more of: the
doctor page, a later page of its contradictions, the cleanup plan and a later page of it, with each
response's size. Where the pages read a stored checkup (``governance.checkup``), the doctor job is run
once first, in this process, and timed: that is the work the job cluster does when the owner clicks
Recompute. ``--code DIR`` measures the code of another checkout (one from before the stored checkup,
say: ``git archive COMMIT | tar -x -C DIR``) with this script.
"""

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PAGES = {
    "doctor": ("/doctor/", {}),
    "doctor, contradictions page 40": ("/doctor/", {"section": "conflicts", "page": "40"}),
    "cleanup plan": ("/doctor/cleanup/", {}),
    "cleanup plan page 20": ("/doctor/cleanup/", {"page": "20"}),
}


def timed(function):
    """Wall and CPU time of one call, in ms, and what it returned."""
    started, started_cpu = time.perf_counter(), time.process_time()
    result = function()
    return (time.perf_counter() - started) * 1000, (time.process_time() - started_cpu) * 1000, result


def measure_page(client, url, params, runs):
    def get():
        response = client.get(url, params, HTTP_HOST="localhost")
        assert response.status_code == 200, (url, response.status_code)
        return response

    first_ms, first_cpu_ms, response = timed(get)
    walls, cpus = [], []
    for _ in range(runs):
        wall, cpu, _ = timed(get)
        walls.append(wall)
        cpus.append(cpu)
    return {
        "first_ms": round(first_ms, 1),
        "first_cpu_ms": round(first_cpu_ms, 1),
        "median_ms": round(statistics.median(walls), 1),
        "median_cpu_ms": round(statistics.median(cpus), 1),
        "kilobytes": round(len(response.content) / 1024, 1),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", help="an SQLite store from bench/generate.py")
    parser.add_argument("--database-url", help="a postgres:// URL instead of the SQLite file")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--code", default=str(ROOT), help="the checkout whose code runs (default this one)")
    args = parser.parse_args()

    if args.database_url:
        os.environ["DATABASE_URL"] = args.database_url
    else:
        os.environ.pop("DATABASE_URL", None)
        os.environ["BESTIE_DB_PATH"] = str(Path(args.db).resolve())
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bestie_site.settings")
    sys.path.insert(0, args.code)
    import importlib.util

    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)

    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client
    from django.test.utils import override_settings

    from memories.models import Memory

    owner, _ = get_user_model().objects.get_or_create(username="bench-owner", defaults={"is_superuser": True})
    client = Client()
    client.force_login(owner)
    results = {
        "code": args.code,
        "engine": connection.vendor,
        "memories": Memory.objects.count(),
        "runs": args.runs,
        "load_average": os.getloadavg(),
        "cpus": os.cpu_count(),
    }
    if importlib.util.find_spec("governance.checkup"):
        from governance import checkup

        wall, cpu, _ = timed(checkup.compute)
        results["doctor_job"] = {"ms": round(wall, 1), "cpu_ms": round(cpu, 1)}
        print(f"doctor job (report, score, cleanup plan): {wall:.0f} ms", file=sys.stderr)
    # Pages link their static files by name; collectstatic's manifest is not what is measured here.
    plain_static = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    results["pages"] = {}
    with override_settings(STORAGES=plain_static):
        # The process's first request imports every URL's views (a couple of seconds): not the page's.
        client.get("/login/", HTTP_HOST="localhost")
        for name, (url, params) in PAGES.items():
            figures = measure_page(client, url, params, args.runs)
            results["pages"][name] = figures
            print(
                f"{name:<32} first {figures['first_ms']:>8.1f} ms  median {figures['median_ms']:>8.1f} ms"
                f"  {figures['kilobytes']:>7.1f} KB",
                file=sys.stderr,
            )
    print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
