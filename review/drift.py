"""The drift review (SPEC §5): facts that cannot expire by themselves are re-checked instead.

The queue is the live memories confirmed longer ago than ``BESTIE_DRIFT_AGE_DAYS`` (90), oldest
confirmation first, at most ``BESTIE_DRIFT_WEEKLY`` (20) a week: what a person will actually review.
Each item is confirmed, superseded by a new text, given an expiry or forgotten, through the write path;
every one of those audit events carries the note ``drift review``, which is how the week's reviews are
counted.
"""

from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from memories import lifecycle
from memories.lifecycle import InvalidValue
from memories.models import AuditEvent, Memory, SourceKind, state_label

NOTE = "drift review"
ACTIONS = ("confirm", "supersede", "expire", "forget")


@dataclass(frozen=True)
class Queue:
    items: list  # Memory rows, oldest confirmation first
    due: int  # how many live memories are past the drift age in all
    reviewed_this_week: int
    weekly: int
    age_days: int

    @property
    def left_this_week(self):
        return max(0, self.weekly - self.reviewed_this_week)


def week_start(now=None):
    """Monday 00:00 of this week, in the owner's time zone."""
    local = timezone.localtime(now or timezone.now())
    return (local - timedelta(days=local.weekday())).replace(hour=0, minute=0, second=0, microsecond=0)


def reviewed_this_week(now=None):
    # The few events of this week are read by their time and their memories counted here: asked for a
    # distinct count, SQLite walked the whole history in memory_id order instead (10-20 ms at 100k events).
    events = AuditEvent.objects.filter(note=NOTE, at__gte=week_start(now)).order_by()
    return len(set(events.values_list("memory_id", flat=True)))


def due(now=None):
    """Every memory due for review, oldest confirmation first."""
    return Memory.objects.due_for_review(now).order_by("confirmed_at", "pk")


def drift_queue(limit=None, now=None):
    """This week's queue: the oldest confirmations, as many as the weekly cap leaves (or ``limit``, if fewer)."""
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
        raise InvalidValue("limit", f"must be a positive whole number, not {limit!r}")
    now = now or timezone.now()
    reviewed = reviewed_this_week(now)
    weekly = settings.BESTIE_DRIFT_WEEKLY
    size = max(0, weekly - reviewed)
    if limit is not None:
        size = min(size, limit)
    queryset = due(now)
    return Queue(
        items=list(queryset[:size]) if size else [],
        due=queryset.count(),
        reviewed_this_week=reviewed,
        weekly=weekly,
        age_days=settings.BESTIE_DRIFT_AGE_DAYS,
    )


def confirm(memory_id, *, actor):
    return lifecycle.confirm(memory_id, actor=actor, note=NOTE)


def supersede(memory_id, text, *, actor):
    """A new memory with ``text`` and the old one's labels replaces it. Returns the new memory."""
    with transaction.atomic():
        old = lifecycle.get_memory(memory_id, for_update=True)
        if not old.is_live():
            raise lifecycle.LifecycleError(
                _("memory %(id)s is %(state)s; only a live memory is reviewed")
                % {
                    "id": old.pk,
                    "state": state_label(old.state()),
                }
            )
        new = lifecycle.add(
            text=text,
            kind=old.kind,
            subject=old.subject,
            scope=old.scope,
            user=old.user,
            channel=old.channel,
            project=old.project,
            layer=old.layer,
            pinned=old.pinned,
            confidence=old.confidence,
            source=f"drift review of memory #{old.pk}",
            source_kind=SourceKind.OWNER,
            actor=actor,
        )
        lifecycle.supersede(old.pk, new.pk, actor=actor, note=NOTE)
    return new


def set_expiry(memory_id, *, actor, expires_at=None, ttl=None):
    if expires_at is None and ttl is None:
        raise InvalidValue("expires_at", _("give the time it ends or a TTL like 30d"))
    return lifecycle.set_expiry(memory_id, actor=actor, expires_at=expires_at, ttl=ttl, note=NOTE)


def forget(memory_id, *, actor):
    """Erase it for good, as the owner decided (the older versions it replaced go with it)."""
    with transaction.atomic():
        memory = lifecycle.get_memory(memory_id, for_update=True)
        return lifecycle.erase([memory.pk], actor=actor, confirmed=True, note=NOTE)
