"""Forgetting: hard deletes that leave only a hash of each text, anywhere (SPEC §3).

A forgotten memory leaves the table, its full-text index, the admin's log, the agent's deletion request,
the conversation message it came from, and the SQLite WAL (``erasure.finish_erasure``).
"""

from dataclasses import dataclass

from django.contrib.admin.models import LogEntry
from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.utils.translation import gettext as _

from memories import vectors
from memories.lifecycle.chains import predecessors
from memories.lifecycle.erasure import finish_erasure
from memories.lifecycle.history import audit_event, record_many, text_sha256
from memories.lifecycle.policies import check_delete_allowed
from memories.lifecycle.validation import LifecycleError
from memories.lifecycle.writes import get_memory, restore
from memories.models import AuditEvent, DeletionRequest, Memory, Message


@transaction.atomic
def erase(ids, *, actor, confirmed, note=""):
    """Hard-delete these memories and everything they superseded, keeping only a hash of each text.

    The delete policy decides first (``confirmed``: the owner confirmed it). Earlier audit events of the
    erased memories lose their values (they held the text); the admin's change log loses its entries for
    them; the full-text index drops their words (``secure-delete``) and SQLite zeroes the freed space
    (``secure_delete``). Returns the ids erased.
    """
    check_delete_allowed(confirmed=confirmed)
    ids = list(dict.fromkeys(ids))
    doomed = ids + [i for i in predecessors(ids) if i not in ids]
    texts = dict(Memory.objects.filter(pk__in=doomed).values_list("pk", "text"))
    # The message a memory came from says what the memory said: it goes too. Other memories from it stay,
    # without the link.
    messages = list(
        Memory.objects.filter(pk__in=doomed, message__isnull=False).values_list("message_id", flat=True).distinct()
    )
    AuditEvent.objects.filter(memory_id__in=doomed).update(old=None, new=None, note="", text_sha256="")
    # An agent's reason for asking may quote the text: its request goes with the memory.
    DeletionRequest.objects.filter(memory_id__in=doomed)._raw_delete(DeletionRequest.objects.db)
    LogEntry.objects.filter(
        content_type=ContentType.objects.get_for_model(Memory), object_id__in=[str(i) for i in doomed]
    ).delete()
    record_many(
        audit_event(
            AuditEvent.Event.FORGET,
            i,
            actor,
            sha=text_sha256(texts[i]),
            note=note if i in ids else f"superseded by a forgotten memory; {note}".strip("; "),
        )
        for i in doomed
        if i in texts
    )
    # Every row that points at a doomed row is doomed itself (``predecessors``), so one plain DELETE
    # does what Django's collector would do row by row; foreign keys are still checked at commit.
    vectors.erase(doomed)
    Memory.objects.filter(pk__in=doomed)._raw_delete(Memory.objects.db)
    if messages:
        Memory.objects.filter(message_id__in=messages).update(message=None)
        Message.objects.filter(pk__in=messages)._raw_delete(Message.objects.db)
    transaction.on_commit(finish_erasure)
    return doomed


@dataclass(frozen=True)
class Forgotten:
    erased: list  # the memory first, then the older versions it had replaced
    restored: list  # the versions made current again (with ``restore_previous``)


def forget(memory_id, *, actor, confirmed, restore_previous=False, note=""):
    """Forget one memory for good. The older versions it replaced go with it, unless the owner asks to
    restore them, in which case they become current again. The delete policy decides first."""
    with transaction.atomic():
        memory = get_memory(memory_id, for_update=True)
        check_delete_allowed(confirmed=confirmed)
        previous = []
        if restore_previous:
            previous = list(Memory.objects.filter(superseded_by=memory).values_list("pk", flat=True))
            if not previous:
                raise LifecycleError(
                    _("memory %(id)s did not replace any other memory; nothing to restore") % {"id": memory.pk}
                )
            restore(previous, actor=actor)
        return Forgotten(erased=erase([memory.pk], actor=actor, confirmed=confirmed, note=note), restored=previous)


def clear_plan():
    """What ``clear`` would erase, for the confirmation step."""
    return {
        "memories": Memory.objects.count(),
        "history": AuditEvent.objects.count(),
        "messages": Message.objects.count(),
    }


def clear(*, actor, confirmed):
    """Erase every memory, every message and the whole audit history, as the delete policy allows."""
    with transaction.atomic():
        check_delete_allowed(confirmed=confirmed)
        count = Memory.objects.count()
        # One statement: foreign keys are checked at commit, when no row points anywhere any more.
        DeletionRequest.objects.all()._raw_delete(DeletionRequest.objects.db)
        vectors.erase_all()
        Memory.objects.all()._raw_delete(Memory.objects.db)
        Message.objects.all()._raw_delete(Message.objects.db)
        AuditEvent.objects.all()._raw_delete(AuditEvent.objects.db)
        LogEntry.objects.filter(content_type__in=ContentType.objects.get_for_models(Memory, Message).values()).delete()
        transaction.on_commit(finish_erasure)
    return count
