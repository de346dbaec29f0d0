"""Adding, changing and deciding on memories."""

from dataclasses import dataclass
from datetime import datetime
from typing import NamedTuple

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from memories import rows, vectors
from memories.language.meaning import text_key
from memories.lifecycle import counts
from memories.lifecycle.erasure import finish_pending_erasure
from memories.lifecycle.history import audit_event, record, record_many, snapshot
from memories.lifecycle.policies import check_delete_allowed, write_refusal, write_switches
from memories.lifecycle.validation import (
    MAX_ID,
    InvalidValue,
    LifecycleError,
    NotFound,
    Refused,
    clean_choice,
    clean_confidence,
    clean_expiry,
    clean_ids,
    clean_kind,
    clean_label,
    clean_placement,
    clean_text,
    no_memory,
    refuse_secrets,
)
from memories.models import AuditEvent, Layer, Memory, Scope, SourceKind, Status, state_label


def get_memory(memory_id, *, for_update=False):
    try:
        memory_id = int(memory_id)
    except (TypeError, ValueError, OverflowError):
        raise InvalidValue("id", _("must be a whole number, not %(value)r") % {"value": memory_id}) from None
    memory = rows.get(Memory, memory_id, for_update=for_update) if 1 <= memory_id <= MAX_ID else None
    if memory is None:
        raise NotFound(no_memory([memory_id]))
    return memory


def _get_many(ids):
    """The memories with these ids, in the given order; every id must exist."""
    wanted = clean_ids(ids)
    found = Memory.objects.select_for_update().in_bulk(wanted)
    missing = [i for i in wanted if i not in found]
    if missing:
        raise NotFound(no_memory(missing))
    return [found[i] for i in wanted]


# ---------------------------------------------------------------------------------------------------
# Writing new memories


@dataclass(frozen=True)
class NewMemory:
    """What a new memory says and where it goes, validated and passed by the secret filter: made only by
    ``prepare``, and the only thing ``store`` writes."""

    fields: dict


def prepare(
    *,
    text,
    kind,
    source,
    source_kind,
    subject="",
    scope=Scope.CORE,
    user="",
    channel="",
    project="",
    layer=Layer.WORKING,
    expires_at=None,
    ttl=None,
    pinned=False,
    confidence=1.0,
    message=None,
    created_at=None,
    refusal=None,
):
    """Validate a new memory and refuse secrets in it (``Refused``, whose message ends in ``refusal``).

    ``created_at`` is for a memory written elsewhere first (an import keeps when it was written); a new
    one is written now."""
    fields = dict(
        text=clean_text(text),
        kind=clean_kind(kind),
        source=clean_text(source, "source"),
        source_kind=clean_choice("source_kind", source_kind, SourceKind),
        subject=clean_label("subject", subject),
        scope=scope,
        user=clean_label("user", user),
        channel=clean_label("channel", channel),
        project=clean_label("project", project),
        layer=clean_choice("layer", layer, Layer),
        expires_at=clean_expiry(expires_at, ttl),
        pinned=bool(pinned),
        confidence=clean_confidence(confidence),
        message=message,
    )
    if created_at is not None:
        fields["created_at"] = _written_at(created_at)
    refuse_secrets(
        refusal or _("nothing was stored"),
        **{name: fields[name] for name in ("text", "source", "subject", "user", "channel", "project")},
    )
    fields["text_key"] = text_key(fields["text"])
    clean_placement(scope, fields["project"])
    return NewMemory(fields)


def _written_at(created_at):
    if not isinstance(created_at, datetime) or timezone.is_naive(created_at):
        raise InvalidValue("created_at", _("must be a time with a time zone (e.g. 2026-12-01T09:00:00Z)"))
    if created_at > timezone.now():
        raise InvalidValue("created_at", _("is in the future: %(value)s") % {"value": created_at.isoformat()})
    return created_at


def store(new, *, actor, status=Status.APPROVED, flags=()):
    """Write a prepared memory with its audit event in one transaction. Pause and the ``deny`` write
    policy refuse it; the caller decides ``status`` (the owner's own memories are approved, the agent's
    proposals follow the write policy)."""
    if not isinstance(new, NewMemory):
        raise TypeError("store() takes what prepare() returns")
    [memory] = store_many([new], actor=actor, status=status, flags=[flags])
    return memory


