"""What the console's tests share: the owner's actor, the htmx header, a proposal, a memory's events."""

from memories.models import AuditEvent
from tests.factories import add_memory

ACTOR = "owner:owner"
HTMX = {"HTTP_HX_REQUEST": "true"}


def propose(text="User prefers tea in the morning.", **fields):
    fields.setdefault("source", "telegram message 17")
    fields.setdefault("source_kind", "user_message")
    fields.setdefault("actor", "agent:bestie")
    return add_memory(text, status="pending", **fields)


def events(memory_id, event=None):
    rows = AuditEvent.objects.filter(memory_id=memory_id)
    return list(rows.filter(event=event) if event else rows)


def text_of(response):
    return response.content.decode()
