"""Undoing changes from the audit history: an event's old values go back through the write that makes
that change, so an undo has the same checks (the secret filter, the placement, the state a pin needs, the
delete policy) and is recorded like any other change, with the note ``undo of event #N``.

An event can be undone while it is the latest change of its fields: once anything later changed one of
them (an edit after the edit, its own undo already made), undoing it would overwrite that, and it is
refused. A later change that was itself undone no longer counts, so changes are undone one after the
other, newest first, as from a stack. Forgetting cannot be undone: it erased the memory. What each kind of
event undoes with:

- ``add``: a soft delete (the memory is hidden; the delete policy decides, the owner's undo confirms);
- ``approve``, ``reject``: ``reopen`` (back in the pending queue); ``reopen``: the decision again;
- ``edit``: ``edit`` back to the old text (and stale again if it was), ``relabel`` back to the old kind and
  subject; ``move``, ``archive``: ``move`` back; ``pin`` and ``unpin``: each other; ``expire``: the old expiry;
- ``supersede``: ``restore``; ``restore``: ``supersede`` by the memory it pointed at;
- ``merge``: the whole merge, its members restored and the merged memory soft-deleted.
"""

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from memories.lifecycle.history import AUDITED_FIELDS
from memories.lifecycle.validation import NotFound, Refused, clean_ids
from memories.lifecycle.writes import (
    approve,
    edit,
    mark_stale,
    move,
    pin,
    reject,
    relabel,
    reopen,
    restore,
    set_expiry,
    soft_delete,
    supersede,
    unpin,
)
from memories.models import AuditEvent, Memory, Status

Event = AuditEvent.Event
UNDOABLE = frozenset(
    {
        Event.ADD,
        Event.APPROVE,
        Event.REJECT,
        Event.REOPEN,
        Event.EDIT,
        Event.MOVE,
        Event.ARCHIVE,
        Event.PIN,
        Event.UNPIN,
        Event.EXPIRE,
        Event.SUPERSEDE,
        Event.RESTORE,
        Event.MERGE,
    }
)
_AUDITED = frozenset(AUDITED_FIELDS)
UNDO_NOTE = "undo of event #"


@dataclass(frozen=True)
class Reverted:
    event_ids: tuple  # the events undone, newest first
    memory_ids: tuple  # the memories changed back


def _fields(event):
    """The fields an event changed (its bookkeeping, ``confirmed_at`` and ``text_key``, aside); a merge's
    own event only says what was merged, its add and supersedes made the changes."""
    if event.event == Event.MERGE:
        return frozenset()
    return frozenset((event.old or {}).keys() | (event.new or {}).keys()) & _AUDITED


def _changed_nothing(event):
    """An event written for a change that found nothing to change (a pin of a pinned memory): its undo
    has nothing to put back either."""
    if event.event == Event.EDIT and event.old and set(event.old) <= {"flags"}:
        return True  # a flag a later check added (``add_flag``) is the check's, not the owner's to undo
    return event.event not in (Event.ADD, Event.MERGE) and not event.old


def _undoes(event):
    """The id of the event ``event`` undid, or None."""
    number = event.note.removeprefix(UNDO_NOTE)
    return int(number) if number != event.note and number.isdigit() else None


def _in_force(events):
    """Of one memory's ``events`` (oldest first), those whose change still holds: a change and the undo
    of it cancel out (an undo of an undo that cancelled out is a change again)."""
    held, undone = {}, set()
    for event in events:
        target = _undoes(event)
        if target in held:
            del held[target]
            undone.add(target)
        elif target not in undone:
            held[event.pk] = event
    return list(held.values())


def _with_merges(events):
    """``events`` and, for each merge among them, the events that made it: the merged memory's add and
    the supersede of each member by it. Oldest first, each once."""
    found = {event.pk: event for event in events}
    for merge in [event for event in events if event.event == Event.MERGE]:
        found.update(
            (event.pk, event)
            for event in AuditEvent.objects.filter(memory_id=merge.memory_id, event=Event.ADD, id__lt=merge.pk)
        )
        members = (merge.new or {}).get("members", [])
        supersedes = AuditEvent.objects.filter(
            memory_id__in=members, event=Event.SUPERSEDE, new__superseded_by_id=merge.memory_id, id__lt=merge.pk
        ).order_by("id")
        # A member superseded twice by the merged memory (restored and merged again) undoes the latest.
        found.update((event.pk, event) for event in {event.memory_id: event for event in supersedes}.values())
    return sorted(found.values(), key=lambda event: event.pk)


def _what_followed(events):
    """The memories of ``events`` and every event of theirs after the first of ``events``, oldest first:
    what ``_refusal`` checks them against."""
    memories = Memory.objects.in_bulk({event.memory_id for event in events if event.memory_id is not None})
    first = min(event.pk for event in events)
    return memories, list(AuditEvent.objects.filter(memory_id__in=memories, id__gt=first).order_by("id"))


