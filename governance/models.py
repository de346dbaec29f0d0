"""Maintenance records (SPEC §6): what each job did, hygiene over time, where digests go and when the
last one went out."""

import ipaddress
import re
from urllib.parse import urlsplit

from django.core.exceptions import ValidationError
from django.core.validators import URLValidator, validate_email
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _


class JobRun(models.Model):
    """One run of a maintenance job: when, how it ended and what it did (its result as counts). A job
    that reports its progress keeps the step it is on and how many of its units are done, for the
    console's progress bar."""

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
    step = models.CharField(max_length=64, blank=True, default="")
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)

    class Meta:
        db_table = "governance_job_run"
        ordering = ["-started_at", "-id"]
        indexes = [models.Index(fields=["job", "started_at"], name="job_run_job_started")]

    def __str__(self):
        return f"{self.job} at {self.started_at:%Y-%m-%d %H:%M} ({self.outcome})"


class Checkup(models.Model):
    """What the doctor job found at one moment: the doctor's report, the hygiene score and the cleanup
    plan (``governance.checkup``), kept for the console's doctor and cleanup pages to read."""

    computed_at = models.DateTimeField(default=timezone.now, db_index=True)
    # The history's newest event when the job started: a newer one means the store changed since.
    last_event_id = models.BigIntegerField(null=True, blank=True)
    report = models.JSONField(default=dict)
    score = models.JSONField(default=dict)
    plan = models.JSONField(default=dict)

    class Meta:
        db_table = "governance_checkup"
        ordering = ["-computed_at", "-id"]

    def __str__(self):
        return f"checkup of {self.computed_at:%Y-%m-%d %H:%M}"


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


_TELEGRAM_CHAT = re.compile(r"-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{4,31}")
_ZALO_USER = re.compile(r"\d{1,30}")
_LOOPBACK_NAMES = {"localhost"}


def _is_loopback(host):
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host.lower() in _LOOPBACK_NAMES


def _webhook_problem(target):
    try:
        URLValidator(schemes=["http", "https"])(target)
    except ValidationError:
        return _("an https:// URL")
    # The digest lists what Bestie remembers: it crosses a network only encrypted. Plain http is for a
    # receiver on this machine.
    parts = urlsplit(target)
    if parts.scheme != "https" and not _is_loopback(parts.hostname or ""):
        return _("an https:// URL (http:// only to this machine: localhost, 127.0.0.1, [::1])")
    return None


def target_problem(kind, target):
    """What a digest target of ``kind`` must be, when ``target`` is not that; None when it is. The one
    check of a channel's target: installing or changing one (command line, console, admin) and sending to one
    ask it."""
    if kind == DigestChannel.Kind.EMAIL:
        try:
            validate_email(target)
        except ValidationError:
            return _("an email address like you@example.com")
    elif kind == DigestChannel.Kind.TELEGRAM and not _TELEGRAM_CHAT.fullmatch(target):
        return _("a numeric chat id like 123456789 (or -100… for a group) or a @channelname")
    elif kind == DigestChannel.Kind.ZALO and not _ZALO_USER.fullmatch(target):
        return _("the numeric user id the Official Account sees, like 8412345678901")
    elif kind == DigestChannel.Kind.WEBHOOK:
        return _webhook_problem(target)
    return None


def target_error(kind, target):
    """The sentence that refuses ``target`` for ``kind``, or None when it is a good one."""
    problem = target_problem(kind, target)
    if not problem:
        return None
    return _("a target for %(kind)s must be %(problem)s, not %(target)r") % {
        "kind": kind,
        "problem": problem,
        "target": target,
    }


class DigestChannel(models.Model):
    """Where the digest goes: ``email:ADDRESS``, ``telegram:CHAT_ID``, ``zalo:USER_ID``, ``webhook:URL``
    (https, or http to this machine); ``target_problem`` checks the target for its kind."""

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

    def clean(self):
        self.target = (self.target or "").strip()
        error = target_error(self.kind, self.target) if self.kind in self.Kind.values else None
        if error:
            raise ValidationError({"target": error})


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
