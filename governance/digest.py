"""The maintenance digest (SPEC §6): what changed since the last one, sent to the installed channels.

New memories with their source (tool-output ones marked: the poisoning watch), pending proposals,
hygiene and its change, the drift queue, what prune removed and the backup status, with links into
the console. Only memories already in the store appear, and they passed the secret filter on the way in.

A digest is claimed before it is sent, by a conditional update of ``DigestState.last_sent_at``: two
runs of the same schedule (a rerun, two workers) cannot both win, so the owner never gets it twice.
"""

from dataclasses import asdict, dataclass
from datetime import datetime, timedelta

from croniter import croniter
from django.conf import settings
from django.db.models import Q
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from django_q.models import Schedule

from governance import channels, hygiene
from governance.channels import console_url
from governance.jobs import recorded
from governance.models import DigestChannel, DigestState, HygieneSnapshot, JobRun
from memories.lifecycle import deletions
from memories.models import Memory, SourceKind
from memories.times import iso
from review import drift

NEW_MEMORIES_SHOWN = 50
DRIFT_SHOWN = 5
DELETIONS_SHOWN = 10
FIRST_DIGEST_DAYS = 7
DIGEST_SCHEDULE = "bestie-digest"


@dataclass(frozen=True)
class DigestMemory:
    id: int
    text: str
    kind: str
    state: str
    source: str
    source_kind: str
    from_tool_output: bool
    url: str


@dataclass(frozen=True)
class DriftItem:
    id: int
    text: str
    confirmed_at: str
    url: str


@dataclass(frozen=True)
class DigestDeletion:
    """A memory an agent asked to erase, waiting for the owner."""

    request_id: int
    memory_id: int
    text: str
    agent: str
    url: str


@dataclass(frozen=True)
class Digest:
    since: str
    until: str
    new_count: int
    new_memories: list  # of DigestMemory, the first NEW_MEMORIES_SHOWN
    from_tool_output: int
    pending_count: int
    oldest_pending_days: int | None
    deletion_count: int
    deletions: list  # of DigestDeletion, the oldest DELETIONS_SHOWN
    hygiene_score: int
    hygiene_change: int | None  # against the last snapshot taken before ``since``
    live: int
    expired_backlog: int
    drift_count: int
    drift_age_days: int
    drift: list  # of DriftItem
    pruned: int
    awaiting_prune_confirmation: int
    backup: str  # one line: the last backup and how it went
    pending_url: str

    def as_json(self):
        return asdict(self)

    @property
    def text(self):
        """The plain-text digest (Telegram, Zalo, the console and the email's text body), in
        ``BESTIE_LANGUAGE``, whoever asked for it."""
        with translation.override(settings.LANGUAGE_CODE):
            return render_to_string("emails/digest-body.txt", {"digest": self})

    def email(self):
        with translation.override(settings.LANGUAGE_CODE):
            return channels.render_email("digest", {"digest": self})


def _since(last_sent_at, now):
    return last_sent_at or now - timedelta(days=FIRST_DIGEST_DAYS)


def build(since, now=None):
    now = now or timezone.now()
    new = Memory.objects.filter(created_at__gt=since, created_at__lte=now)
    shown = [
        DigestMemory(
            id=memory.pk,
            text=memory.text,
            kind=memory.kind,
            state=memory.state(now),
            source=memory.source,
            source_kind=memory.source_kind,
            from_tool_output=memory.source_kind == SourceKind.TOOL_OUTPUT,
            url=console_url(f"/memories/{memory.pk}/"),
        )
        for memory in new.order_by("-created_at", "-id")[:NEW_MEMORIES_SHOWN]
    ]
    current = hygiene.score(now)
    previous = HygieneSnapshot.objects.filter(taken_at__lte=since).first() or HygieneSnapshot.objects.last()
    due = drift.due(now)
    asked = deletions.pending_requests()
    prunes = JobRun.objects.filter(job="prune", outcome=JobRun.Outcome.OK, started_at__gt=since)
    last_prune = prunes.first()
    return Digest(
        since=iso(since),
        until=iso(now),
        new_count=new.count(),
        new_memories=shown,
        from_tool_output=new.filter(source_kind=SourceKind.TOOL_OUTPUT).count(),
        pending_count=current.counts["pending"],
        oldest_pending_days=int(current.pending_age_days) if current.oldest_pending_at else None,
        deletion_count=asked.count(),
        deletions=[
            DigestDeletion(
                request_id=request.pk,
                memory_id=request.memory_id,
                text=request.memory.text,
                agent=request.agent,
                url=console_url("/pending/#deletions"),
            )
            for request in asked[:DELETIONS_SHOWN]
        ],
        hygiene_score=current.score,
        hygiene_change=current.score - previous.score if previous else None,
        live=current.counts["live"],
        expired_backlog=current.expired_backlog,
        drift_count=due.count(),
        drift_age_days=settings.BESTIE_DRIFT_AGE_DAYS,
        drift=[
            DriftItem(id=m.pk, text=m.text, confirmed_at=iso(m.confirmed_at), url=console_url(f"/memories/{m.pk}/"))
            for m in due[:DRIFT_SHOWN]
        ],
        pruned=sum(run.counts.get("deleted", 0) for run in prunes),
        awaiting_prune_confirmation=last_prune.counts.get("awaiting_confirmation", 0) if last_prune else 0,
        backup=_backup_status(),
        pending_url=console_url("/pending/"),
    )


