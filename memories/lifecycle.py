"""The one write path for memories: every entry point (CLI, console, API, jobs) changes memories here.

Each function validates its input before touching anything, applies the owner's policies, makes its
change in one transaction and records an audit event with the actor and the old and new values. A
refused or impossible operation raises ``LifecycleError`` whose message says exactly what was wrong, and
changes nothing.
"""

import functools
import hashlib
import re
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import NamedTuple

from django.conf import settings
from django.contrib.admin.models import LogEntry
from django.contrib.contenttypes.models import ContentType
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from memories import rows
from memories.duplicates import text_key
from memories.models import AuditEvent, Layer, Memory, MemorySettings, Policy, Scope, SourceKind, Status, state_label
from memories.secrets import find_secrets

KIND_PATTERN = re.compile(r"[a-z][a-z0-9_]{0,63}")
MAX_TEXT_LENGTH = 2000
MAX_LABEL_LENGTH = 100
# Fields shown in audit events and compared on edit; the record's bookkeeping (statistics, ids) is not.
AUDITED_FIELDS = (
    "text", "kind", "subject", "scope", "user", "channel", "project", "layer", "status", "pinned",
    "stale", "superseded_by_id", "expires_at", "confidence", "source", "source_kind", "deleted_at",
)


class LifecycleError(Exception):
    """An operation that was refused or could not be done; nothing was changed."""


class NotFound(LifecycleError):
    pass


class InvalidValue(LifecycleError):
    def __init__(self, field, message):
        super().__init__(f"{field}: {message}")
        self.field = field


class Refused(LifecycleError):
    """Refused by the owner's policy (paused, write policy deny, delete policy) or the secret filter."""


# Messages are translated (gettext) in the language of the request that caused them: the console shows
# them in Vietnamese or English; the command line and the API speak the default language.


def too_long(length, limit):
    return _("is %(length)s characters long; the limit is %(limit)s") % {"length": length, "limit": limit}


def one_of(values, value):
    return _("must be one of %(values)s, not %(value)r") % {"values": ", ".join(values), "value": value}


def no_memory(ids):
    return _("no memory with id %(ids)s") % {"ids": ", ".join(map(str, ids))}


def delete_denied():
    return _("the delete policy is deny: set it to ask or allow to delete memories")


def clean_ids(ids):
    """Whole-number memory ids, each once, in the given order; at least one."""
    try:
        wanted = list(dict.fromkeys(int(i) for i in ids))
    except (TypeError, ValueError):
        raise InvalidValue("id", _("ids must be whole numbers, got %(value)r") % {"value": list(ids)}) from None
    if not wanted:
        raise InvalidValue("id", _("give at least one memory id"))
    return wanted