def store_many(news, *, actor, status, flags):
    """Write prepared memories and their audit events in one transaction (``store`` is this for one, an
    import's batch many): the guards are read once, and the events written in one statement. ``flags``
    holds each memory's flags, in order.
    Returns the stored memories."""
    if not all(isinstance(new, NewMemory) for new in news):
        raise TypeError("store_many() takes what prepare() returns")
    status = clean_choice("status", status, Status)
    event = AuditEvent.Event.PROPOSE if status == Status.PENDING else AuditEvent.Event.ADD
    # No savepoint inside a caller's transaction (``propose`` holds one, and a savepoint costs a proposal
    # two statements): a refusal is raised once the block is left, so the caller's transaction stays
    # usable, and a failed insert aborts that transaction as a whole.
    with transaction.atomic(savepoint=False):
        switches = write_switches()
        refusal = write_refusal(switches)
        if switches.erasure_pending:
            transaction.on_commit(finish_pending_erasure)
        if refusal is None:
            memories = [
                rows.insert(Memory(**new.fields, status=status, flags=list(marks)))
                for new, marks in zip(news, flags, strict=True)
            ]
            record_many(audit_event(event, memory.pk, actor, new=snapshot(memory)) for memory in memories)
            counts.written(memory.text for memory in memories)
            vectors.embed_soon()
    if refusal is not None:
        raise refusal
    return memories


def add(*, actor, status=Status.APPROVED, flags=(), **fields):
    """Store a new memory: ``prepare`` then ``store`` (see both)."""
    return store(prepare(**fields), actor=actor, status=status, flags=flags)


# ---------------------------------------------------------------------------------------------------
# Changing one memory


def _change(memory_id, actor, event, note="", **changes):
    """Apply ``changes`` to one memory and record what changed. Returns the memory."""
    with transaction.atomic():
        return _apply(get_memory(memory_id, for_update=True), actor, event, note, **changes)


def _apply(memory, actor, event, note="", **changes):
    """Apply ``changes`` to ``memory`` (locked by the caller's transaction): one UPDATE of the fields that
    differ, and the event with their old and new values."""
    changed = [field for field, value in changes.items() if getattr(memory, field) != value]
    old = snapshot(memory, changed)
    for field in changed:
        setattr(memory, field, changes[field])
    if changed:
        rows.update(memory, changed)
    if "text" in changed:
        counts.written([memory.text])
        vectors.text_changed([memory.pk])
    record(event, memory.pk, actor, old=old, new=snapshot(memory, changed), note=note)
    return memory


def add_flag(memory_id, flag, *, actor, note=""):
    """Flag a proposal after it was written (a check that ran later, like the one by meaning): it stays for
    the owner's review with the reason in the history. Only a pending memory takes a flag."""
    with transaction.atomic():
        memory = get_memory(memory_id, for_update=True)
        if memory.status != Status.PENDING:
            raise Refused(
                _("only a proposal waiting for review can be flagged; memory %(id)s is %(state)s")
                % {"id": memory_id, "state": state_label(memory.state())}
            )
        if flag in memory.flags:
            return memory
        return _apply(memory, actor, AuditEvent.Event.EDIT, note, flags=[*memory.flags, flag])


def edit(memory_id, text, *, actor, note=""):
    """New wording from the owner; the owner has just checked it, so it counts as a confirmation (as
    ``confirm``: fresh ``confirmed_at``, no longer stale)."""
    text = clean_text(text)
    refuse_secrets(_("nothing was changed"), text=text)
    return _change(
        memory_id,
        actor,
        AuditEvent.Event.EDIT,
        note,
        text=text,
        text_key=text_key(text),
        confirmed_at=timezone.now(),
        stale=False,
    )


def relabel(memory_id, *, actor, kind=None, subject=None, note=""):
    """A new kind or subject: the key that duplicate and contradiction checks group memories by."""
    if kind is None and subject is None:
        raise InvalidValue("kind", _("say what to change: a kind or a subject"))
    changes = {}
    if kind is not None:
        changes["kind"] = clean_kind(kind)
    if subject is not None:
        changes["subject"] = clean_label("subject", subject)
        refuse_secrets(_("nothing was changed"), subject=changes["subject"])
    return _change(memory_id, actor, AuditEvent.Event.EDIT, note, **changes)


# What the owner may still pin, unpin or confirm: a memory Bestie may know (stale ones included) or a
# proposal waiting for a decision. A rejected, replaced, expired or deleted memory is history: marking it
# kept or true would say something of a memory nothing reads.
CURRENT_STATES = frozenset({"live", "stale", Status.PENDING})


def is_current(memory, now=None):
    return memory.state(now) in CURRENT_STATES