def _refusal(events, followed=None):
    """Why ``events`` (with their merges') cannot be undone together now, or None. ``followed`` is what
    ``_what_followed`` reads for them, or for more events than these (one memory's whole history)."""
    memories, history = followed or _what_followed(events)
    ids = {event.pk for event in events}
    later = defaultdict(list)
    for event in history:
        if event.pk > min(ids) and event.pk not in ids:
            later[event.memory_id].append(event)
    superseded_here = {event.memory_id for event in events if event.event == Event.SUPERSEDE}
    for event in events:
        if event.event not in UNDOABLE:
            if event.event == Event.FORGET and not event.new:
                return _("memory %(id)s was forgotten: forgetting cannot be undone") % {"id": event.memory_id}
            return _("a %(event)s cannot be undone (event #%(number)s)") % {"event": event.event, "number": event.pk}
        memory = memories.get(event.memory_id)
        if memory is None:
            return _("memory %(id)s was forgotten: forgetting cannot be undone") % {"id": event.memory_id}
        if memory.deleted_at is not None:
            return _("memory %(id)s is deleted: nothing was undone") % {"id": memory.pk}
        changed = _fields(event)
        for newer in _in_force(e for e in later[event.memory_id] if e.pk > event.pk):
            if changed & _fields(newer):
                return _("memory %(id)s has changed since: %(event)s by %(actor)s at %(when)s; nothing was undone") % {
                    "id": memory.pk,
                    "event": newer.event,
                    "actor": newer.actor,
                    "when": timezone.localtime(newer.at).strftime("%Y-%m-%d %H:%M"),
                }
        if event.event == Event.ADD:
            replaced = Memory.objects.filter(superseded_by=memory.pk).exclude(pk__in=superseded_here)
            if replaced.exists():
                return _("memory %(id)s replaced memory %(ids)s: undo that first; nothing was undone") % {
                    "id": memory.pk,
                    "ids": ", ".join(str(pk) for pk in replaced.order_by("pk").values_list("pk", flat=True)),
                }
    if all(_changed_nothing(event) for event in events if event.event in UNDOABLE):
        return _("there is nothing to undo: event %(ids)s changed nothing") % {
            "ids": ", ".join(f"#{event.pk}" for event in events)
        }
    return None


def _events(event_ids):
    wanted = clean_ids(event_ids)
    found = AuditEvent.objects.in_bulk(wanted)
    missing = [i for i in wanted if i not in found]
    if missing:
        raise NotFound(_("no history event with id %(ids)s") % {"ids": ", ".join(map(str, missing))})
    return _with_merges(found.values())


def revert_refusal(event_ids):
    """Why ``revert(event_ids)`` would be refused now, or None: the console offers an undo only when it
    can be made."""
    return _refusal(_events(event_ids))


def revertible(events):
    """The ids of the events among ``events`` (one memory's history) that can be undone now. What followed
    them is read once for them all, not once per event: a memory's page offers a revert for each event."""
    candidates = [event for event in events if event.event in UNDOABLE and not _changed_nothing(event)]
    groups = {event.pk: _with_merges([event]) for event in candidates}
    if not groups:
        return set()
    followed = _what_followed([event for group in groups.values() for event in group])
    return {pk for pk, group in groups.items() if _refusal(group, followed) is None}


def _when(value):
    return None if value is None else datetime.fromisoformat(value)


def _undo(event, actor):
    """Put back what ``event`` changed, through the write that makes that change."""
    memory_id, old, note = event.memory_id, event.old or {}, f"{UNDO_NOTE}{event.pk}"
    if _changed_nothing(event):
        return
    match event.event:
        case Event.ADD:
            soft_delete([memory_id], actor=actor, confirmed=True, note=note)
        case Event.APPROVE | Event.REJECT:
            reopen([memory_id], actor=actor, note=note)
        case Event.REOPEN:
            decide = approve if old.get("status") == Status.APPROVED else reject
            decide([memory_id], actor=actor, note=note)
        case Event.EDIT:
            if "text" in old:
                edit(memory_id, old["text"], actor=actor, note=note)
            if "kind" in old or "subject" in old:
                relabel(memory_id, actor=actor, kind=old.get("kind"), subject=old.get("subject"), note=note)
            if old.get("stale"):
                mark_stale([memory_id], actor=actor, note=note)
        case Event.MOVE | Event.ARCHIVE:
            placement = {field: old[field] for field in ("scope", "layer", "project") if field in old}
            move(memory_id, actor=actor, note=note, **placement)
        case Event.PIN:
            unpin(memory_id, actor=actor, note=note)
        case Event.UNPIN:
            pin(memory_id, actor=actor, note=note)
        case Event.EXPIRE:
            set_expiry(memory_id, actor=actor, expires_at=_when(old.get("expires_at")), note=note)
        case Event.SUPERSEDE:
            restore([memory_id], actor=actor, note=note)
        case Event.RESTORE:
            supersede(memory_id, old["superseded_by_id"], actor=actor, note=note)


def revert(event_ids, *, actor):
    """Undo the events ``event_ids`` (what one action of the owner did, or one event of a memory's
    history), newest first, all or none. ``Refused`` says why when one cannot be undone (see the module)."""
    with transaction.atomic():
        events = _events(event_ids)
        # Locked before they are checked, so nothing changes them between the check and the undo.
        list(Memory.objects.select_for_update().filter(pk__in={e.memory_id for e in events}).values_list("pk"))
        if reason := _refusal(events):
            raise Refused(reason)
        for event in reversed(events):
            _undo(event, actor)
    return Reverted(
        event_ids=tuple(event.pk for event in reversed(events)),
        memory_ids=tuple(dict.fromkeys(event.memory_id for event in reversed(events))),
    )
