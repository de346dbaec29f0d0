"""``manage.py serve``, as ``make run`` starts it: the web console (gunicorn) and the job cluster (django-q2)
as real processes on this test's database, answering a login and running a job: a scheduled one with the
job queue in the database, and one another process queues with the queue in Redis (``BESTIE_REDIS_URL``).
The scheduler is the same code whichever queue the cluster uses; waiting for it once keeps the run short."""

import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace

import pytest
import redis
from django.utils import timezone
from django_q.models import Schedule

from governance import schedules
from governance.models import HygieneSnapshot, JobRun
from tests.factories import add_memory, child_env

ROOT = Path(__file__).resolve().parent.parent
# django-q2's guard loop first looks for due schedules 30 s after the cluster starts, then every 30 s (a
# fixed count in its loop, whatever the settings): the job runs some 31 s in; 90 s is the limit.
SCHEDULED_JOB_WAIT_SECONDS = 90
# The Redis server of the Redis run (and of CI); the keys go under a cluster name of this run's own.
REDIS_URL = os.environ.get("TEST_REDIS_URL") or "redis://127.0.0.1:6379/13"


def _free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _get(url):
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, response.read().decode()
    except OSError:
        return None, ""


@pytest.fixture(params=["database", "redis"])
def queue(request):
    """Where the child's job queue lives: the database, or Redis under a cluster name no other run uses
    (its keys are deleted after). No Redis fails the test: it is not skipped."""
    if request.param == "database":
        yield SimpleNamespace(env={}, keys=None, scheduled=True)
        return
    client = redis.Redis.from_url(REDIS_URL)
    client.ping()
    name = f"bestie-test-{os.getpid()}-{secrets.token_hex(4)}"
    try:
        yield SimpleNamespace(
            env={"BESTIE_REDIS_URL": REDIS_URL, "BESTIE_Q_NAME": name},
            keys=lambda: client.keys(f"django_q:{name}:*"),
            scheduled=False,
        )
    finally:
        if keys := client.keys(f"django_q:{name}:*"):
            client.delete(*keys)
        client.close()


@pytest.fixture
def served(transactional_db, queue):
    """The console and the job cluster running on this test's database; stopped with SIGTERM after."""
    env = {**child_env(), **queue.env, "BESTIE_HOST": "127.0.0.1", "BESTIE_PORT": str(_free_port())}
    run = {"cwd": ROOT, "env": env, "capture_output": True, "text": True, "timeout": 120}
    collected = subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput"], **run)
    assert collected.returncode == 0, collected.stderr
    process = subprocess.Popen(
        [sys.executable, "manage.py", "serve"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    url = f"http://127.0.0.1:{env['BESTIE_PORT']}"
    try:
        yield process, url, run
    finally:
        process.send_signal(signal.SIGTERM)
        output, _ = process.communicate(timeout=60)
        assert process.returncode == 0, output
        assert "Stopped." in output


def test_serve_runs_the_console_and_the_job_cluster(served, queue):
    process, url, run = served
    add_memory("User prefers pnpm.")
    schedules.seed()
    if queue.scheduled:
        Schedule.objects.filter(name="bestie-hygiene").update(next_run=timezone.now() - timedelta(minutes=1))

    deadline = time.monotonic() + 60
    status, page = _get(f"{url}/login/")
    while status != 200 and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.2)
        status, page = _get(f"{url}/login/")
    assert status == 200 and 'name="password"' in page
    assert _get(f"{url}/pending/")[1].count('name="password"') == 1  # any other page asks for the login

    if not queue.scheduled:
        # Another process (as the console's "run now" buttons do) puts the job on the Redis queue.
        queue_it = "from governance import jobs; jobs.run_soon('governance.hygiene.snapshot')"
        queued = subprocess.run([sys.executable, "manage.py", "shell", "-c", queue_it], **run)
        assert queued.returncode == 0, queued.stderr

    deadline = time.monotonic() + SCHEDULED_JOB_WAIT_SECONDS
    while not JobRun.objects.filter(job="hygiene", outcome=JobRun.Outcome.OK).exists():
        assert process.poll() is None, "serve stopped"
        assert time.monotonic() < deadline, "the hygiene job did not run"
        time.sleep(0.5)
    assert HygieneSnapshot.objects.get().counts["live"] == 1
    if queue.scheduled:
        assert Schedule.objects.get(name="bestie-hygiene").next_run > timezone.now()
    else:
        # The cluster keeps its status beside its queue: it ran on Redis, not on the database.
        assert any(b":cluster:" in key for key in queue.keys())
