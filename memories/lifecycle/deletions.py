"""An agent asking to erase a memory, and the owner's answer (SPEC §9).

An agent is never trusted more than the owner would be. What its asking gets follows the delete policy:
``allow`` erases the memory (with the older versions it replaced), ``ask`` queues a deletion request that
waits for the owner beside the proposals, ``deny`` refuses. A pinned memory is never erased by an agent,
whatever the policy; a memory the owner kept when an agent asked before is not asked for again.

The owner approves requests (each memory is forgotten, the request with it) or rejects them (the memory
stays, with a ``keep`` event); both all or none, like the decisions on proposals. The agent's reason is
kept only on the request, never in the history, so it goes when the memory goes.
"""

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from memories.lifecycle.forgetting import erase, forget
from memories.lifecycle.history import audit_event, record, record_many
from memories.lifecycle.policies import delete_refusal
from memories.lifecycle.validation import (
    LifecycleError,
    NotFound,
    Refused,
    clean_characters,
    clean_ids,
    refuse_secrets,
    too_long,
)
from memories.lifecycle.writes import get_memory
from memories.models import AuditEvent, DeletionRequest, MemorySettings, Policy

MAX_REASON_LENGTH = 500
ERASED = "erased"
REQUESTED = "requested"


@dataclass(frozen=True)
class Asked:
    """What an agent's asking to erase a memory got."""

    status: str  # ERASED or REQUESTED
    erased: list  # the ids erased (ERASED)
    request_id: int | None  # the deletion request waiting for the owner (REQUESTED)
    reason: str


def _clean_reason(reason):
    reason = " ".join(clean_characters("reason", reason).split())
    if len(reason) > MAX_REASON_LENGTH:
        raise LifecycleError(f"reason: {too_long(len(reason), MAX_REASON_LENGTH)}")
    refuse_secrets(_("nothing was asked"), reason=reason)
    return reason


def ask_to_forget(memory_id, *, access, reason=""):
    """An agent (its token's ``access``) asks to erase a memory it may see. Raises ``Refused`` (the policy
    is deny, the memory is pinned or another user's, the owner kept it before) or ``NotFound``."""
    reason = _clean_reason(reason)
    with transaction.atomic():
        memory = get_memory(memory_id, for_update=True)
        if not access.owns(memory):
            raise NotFound(_("no memory with id %(ids)s") % {"ids": memory.pk})
        if memory.pinned:
            raise Refused(_("memory %(id)s is pinned: an agent never erases it") % {"id": memory.pk})
        policy = MemorySettings.load().delete_policy
        if policy == Policy.ALLOW:
            erased = erase([memory.pk], actor=access.actor, confirmed=False, note="asked by the agent")
            return Asked(ERASED, erased, None, _("erased: the delete policy is allow"))
        if policy == Policy.DENY:
            raise delete_refusal(confirmed=False)
        asked = DeletionRequest.objects.filter(memory=memory).order_by("-id").first()
        if asked and asked.status == DeletionRequest.Status.PENDING:
            return Asked(
                REQUESTED,
                [],
                asked.pk,
                _("already waiting for the owner as deletion request %(id)s") % {"id": asked.pk},
            )
        if asked and asked.status == DeletionRequest.Status.REJECTED:
            raise Refused(_("the owner kept memory %(id)s when an agent asked to erase it before") % {"id": memory.pk})
        request = DeletionRequest.objects.create(memory=memory, agent=access.agent, reason=reason)
        record(AuditEvent.Event.REQUEST_FORGET, memory.pk, access.actor, note=f"deletion request {request.pk}")
    return Asked(REQUESTED, [], request.pk, _("queued for the owner's review: the delete policy is ask"))


def pending_requests():
    """Deletion requests waiting for the owner, oldest first, with their memories."""
    return DeletionRequest.objects.filter(status=DeletionRequest.Status.PENDING).select_related("memory")


def _pending(request_ids):
    wanted = clean_ids(request_ids)
    found = DeletionRequest.objects.select_for_update().in_bulk(wanted)
    missing = [i for i in wanted if i not in found]
    if missing:
        raise NotFound(_("no deletion request with id %(ids)s") % {"ids": ", ".join(map(str, missing))})
    decided = [str(i) for i in wanted if found[i].status != DeletionRequest.Status.PENDING]
    if decided:
        raise LifecycleError(_("not pending: deletion request %(ids)s") % {"ids": ", ".join(decided)})
    return [found[i] for i in wanted]


def approve(request_ids, *, actor):
    """The owner agrees: each request's memory is forgotten, the older versions it replaced with it. All or
    none. Returns the ids of the memories erased."""
    with transaction.atomic():
        erased = []
        for request in _pending(request_ids):
            if request.memory_id in erased:
                continue
            note = f"deletion request {request.pk} by agent:{request.agent}"
            erased += forget(request.memory_id, actor=actor, confirmed=True, note=note).erased
    return erased


def reject(request_ids, *, actor):
    """The owner keeps the memories: each request is rejected, with a ``keep`` event. All or none. Returns
    how many."""
    with transaction.atomic():
        requests = _pending(request_ids)
        now = timezone.now()
        DeletionRequest.objects.filter(pk__in=[request.pk for request in requests]).update(
            status=DeletionRequest.Status.REJECTED, decided_at=now, decided_by=actor
        )
        record_many(
            audit_event(AuditEvent.Event.KEEP, request.memory_id, actor, note=f"deletion request {request.pk} rejected")
            for request in requests
        )
    return len(requests)
