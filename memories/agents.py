"""What an agent may do with Bestie's memory, as its token allows (SPEC §9): the operations behind every
agent interface (the REST API, MCP, an assistant running in the same process).

Each operation takes the ``Access`` of the agent's token (``agent_tokens.authenticate``), asks it for the
scope it needs and for the user it acts for, then calls the same domain function the owner's tools use:
the write path with its policies, secret filter and audit history (actor ``agent:NAME``), retrieval, search.
A missing scope or another user's memory is ``Refused`` (403 on the API) and changes nothing.
"""

from memories import retrieval
from memories.lifecycle import deletions, proposals
from memories.models import Memory, TokenScope
from memories.retrieval.finding import find


def propose(access, **fields):
    """A proposal (``proposals.propose``'s fields), for a user the token acts for."""
    access.require(TokenScope.PROPOSE)
    fields["user"] = access.user(fields.get("user", ""))
    return proposals.propose(**fields, agent=access.agent)


def record_message(access, **fields):
    access.require(TokenScope.PROPOSE)
    fields["user"] = access.user(fields.get("user", ""))
    return proposals.record_message(**fields, agent=access.agent)


def context(access, query, **request):
    """``retrieval.build_context`` for a user the token acts for, never reaching beyond its users."""
    access.require(TokenScope.RECALL)
    request["user"] = access.user(request.get("user", ""))
    return retrieval.build_context(query, **request, users=access.users or None)


def core_profile(access, *, user="", channel="", project=""):
    """``retrieval.core_profile``, the lines every prompt starts with, for a user the token acts for."""
    access.require(TokenScope.RECALL)
    return retrieval.core_profile(user=access.user(user), channel=channel, project=project, users=access.users or None)


def memories(access, *, q="", status=None, layer=None, scope=None):
    """The memories the token may see, filtered and searched (best match first) or in id order."""
    access.require(TokenScope.READ)
    found = access.visible(Memory.objects.all())
    if status:
        found = found.in_state(status)
    if layer:
        found = found.filter(layer=layer)
    if scope:
        found = found.filter(scope=scope)
    return find(found, q) if q.strip() else found.order_by("id")


def forget(access, memory_id, *, reason=""):
    """Ask to erase a memory: erased, queued for the owner or refused, as the delete policy says
    (``deletions.ask_to_forget``)."""
    access.require(TokenScope.FORGET)
    return deletions.ask_to_forget(memory_id, access=access, reason=reason)