def text_sha256(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _json_value(value):
    if isinstance(value, datetime):
        return value.isoformat()
    return value


def snapshot(memory, fields=AUDITED_FIELDS):
    return {field: _json_value(getattr(memory, field)) for field in fields}


def _record(event, memory_id, actor, old=None, new=None, note="", sha=""):
    return AuditEvent(
        memory_id=memory_id, event=event, actor=actor, old=old, new=new, note=note, text_sha256=sha
    )


def record(event, memory_id, actor, old=None, new=None, note="", sha=""):
    return rows.insert(_record(event, memory_id, actor, old, new, note, sha))


# ---------------------------------------------------------------------------------------------------
# Validation


def clean_text(text, field="text"):
    text = " ".join((text or "").split())
    if not text:
        raise InvalidValue(field, _("must not be empty"))
    if len(text) > MAX_TEXT_LENGTH:
        raise InvalidValue(field, too_long(len(text), MAX_TEXT_LENGTH))
    return text


def refuse_secrets(outcome, **fields):
    """Secrets are never stored (SPEC §3): refused before anything is written, with a message that
    names the kind of secret and never the secret itself."""
    for field, value in fields.items():
        for finding in find_secrets(value)[:1]:
            raise Refused(f"{field} {finding.reason}: {outcome}")


def clean_kind(kind):
    kind = (kind or "").strip()
    if not KIND_PATTERN.fullmatch(kind):
        raise InvalidValue(
            "kind", _("must be a lower-case slug like preference or project_context, not %(value)r") % {"value": kind}
        )
    return kind


@functools.cache
def _choice_values(choices):
    return frozenset(choices.values)


def clean_choice(field, value, choices):
    if value not in _choice_values(choices):
        raise InvalidValue(field, one_of(choices.values, value))
    return value


def clean_label(field, value):
    value = (value or "").strip()
    if len(value) > MAX_LABEL_LENGTH:
        raise InvalidValue(field, _("must be at most %(limit)s characters") % {"limit": MAX_LABEL_LENGTH})
    return value


def clean_confidence(value):
    try:
        value = float(value)
    except (TypeError, ValueError):
        raise InvalidValue("confidence", _("must be a number from 0 to 1, not %(value)r") % {"value": value}) from None
    if not 0.0 <= value <= 1.0:
        raise InvalidValue("confidence", _("must be from 0 to 1, not %(value)s") % {"value": value})
    return value


def clean_expiry(expires_at=None, ttl=None, now=None):
    """An aware datetime from either an absolute time or a TTL (timedelta); None means never."""
    if expires_at is not None and ttl is not None:
        raise InvalidValue("expires_at", _("give either an expiry time or a TTL, not both"))
    if ttl is not None:
        if ttl <= timedelta(0):
            raise InvalidValue("ttl", _("must be positive"))
        return (now or timezone.now()) + ttl
    if expires_at is not None and timezone.is_naive(expires_at):
        raise InvalidValue("expires_at", _("must include a time zone (e.g. 2026-12-01T09:00:00Z)"))
    return expires_at


def clean_placement(scope, project):
    clean_choice("scope", scope, Scope)
    if scope == Scope.PROJECT and not project:
        raise InvalidValue("project", _("a project-scoped memory needs the project's name"))


def get_memory(memory_id, *, for_update=False):
    try:
        memory_id = int(memory_id)
    except (TypeError, ValueError):
        raise InvalidValue("id", _("must be a whole number, not %(value)r") % {"value": memory_id}) from None
    memory = rows.get(Memory, memory_id, for_update=for_update)
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


class WriteSwitches(NamedTuple):
    paused: bool
    write_policy: str


def write_switches():
    """Pause and the write policy: two columns read on every write, so one raw read of them."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT paused, write_policy FROM {MemorySettings._meta.db_table} WHERE id = 1")
        row = cursor.fetchone()
    if row is None:
        memory_settings = MemorySettings.load()
        return WriteSwitches(memory_settings.paused, memory_settings.write_policy)
    return WriteSwitches(bool(row[0]), row[1])


def _refusal(switches):
    """The ``Refused`` these switches give a write, or None."""
    if switches.paused:
        return Refused(_("memory is paused: nothing is written until it is resumed"))
    if switches.write_policy == Policy.DENY:
        return Refused(_("the write policy is deny: set it to ask or allow to store memories"))
    return None


def check_writes_allowed():
    """Raises ``Refused`` while paused or under the ``deny`` write policy; returns the switches read."""
    switches = write_switches()
    if refusal := _refusal(switches):
        raise refusal
    return switches


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
    refusal=None,
):
    """Validate a new memory and refuse secrets in it (``Refused``, whose message ends in ``refusal``)."""
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
    refuse_secrets(
        refusal or _("nothing was stored"), text=fields["text"], source=fields["source"], subject=fields["subject"]
    )
    fields["text_key"] = text_key(fields["text"])
    clean_placement(scope, fields["project"])
    return NewMemory(fields)


def store(new, *, actor, status=Status.APPROVED, flags=()):
    """Write a prepared memory with its audit event in one transaction. Pause and the ``deny`` write
    policy refuse it; the caller decides ``status`` (the owner's own memories are approved, the agent's
    proposals follow the write policy)."""
    if not isinstance(new, NewMemory):
        raise TypeError("store() takes what prepare() returns")
    status = clean_choice("status", status, Status)
    # No savepoint inside a caller's transaction (``propose`` holds one, and a savepoint costs a proposal
    # two statements): a refusal is raised once the block is left, so the caller's transaction stays
    # usable, and a failed insert aborts that transaction as a whole.
    with transaction.atomic(savepoint=False):
        refusal = _refusal(write_switches())
        if refusal is None:
            memory = rows.insert(Memory(**new.fields, status=status, flags=list(flags)))
            event = AuditEvent.Event.PROPOSE if status == Status.PENDING else AuditEvent.Event.ADD
            record(event, memory.pk, actor, new=snapshot(memory))
    if refusal is not None:
        raise refusal
    return memory


def add(*, actor, status=Status.APPROVED, flags=(), **fields):
    """Store a new memory: ``prepare`` then ``store`` (see both)."""
    return store(prepare(**fields), actor=actor, status=status, flags=flags)


# ---------------------------------------------------------------------------------------------------
# Changing one memory


def _change(memory_id, actor, event, note="", **changes):
    """Apply ``changes`` to one memory and record what changed. Returns the memory."""
    with transaction.atomic():
        memory = get_memory(memory_id, for_update=True)
        changed = [field for field, value in changes.items() if getattr(memory, field) != value]
        old = snapshot(memory, changed)
        for field in changed:
            setattr(memory, field, changes[field])
        if changed:
            rows.update(memory, changed)
        record(event, memory.pk, actor, old=old, new=snapshot(memory, changed), note=note)
    return memory


def edit(memory_id, text, *, actor):
    """New wording from the owner; the owner has just checked it, so it counts as confirmed."""
    text = clean_text(text)
    refuse_secrets(_("nothing was changed"), text=text)
    return _change(
        memory_id, actor, AuditEvent.Event.EDIT, text=text, text_key=text_key(text), confirmed_at=timezone.now()
    )


def relabel(memory_id, *, actor, kind=None, subject=None):
    """A new kind or subject: the key that duplicate and contradiction checks group memories by."""
    if kind is None and subject is None:
        raise InvalidValue("kind", _("say what to change: a kind or a subject"))
    changes = {}
    if kind is not None:
        changes["kind"] = clean_kind(kind)
    if subject is not None:
        changes["subject"] = clean_label("subject", subject)
        refuse_secrets(_("nothing was changed"), subject=changes["subject"])
    return _change(memory_id, actor, AuditEvent.Event.EDIT, **changes)


def pin(memory_id, *, actor):
    return _change(memory_id, actor, AuditEvent.Event.PIN, pinned=True)


def unpin(memory_id, *, actor):
    return _change(memory_id, actor, AuditEvent.Event.UNPIN, pinned=False)


def move(memory_id, *, actor, scope=None, layer=None, project=None):
    if scope is None and layer is None and project is None:
        raise InvalidValue("scope", _("say where to move it: a scope, a layer or a project"))
    with transaction.atomic():
        memory = get_memory(memory_id, for_update=True)
        scope = memory.scope if scope is None else scope
        project = memory.project if project is None else clean_label("project", project)
        layer = memory.layer if layer is None else clean_choice("layer", layer, Layer)
        clean_placement(scope, project)
        return _change(memory.pk, actor, AuditEvent.Event.MOVE, scope=scope, layer=layer, project=project)


def confirm(memory_id, *, actor, note=""):
    """Checked against its source and still true: fresh ``confirmed_at``, no longer stale."""
    return _change(memory_id, actor, AuditEvent.Event.CONFIRM, note=note, confirmed_at=timezone.now(), stale=False)


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
            raise LifecycleError(_("memory %(old)s is already superseded by memory %(new)s") % {
                "old": old.pk, "new": old.superseded_by_id,
            })
        if not new.is_live():
            raise LifecycleError(_("memory %(id)s is %(state)s; only a live memory can supersede another") % {
                "id": new.pk, "state": state_label(new.state()),
            })
        old.superseded_by = new
        old.save(update_fields=["superseded_by"])
        record(
            AuditEvent.Event.SUPERSEDE, old.pk, actor,
            old={"superseded_by_id": None}, new={"superseded_by_id": new.pk}, note=note,
        )
    return old


def _set_many(ids, actor, event, note, field, value):
    """Set ``field`` to ``value`` on the memories ``ids`` that differ: one UPDATE and one INSERT of audit
    events, whatever the number. Returns the ids changed."""
    with transaction.atomic():
        current = dict(
            Memory.objects.select_for_update().filter(pk__in=list(ids)).exclude(**{field: value})
            .values_list("pk", field)
        )
        if not current:
            return []
        Memory.objects.filter(pk__in=list(current)).update(**{field: value})
        AuditEvent.objects.bulk_create(
            [
                _record(event, i, actor, old={field: _json_value(old)}, new={field: _json_value(value)}, note=note)
                for i, old in current.items()
            ],
            batch_size=500,
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


def soft_delete(ids, *, actor, note=""):
    """Hidden everywhere but kept (text and history) until a hard delete the delete policy allows."""
    with transaction.atomic():
        current = Memory.objects.filter(pk__in=list(ids), deleted_at__isnull=True).values_list("pk", flat=True)
        return _set_many(list(current), actor, AuditEvent.Event.FORGET, note or "soft delete", "deleted_at", timezone.now())


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


def _decide(ids, actor, status, event):
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
        return _set_status(wanted, actor, status, event)


def _set_status(ids, actor, status, event):
    """One UPDATE for the rows and one INSERT for their audit events, however many there are."""
    now = timezone.now()
    changes = {"status": status}
    if status == Status.APPROVED:
        changes["confirmed_at"] = now
    count = Memory.objects.filter(pk__in=ids).update(**changes)
    old, new = {"status": Status.PENDING}, {"status": status}
    AuditEvent.objects.bulk_create(
        [AuditEvent(memory_id=i, event=event, actor=actor, at=now, old=old, new=new) for i in ids],
        batch_size=500,
    )
    return count


def approve(ids, *, actor):
    return _decide(ids, actor, Status.APPROVED, AuditEvent.Event.APPROVE)


def reject(ids, *, actor):
    return _decide(ids, actor, Status.REJECTED, AuditEvent.Event.REJECT)


def reject_all(*, actor):
    """Reject every pending proposal. Returns how many."""
    with transaction.atomic():
        ids = list(Memory.objects.pending().select_for_update().values_list("pk", flat=True))
        return _set_status(ids, actor, Status.REJECTED, AuditEvent.Event.REJECT) if ids else 0


# ---------------------------------------------------------------------------------------------------
# Forgetting


def predecessors(memory_ids):
    """Every memory that was (directly or through a chain) superseded by one of ``memory_ids``."""
    found, frontier = [], list(memory_ids)
    while frontier:
        frontier = list(Memory.objects.filter(superseded_by__in=frontier).values_list("pk", flat=True))
        found.extend(frontier)
    return found


@transaction.atomic
def erase(ids, *, actor, note=""):
    """Hard-delete these memories and everything they superseded, keeping only a hash of each text.

    Earlier audit events of the erased memories lose their values (they held the text); the admin's
    change log loses its entries for them; the full-text index drops their words (``secure-delete``)
    and SQLite zeroes the freed space (``secure_delete``). Returns the ids erased.
    """
    ids = list(dict.fromkeys(ids))
    doomed = ids + [i for i in predecessors(ids) if i not in ids]
    texts = dict(Memory.objects.filter(pk__in=doomed).values_list("pk", "text"))
    AuditEvent.objects.filter(memory_id__in=doomed).update(old=None, new=None, note="", text_sha256="")
    LogEntry.objects.filter(
        content_type=ContentType.objects.get_for_model(Memory), object_id__in=[str(i) for i in doomed]
    ).delete()
    rows.insert_many(
        _record(
            AuditEvent.Event.FORGET, i, actor, sha=text_sha256(texts[i]),
            note=note if i in ids else f"superseded by a forgotten memory; {note}".strip("; "),
        )
        for i in doomed
        if i in texts
    )
    # Every row that points at a doomed row is doomed itself (``predecessors``), so one plain DELETE
    # does what Django's collector would do row by row; foreign keys are still checked at commit.
    Memory.objects.filter(pk__in=doomed)._raw_delete(Memory.objects.db)
    transaction.on_commit(checkpoint_wal)
    return doomed


@dataclass(frozen=True)
class Forgotten:
    erased: list  # the memory first, then the older versions it had replaced
    restored: list  # the versions made current again (with ``restore_previous``)


def forget(memory_id, *, actor, restore_previous=False):
    """Forget one memory for good. The older versions it replaced go with it, unless the owner asks to
    restore them, in which case they become current again."""
    previous = []
    with transaction.atomic():
        memory = get_memory(memory_id, for_update=True)
        if restore_previous:
            previous = list(Memory.objects.filter(superseded_by=memory).values_list("pk", flat=True))
            if not previous:
                raise LifecycleError(
                    _("memory %(id)s did not replace any other memory; nothing to restore") % {"id": memory.pk}
                )
            Memory.objects.filter(pk__in=previous).update(superseded_by=None)
            AuditEvent.objects.bulk_create(
                [
                    _record(
                        AuditEvent.Event.RESTORE, i, actor,
                        old={"superseded_by_id": memory.pk}, new={"superseded_by_id": None},
                    )
                    for i in previous
                ]
            )
        return Forgotten(erased=erase([memory.pk], actor=actor), restored=previous)


def clear_plan():
    """What ``clear`` would erase, for the confirmation step."""
    return {"memories": Memory.objects.count(), "history": AuditEvent.objects.count()}


def clear(*, actor):
    """Erase every memory and the whole audit history. The delete policy ``deny`` refuses it."""
    with transaction.atomic():
        if MemorySettings.load().delete_policy == Policy.DENY:
            raise Refused(delete_denied())
        count = Memory.objects.count()
        # One statement: foreign keys are checked at commit, when no row points anywhere any more.
        Memory.objects.all()._raw_delete(Memory.objects.db)
        AuditEvent.objects.all()._raw_delete(AuditEvent.objects.db)
        LogEntry.objects.filter(content_type=ContentType.objects.get_for_model(Memory)).delete()
        transaction.on_commit(checkpoint_wal)
    return count


# A checkpoint that truncates the WAL holds the write lock while it waits for readers, for as long as the
# connection's busy timeout: with the usual 5 s, one slow console read would stall every writer. Each
# try waits this long at most; between tries the lock is free.
CHECKPOINT_WAIT_MS = 10


def checkpoint_wal(attempts=20):
    """Copy the WAL into the database file and truncate it, so deleted text is gone from both files.

    Another process reading at that moment can hold the checkpoint back; it is tried again for about a
    second. Returns True when the WAL is empty (always on PostgreSQL, which has no WAL file here).
    """
    if connection.vendor != "sqlite":
        return True
    with connection.cursor() as cursor:
        cursor.execute(f"PRAGMA busy_timeout = {CHECKPOINT_WAIT_MS}")
        try:
            for attempt in range(attempts):
                cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                busy, _, _ = cursor.fetchone()
                if not busy:
                    return True
                time.sleep(0.05)
        finally:
            cursor.execute(f"PRAGMA busy_timeout = {settings.SQLITE_PRAGMAS['busy_timeout']}")
    return False