def _backup_status():
    """The last backup and how it went, in one line of ``BESTIE_LANGUAGE``, as the digest says it."""
    run = JobRun.objects.filter(job="backup").exclude(outcome=JobRun.Outcome.RUNNING).first()
    with translation.override(settings.LANGUAGE_CODE):
        if run is None:
            return _("no backup yet")
        when = f"{run.started_at:%Y-%m-%d %H:%M} UTC"
        if run.outcome == JobRun.Outcome.FAILED:
            return _("the last backup FAILED on %(when)s: %(error)s") % {"when": when, "error": run.error}
        size = run.counts.get("size_bytes", 0) // 1024
        return _("last backup %(when)s, %(size)s KiB, integrity ok") % {"when": when, "size": size}


@dataclass(frozen=True)
class DigestResult:
    sent: bool
    reason: str  # why it was not sent (in English, marked for translation where it is shown), or "" when it was
    since: str | None
    new_count: int
    deliveries: list  # of channels.Delivery

    @property
    def failed(self):
        return [delivery for delivery in self.deliveries if not delivery.ok]


def _claim(old, now, slot=None):
    """Move ``last_sent_at`` from ``old`` to ``now``; False when another run already did (or, for a
    scheduled run, when a digest already went out in this schedule slot)."""
    claim = DigestState.objects.filter(pk=1, last_sent_at=old)
    if slot is not None:
        claim = claim.filter(Q(last_sent_at__isnull=True) | Q(last_sent_at__lt=slot))
    return claim.update(last_sent_at=now) == 1


def _send(now, slot=None):
    installed = list(DigestChannel.objects.all())
    if not installed:
        return DigestResult(
            sent=False, reason=gettext_noop("no channels installed"), since=None, new_count=0, deliveries=[]
        )
    old = DigestState.load().last_sent_at
    if not _claim(old, now, slot):
        return DigestResult(
            sent=False,
            reason=gettext_noop("a digest was already sent for this schedule run"),
            since=None,
            new_count=0,
            deliveries=[],
        )
    since = _since(old, now)
    digest = build(since, now)
    deliveries = [channels.deliver(channel, digest) for channel in installed]
    sent = any(delivery.ok for delivery in deliveries)
    if not sent:
        # Nothing reached the owner: give the claim back so the next run covers this period again.
        DigestState.objects.filter(pk=1, last_sent_at=now).update(last_sent_at=old)
    return DigestResult(
        sent=sent,
        reason="" if sent else gettext_noop("every channel failed"),
        since=iso(since),
        new_count=digest.new_count,
        deliveries=deliveries,
    )


@recorded("digest")
def send_now(now=None):
    """The digest now, to every installed channel (``bestie memory digest``)."""
    return _send(now or timezone.now())


@recorded("digest")
def send_scheduled(now=None):
    """What the digest schedule calls: at most one digest per slot of its cron, however often it runs."""
    now = now or timezone.now()
    schedule = Schedule.objects.filter(name=DIGEST_SCHEDULE).first()
    # The slot this run belongs to: the cron's latest time at or before now.
    slot = (
        croniter(schedule.cron, timezone.localtime(now) + timedelta(seconds=1)).get_prev(datetime)
        if schedule and schedule.cron
        else now
    )
    return _send(now, slot)


def preview(now=None):
    """The digest since the last one, without claiming or sending it."""
    now = now or timezone.now()
    return build(_since(DigestState.load().last_sent_at, now), now)
