"""Maintenance records (SPEC §6): what each job did, hygiene over time, where digests go and when the
last one went out."""

from django.db import models
from django.db.models import Q
from django.utils import timezone


class JobRun(models.Model):
    """One run of a maintenance job: when, how it ended and what it did (its result as counts)."""

    class Outcome(models.TextChoices):
        RUNNING = "running", "running"
        OK = "ok", "ok"
        FAILED = "failed", "failed"

    job = models.CharField(max_length=64)
    started_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)
    outcome = models.CharField(max_length=16, choices=Outcome.choices, default=Outcome.RUNNING)
    counts = models.JSONField(default=dict, blank=True)
    error = models.TextField(blank=True, default="")

    class Meta:
        db_table = "governance_job_run"
        ordering = ["-started_at", "-id"]
        indexes = [models.Index(fields=["job", "started_at"], name="job_run_job_started")]

    def __str__(self):
        return f"{self.job} at {self.started_at:%Y-%m-%d %H:%M} ({self.outcome})"


class HygieneSnapshot(models.Model):
    """The store's counts at one moment and a simple score from them, kept to show the trend."""

    taken_at = models.DateTimeField(default=timezone.now, db_index=True)
    counts = models.JSONField(default=dict)
    oldest_pending_at = models.DateTimeField(null=True, blank=True)
    score = models.PositiveSmallIntegerField()

    class Meta:
        db_table = "governance_hygiene_snapshot"
        ordering = ["-taken_at", "-id"]

    def __str__(self):
        return f"hygiene {self.score} at {self.taken_at:%Y-%m-%d %H:%M}"


class DigestChannel(models.Model):
    """Where the digest goes: ``email:ADDRESS``, ``telegram:CHAT_ID``, ``zalo:USER_ID``, ``webhook:URL``."""

    class Kind(models.TextChoices):
        EMAIL = "email", "email"
        TELEGRAM = "telegram", "telegram"
        ZALO = "zalo", "zalo"
        WEBHOOK = "webhook", "webhook"

    kind = models.CharField(max_length=16, choices=Kind.choices)
    target = models.CharField(max_length=500)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        db_table = "governance_digest_channel"
        ordering = ["kind", "target"]
        constraints = [models.UniqueConstraint(fields=["kind", "target"], name="digest_channel_unique")]

    def __str__(self):
        return f"{self.kind}:{self.target}"


class DigestState(models.Model):
    """One row: when the last digest was claimed. Claiming it is a conditional update on this value,
    so two runs of the same schedule cannot both send."""

    last_sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "governance_digest_state"
        constraints = [models.CheckConstraint(condition=Q(id=1), name="digest_state_singleton")]

    def __str__(self):
        return "digest state"

    @classmethod
    def load(cls):
        return cls.objects.get_or_create(pk=1)[0]