def _change_current(memory_id, actor, event, refusal, note="", **changes):
    """``_change`` for a memory that must be current; ``Refused`` with ``refusal`` (which names
    ``%(id)s`` and ``%(state)s``) when it is not."""
    with transaction.atomic():
        memory = get_memory(memory_id, for_update=True)
        if not is_current(memory):
            raise Refused(refusal % {"id": memory.pk, "state": state_label(memory.state())})
        return _apply(memory, actor, event, note, **changes)


def pin(memory_id, *, actor, note=""):
    refusal = _("memory %(id)s is %(state)s: only a live or pending memory can be pinned")
    return _change_current(memory_id, actor, AuditEvent.Event.PIN, refusal, note, pinned=True)


def unpin(memory_id, *, actor, note=""):
    refusal = _("memory %(id)s is %(state)s: only a live or pending memory can be unpinned")
    return _change_current(memory_id, actor, AuditEvent.Event.UNPIN, refusal, note, pinned=False)


def move(memory_id, *, actor, scope=None, layer=None, project=None, note=""):
    if scope is None and layer is None and project is None:
        raise InvalidValue("scope", _("say where to move it: a scope, a layer or a project"))
    with transaction.atomic():
        memory = get_memory(memory_id, for_update=True)
        scope = memory.scope if scope is None else scope
        project = memory.project if project is None else clean_label("project", project)
        layer = memory.layer if layer is None else clean_choice("layer", layer, Layer)
        clean_placement(scope, project)
        return _change(memory.pk, actor, AuditEvent.Event.MOVE, note, scope=scope, layer=layer, project=project)


def confirm(memory_id, *, actor, note=""):
    """Checked against its source and still true: fresh ``confirmed_at``, no longer stale."""
    refusal = _("memory %(id)s is %(state)s: only a live or pending memory can be confirmed")
    return _change_current(
        memory_id, actor, AuditEvent.Event.CONFIRM, refusal, note=note, confirmed_at=timezone.now(), stale=False
    )


def set_expiry(memory_id, *, actor, expires_at=None, ttl=None, note=""):
    """Give a memory an end (a time or a TTL from now), or take it away with neither."""
    return _change(memory_id, actor, AuditEvent.Event.EXPIRE, note=note, expires_at=clean_expiry(expires_at, ttl))


def supersede(old_id, new_id, *, actor, note=""):
    """``new`` replaces ``old``: ``old`` is hidden for good and points at ``new``.

    ``new`` must be live (so a chain always ends in a live memory and can never loop back), and ``old``
    must not already be replaced.
    """
    with transaction.atomic():
        memories = _get_many([old_id, new_id])
        if len(memories) == 1:
            raise InvalidValue("new", _("a memory cannot supersede itself"))
        old, new = memories
        if old.superseded_by_id:
            raise LifecycleError(
                _("memory %(old)s is already superseded by memory %(new)s")
                % {
                    "old": old.pk,
                    "new": old.superseded_by_id,
                }
            )
        if not new.is_live():
            raise LifecycleError(
                _("memory %(id)s is %(state)s; only a live memory can supersede another")
                % {
                    "id": new.pk,
                    "state": state_label(new.state()),
                }
            )
        _apply(old, actor, AuditEvent.Event.SUPERSEDE, note, superseded_by_id=new.pk)
    return old


def _set_many(ids, actor, event, note, field, value):
    """Set ``field`` to ``value`` on the memories ``ids`` that differ: one UPDATE and one INSERT of audit
    events, whatever the number. Returns the ids changed."""
    with transaction.atomic():
        current = dict(
            Memory.objects.select_for_update()
            .filter(pk__in=list(ids))
            .exclude(**{field: value})
            .values_list("pk", field)
        )
        if not current:
            return []
        Memory.objects.filter(pk__in=list(current)).update(**{field: value})
        record_many(
            audit_event(event, i, actor, old={field: old}, new={field: value}, note=note) for i, old in current.items()
        )
    return sorted(current)


def mark_stale(ids, *, actor, note=""):
    """Still live but no longer trusted: kept out of every prompt until confirmed again."""
    return _set_many(ids, actor, AuditEvent.Event.MARK_STALE, note, "stale", True)


def move_layer(ids, layer, *, actor, note=""):
    """Many memories to one layer at once (``archive`` records an ``archive`` event)."""
    layer = clean_choice("layer", layer, Layer)
    event = AuditEvent.Event.ARCHIVE if layer == Layer.ARCHIVE else AuditEvent.Event.MOVE
    return _set_many(ids, actor, event, note, "layer", layer)


