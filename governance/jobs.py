"""How the maintenance jobs (SPEC §6) run: each one's record, and batches that keep writers moving.

A job is a plain function in its own module (``prune``, ``retention``, ``hygiene.snapshot``, ``backups``,
``digest``) doing one unit of work and returning a frozen dataclass of what it did. ``recorded`` keeps a
``JobRun`` of every run (start, end, outcome, the result's counts or the error) and, for a job that
reports it, its progress; ``governance.schedules`` points django-q2 at them, and ``run_soon`` queues one
for the cluster now (the console's "back up now", "recompute", "apply this plan").
"""

import functools
import time
from dataclasses import asdict
from datetime import timedelta

from django.conf import settings
from django.utils import timezone
from django_q.tasks import async_task

from governance.models import JobRun
from memories.times import json_ready

JOB_ACTOR = "system:jobs"

# Prune and retention delete in batches whose size adapts so one batch (one write transaction) takes
# about TARGET seconds: a concurrent writer then waits well under a second for its turn, even behind a
# batch three times as slow as the one before it (at 1M rows a 0.5 s target let a writer wait 1.25 s
# once), and a kill loses at most the batch in flight, which rolls back as a whole. Between batches the
# job pauses long enough for the writers waiting meanwhile to take their turn: the app's transactions
# look for the lock every 2 ms (``bestie_site.sqlite_backend``) and each takes a millisecond or two.
BATCH_TARGET_SECONDS = 0.3
BATCH_PAUSE_SECONDS = 0.02
BATCH_MIN, BATCH_START, BATCH_MAX = 20, 200, 5000
# A running job writes its progress at most this often (each write is a write transaction), and at
# every change of step.
PROGRESS_SECONDS = 0.25


def recorded(job, *, reports_progress=False):
    """Keep a ``JobRun`` for every call of the decorated job: its result's fields, or its error. With
    ``reports_progress`` the job is given ``progress(step, done, total)`` to call as it goes, which keeps
    how far it is on the run (``Progress``)."""

    def decorate(function):
        @functools.wraps(function)
        def wrapper(*args, **kwargs):
            run = JobRun.objects.create(job=job, started_at=timezone.now())
            if reports_progress:
                kwargs["progress"] = Progress(run.pk)
            try:
                result = function(*args, **kwargs)
            except Exception as error:
                JobRun.objects.filter(pk=run.pk).update(**_ending(error=error))
                raise
            JobRun.objects.filter(pk=run.pk).update(**_ending(result=result))
            return result

        return wrapper

    return decorate


def record_run(job, *, started_at, result=None, error=None):
    """Keep a ``JobRun`` of a run that could not be recorded as it went (a restore replaces the very
    table it would have been written to): its result's fields, or its error."""
    return JobRun.objects.create(job=job, started_at=started_at, **_ending(result=result, error=error))


def _ending(*, result=None, error=None):
    """A run's last fields: when it finished and how, with its result's counts or its error."""
    if error is not None:
        return {
            "finished_at": timezone.now(),
            "outcome": JobRun.Outcome.FAILED,
            "error": f"{type(error).__name__}: {error}",
        }
    return {"finished_at": timezone.now(), "outcome": JobRun.Outcome.OK, "counts": json_ready(asdict(result))}


class Progress:
    """How far a running job is, kept on its ``JobRun``: the step it is on and ``done`` of ``total``
    units (the job says what a unit is), written at most every ``PROGRESS_SECONDS``."""

    def __init__(self, run_id):
        self.run_id = run_id
        self.step = None
        self.written_at = 0.0

    def __call__(self, step, done, total):
        now = time.monotonic()
        if step == self.step and now - self.written_at < PROGRESS_SECONDS:
            return
        JobRun.objects.filter(pk=self.run_id).update(step=step, done=done, total=total)
        self.step, self.written_at = step, now


def run_soon(function, **kwargs):
    """Queue the job ``function`` (its dotted path) with ``kwargs`` for the job cluster; returns when it
    was queued, to find its run with ``first_run_since``."""
    queued_at = timezone.now()
    async_task(function, **kwargs)
    return queued_at


def first_run_since(job, moment):
    """The first run of ``job`` started at or after ``moment``: what a run queued then became (or a
    scheduled one that came first), None while it waits for the cluster."""
    return JobRun.objects.filter(job=job, started_at__gte=moment).order_by("started_at", "id").first()


def running(job, now=None):
    """The run of ``job`` going on now, if any: one still marked running and started within the
    cluster's timeout (a run the cluster killed stays marked running, and is past)."""
    now = now or timezone.now()
    since = now - timedelta(seconds=settings.Q_CLUSTER["timeout"])
    runs = JobRun.objects.filter(job=job, outcome=JobRun.Outcome.RUNNING, started_at__gte=since)
    return runs.order_by("-started_at", "-id").first()


class Batches:
    """Batch sizes that follow how long the last batch took."""

    def __init__(self):
        self.size = BATCH_START
        self.longest = 0.0

    def took(self, seconds):
        """Record a finished batch, adapt the size of the next one and give waiting writers their turn."""
        self.longest = max(self.longest, seconds)
        time.sleep(BATCH_PAUSE_SECONDS)
        if seconds < BATCH_TARGET_SECONDS / 2:
            self.size = min(self.size * 3 // 2, BATCH_MAX)
        elif seconds > BATCH_TARGET_SECONDS:
            # At once to the size that would have taken the target: a batch can take several times as long
            # as the one before it (the full-text index merging its segments), and a writer waits for it.
            self.size = max(int(self.size * BATCH_TARGET_SECONDS / seconds), BATCH_MIN)
