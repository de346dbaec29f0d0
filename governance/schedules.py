"""The django-q2 schedules of the maintenance jobs, seeded idempotently (SPEC §6).

Seeding creates a missing schedule and points an existing one at its function again, but never
touches its cron once created: the owner may have edited it (admin, ``maintenance install``).
Q_CLUSTER's ``catch_up`` is off, so a cluster that was down runs each job once, not once per
missed slot.
"""

from dataclasses import dataclass
from datetime import datetime

from croniter import croniter
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django_q.models import Schedule

from governance.digest import DIGEST_SCHEDULE
from governance.models import JobRun
from memories.lifecycle import InvalidValue, one_of, record
from memories.models import AuditEvent

DEFAULT_DIGEST_CRON = "0 9 * * 1"


@dataclass(frozen=True)
class Job:
    schedule: str  # the Schedule's name
    job: str  # JobRun.job
    func: str
    cron: str


JOBS = (
    Job("bestie-backup", "backup", "governance.backups.backup", "0 3 * * *"),
    Job("bestie-prune", "prune", "governance.prune.prune", "30 3 * * *"),
    Job("bestie-message-retention", "message_retention", "governance.retention.message_retention", "45 3 * * *"),
    Job("bestie-hygiene", "hygiene", "governance.hygiene.snapshot", "0 4 * * *"),
    Job("bestie-doctor", "doctor", "governance.checkup.compute", "15 4 * * *"),
    Job("bestie-erasure", "erasure", "governance.erasure.finish_pending", "*/5 * * * *"),
    Job(DIGEST_SCHEDULE, "digest", "governance.digest.send_scheduled", DEFAULT_DIGEST_CRON),
)


def clean_cron(value):
    value = " ".join((value or "").split())
    if len(value.split()) != 5 or not croniter.is_valid(value):
        raise InvalidValue(
            "schedule",
            _("must be a cron expression of five fields like '0 9 * * 1' (Mondays 09:00), not %(value)r")
            % {"value": value},
        )
    return value


def next_run(cron, now=None):
    """The cron's next time after ``now``, read in the owner's time zone as django-q2 reads it."""
    return croniter(cron, timezone.localtime(now or timezone.now())).get_next(datetime)


def seed(now=None):
    """Make sure each job has its schedule; returns how many were created."""
    created = 0
    for job in JOBS:
        _, was_created = Schedule.objects.update_or_create(
            name=job.schedule,
            defaults={"func": job.func, "schedule_type": Schedule.CRON, "repeats": -1},
            create_defaults={
                "func": job.func,
                "schedule_type": Schedule.CRON,
                "repeats": -1,
                "cron": job.cron,
                "next_run": next_run(job.cron, now),
            },
        )
        created += was_created
    return created


def job_named(name):
    for job in JOBS:
        if job.job == name:
            return job
    raise InvalidValue("job", one_of([j.job for j in JOBS], name))


def set_cron(name, cron, *, actor, now=None):
    """Give the job ``name`` a new cron (validated; the next run follows from it); an audit event
    records the change."""
    job = job_named(name)
    cron = clean_cron(cron)
    with transaction.atomic():
        seed(now)
        schedule = Schedule.objects.select_for_update().get(name=job.schedule)
        if schedule.cron != cron:
            record(
                AuditEvent.Event.POLICY,
                None,
                actor,
                old={f"{job.job} schedule": schedule.cron},
                new={f"{job.job} schedule": cron},
            )
        schedule.cron, schedule.next_run = cron, next_run(cron, now)
        schedule.save(update_fields=["cron", "next_run"])
    return cron


def cron_of(name, now=None):
    """The cron the job ``name`` runs on now (its default until the owner changed it)."""
    job = job_named(name)
    seed(now)
    return Schedule.objects.get(name=job.schedule).cron


def set_digest_cron(cron, *, actor, now=None):
    return set_cron("digest", cron, actor=actor, now=now)


@dataclass(frozen=True)
class JobStatus:
    job: str
    schedule: str
    func: str
    cron: str | None
    next_run: object
    last_started_at: object
    last_outcome: str | None
    last_error: str


def status():
    schedules = {schedule.name: schedule for schedule in Schedule.objects.filter(name__in=[j.schedule for j in JOBS])}
    rows = []
    for job in JOBS:
        schedule = schedules.get(job.schedule)
        run = JobRun.objects.filter(job=job.job).exclude(outcome=JobRun.Outcome.RUNNING).first()
        rows.append(
            JobStatus(
                job=job.job,
                schedule=job.schedule,
                func=job.func,
                cron=schedule.cron if schedule else None,
                next_run=schedule.next_run if schedule else None,
                last_started_at=run.started_at if run else None,
                last_outcome=run.outcome if run else None,
                last_error=run.error if run else "",
            )
        )
    return rows