def soft_delete(ids, *, actor, confirmed, note=""):
    """Hidden everywhere but kept (text and history) until a hard delete. A deletion: the delete policy
    decides first (``confirmed``: the owner confirmed it)."""
    with transaction.atomic():
        check_delete_allowed(confirmed=confirmed)
        current = Memory.objects.filter(pk__in=list(ids), deleted_at__isnull=True).values_list("pk", flat=True)
        return _set_many(
            list(current), actor, AuditEvent.Event.FORGET, note or "soft delete", "deleted_at", timezone.now()
        )


def fill_text_keys():
    """Give every memory without a ``text_key`` its key (bookkeeping the write path keeps; no event).
    Returns how many were filled."""
    filled = 0
    for memory_id, text in Memory.objects.filter(text_key="").values_list("pk", "text").iterator(2000):
        filled += Memory.objects.filter(pk=memory_id, text_key="").update(text_key=text_key(text))
    return filled


def count_use(ids, now):
    """The memories a prompt injected were used: one UPDATE of their statistics (no event, SPEC §2)."""
    if ids:
        Memory.objects.filter(pk__in=list(ids)).update(last_accessed_at=now, access_count=F("access_count") + 1)


def restore(ids, *, actor, note=""):
    """Make replaced memories current again: each one's supersede link is cut, with a ``restore`` event
    naming the memory it pointed at (which may be gone). Returns the ids restored."""
    return _set_many(ids, actor, AuditEvent.Event.RESTORE, note, "superseded_by_id", None)


# ---------------------------------------------------------------------------------------------------
# The owner's decisions on proposals


class _StateRow(NamedTuple):
    """What ``Memory.state`` reads: decisions over thousands of rows check them without model instances."""

    id: int
    status: str
    stale: bool
    superseded_by_id: int | None
    expires_at: datetime | None
    deleted_at: datetime | None


def _decide(ids, actor, status, event, note=""):
    wanted = clean_ids(ids)
    with transaction.atomic():
        rows = Memory.objects.select_for_update().filter(pk__in=wanted).values_list(*_StateRow._fields)
        found = {row.id: row for row in map(_StateRow._make, rows)}
        missing = [i for i in wanted if i not in found]
        if missing:
            raise NotFound(no_memory(missing))
        now = timezone.now()
        states = {i: Memory.state(found[i], now) for i in wanted}
        not_pending = [f"{i} ({state_label(state)})" for i, state in states.items() if state != Status.PENDING]
        if not_pending:
            raise LifecycleError(_("not pending: memory %(ids)s") % {"ids": ", ".join(not_pending)})
        return _set_status(wanted, actor, status, event, note)


def _set_status(ids, actor, status, event, note=""):
    """One UPDATE for the rows and one INSERT for their audit events, however many there are."""
    now = timezone.now()
    changes = {"status": status}
    if status == Status.APPROVED:
        changes["confirmed_at"] = now
    count = Memory.objects.filter(pk__in=ids).update(**changes)
    old, new = {"status": Status.PENDING}, {"status": status}
    record_many(audit_event(event, i, actor, old=old, new=new, note=note) for i in ids)
    return count


def approve(ids, *, actor, note=""):
    return _decide(ids, actor, Status.APPROVED, AuditEvent.Event.APPROVE, note)


def reject(ids, *, actor, note=""):
    return _decide(ids, actor, Status.REJECTED, AuditEvent.Event.REJECT, note)


def reopen(ids, *, actor, note=""):
    """Decided proposals back in the queue, pending again (an approval or a rejection undone). Only a
    memory that is live or rejected: one replaced, expired or deleted since stays as it is."""
    with transaction.atomic():
        memories = _get_many(ids)
        now = timezone.now()
        for memory in memories:
            if memory.state(now) not in ("live", "stale", Status.REJECTED):
                raise Refused(
                    _("memory %(id)s is %(state)s: only a live or rejected memory can go back to the pending queue")
                    % {"id": memory.pk, "state": state_label(memory.state(now))}
                )
        return _set_many([m.pk for m in memories], actor, AuditEvent.Event.REOPEN, note, "status", Status.PENDING)


def reject_all(*, actor):
    """Reject every pending proposal. Returns how many."""
    with transaction.atomic():
        ids = list(Memory.objects.pending().select_for_update().values_list("pk", flat=True))
        return _set_status(ids, actor, Status.REJECTED, AuditEvent.Event.REJECT) if ids else 0
