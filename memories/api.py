"""The agent API (SPEC §9), mounted at ``/api/v1/``: thin HTTP over ``memories.lifecycle`` (its
``proposals`` above all), ``search`` and ``retrieval``.

Every call, the OpenAPI description included, needs ``Authorization: Bearer TOKEN`` with an active agent
token (``bestie token create NAME``); the OpenAPI description is also shown to a logged-in owner. Without
one the answer is 401 and nothing is read or written: authentication runs before the body is parsed.
Bad input is 422 with a ``detail`` naming the field (400 for a body that is not JSON, 415 for one not
sent as ``application/json``, 413 for one over ``DATA_UPLOAD_MAX_MEMORY_SIZE``), and stores nothing;
numbers are strict (``"5"`` and ``true`` are not integers). Every error is JSON, and documented in the
OpenAPI description. Bearer-token calls carry no cookies, so there is no CSRF check; no session reaches these views.

New endpoints: one function each below, decorated with ``@api.get``/``@api.post``, calling a domain
function and returning a ``Schema``.
"""

import json
import logging
from datetime import datetime
from functools import wraps
from typing import Annotated, Literal

from django.core.exceptions import RequestDataTooBig
from django.http import JsonResponse
from ninja import Field, NinjaAPI, Path, Query, Schema, Status
from ninja.errors import AuthenticationError, HttpError, ValidationError
from ninja.parser import Parser
from ninja.security import HttpBearer
from pydantic import BeforeValidator, ConfigDict

from memories import agent_tokens, agents, retrieval
from memories.language import characters
from memories.lifecycle import (
    KIND_PATTERN,
    MAX_ID,
    MAX_LABEL_LENGTH,
    MAX_TEXT_LENGTH,
    InvalidValue,
    NotFound,
    Refused,
    deletions,
    proposals,
)
from memories.lifecycle.deletions import MAX_REASON_LENGTH
from memories.models import Layer, MemoryQuerySet, Message, Scope, SourceKind
from memories.retrieval.context import MAX_QUERY_LENGTH

logger = logging.getLogger(__name__)

MAX_LIMIT = 200
MAX_OFFSET = 2**62
MAX_BUDGET_TOKENS = 1_000_000
MAX_CONTEXT_LIMIT = 10_000
TOO_BIG = "the body is too large"
UNAUTHORIZED = "a valid agent token is required: send `Authorization: Bearer TOKEN` (see `bestie token create`)"


class AgentBearer(HttpBearer):
    def authenticate(self, request, token):
        return agent_tokens.authenticate(token)


def _owner_or_agent(view):
    """The OpenAPI description: for an agent with its token, or the owner logged in to the console."""

    @wraps(view)
    def guarded(request, *args, **kwargs):
        user = getattr(request, "user", None)
        if (user is not None and user.is_authenticated and user.is_staff) or AgentBearer()(request):
            return view(request, *args, **kwargs)
        return _unauthorized()

    return guarded


def _unauthorized():
    response = JsonResponse({"detail": UNAUTHORIZED}, status=401)
    response["WWW-Authenticate"] = 'Bearer realm="bestie"'
    return response


class NotJson(Exception):
    """A body sent as something other than ``application/json``."""


class JsonParser(Parser):
    """JSON bodies only, and only when the request says so: ``text/plain`` is not read as JSON."""

    def parse_body(self, request):
        if request.content_type != "application/json":
            raise NotJson(request.content_type or "no content type")
        return json.loads(request.body)


api = NinjaAPI(
    title="Bestie Memory agent API",
    version="1",
    description="What an assistant may propose, record, list and forget. See SPEC §9.",
    auth=AgentBearer(),
    urls_namespace="api",
    docs_url=None,
    docs_decorator=_owner_or_agent,
    parser=JsonParser(),
)


# ---------------------------------------------------------------------------------------------------
# Errors: always {"detail": "...naming the field..."}, nothing stored


@api.exception_handler(AuthenticationError)
def _authentication_error(request, error):
    return _unauthorized()


@api.exception_handler(HttpError)
def _http_error(request, error):
    """A body that could not be read: not JSON, or not sent as JSON (ninja wraps the parser's error)."""
    cause = error.__cause__
    if isinstance(cause, NotJson):
        detail = f"the body must be sent as application/json, not {cause}"
        return api.create_response(request, {"detail": detail}, status=415)
    if isinstance(cause, ValueError | RecursionError):
        return api.create_response(request, {"detail": "the body is not valid JSON"}, status=400)
    return api.create_response(request, {"detail": str(error)}, status=error.status_code)


@api.exception_handler(RequestDataTooBig)
def _too_big(request, error):
    return api.create_response(request, {"detail": TOO_BIG}, status=413)


@api.exception_handler(Exception)
def _unexpected(request, error):
    """The last resort: JSON, like every other answer, and the error in the log, not in the answer."""
    logger.exception("agent API: %s %s", request.method, request.path)
    return api.create_response(request, {"detail": "internal error: it is in the server's log"}, status=500)


@api.exception_handler(ValidationError)
def _validation_error(request, error):
    errors = [{"field": _field(e["loc"]), "message": e["msg"]} for e in error.errors]
    detail = "; ".join(f"{e['field'] or 'body'}: {e['message']}" for e in errors)
    return api.create_response(request, {"detail": detail, "errors": errors}, status=422)


def _field(location):
    """``("body", "payload", "text")`` -> ``"text"``: where ninja found the error, in the caller's words."""
    parts = list(location)
    # Only the leading location and parameter names go: a field may itself be called "query".
    if parts and parts[0] in ("body", "query", "path"):
        parts = parts[1:]
    if parts and parts[0] in ("payload", "filters"):
        parts = parts[1:]
    return ".".join(str(part) for part in parts)


@api.exception_handler(InvalidValue)
def _invalid_value(request, error):
    return api.create_response(
        request, {"detail": str(error), "errors": [{"field": error.field, "message": str(error)}]}, status=422
    )


@api.exception_handler(NotFound)
def _not_found(request, error):
    return api.create_response(request, {"detail": str(error)}, status=404)


@api.exception_handler(Refused)
def _refused(request, error):
    return api.create_response(request, {"detail": str(error)}, status=403)


# ---------------------------------------------------------------------------------------------------
# Schemas


class Strict(Schema):
    model_config = ConfigDict(extra="forbid")


def _a_number(value):
    """JSON numbers only: ``"5"`` and ``true`` are not integers (``5.0`` is, as JSON Schema has it)."""
    if isinstance(value, str | bool):
        raise ValueError(f"must be a JSON number, not {json.dumps(value)}")
    return value


def _a_time(value):
    """Times as ISO 8601 text: a bare number is not read as seconds since 1970."""
    if not isinstance(value, str):
        raise ValueError(f"must be an ISO 8601 time with a time zone (like 2026-12-01T09:00:00Z), not {value!r}")
    return value


def whole_number(maximum):
    """A whole JSON number from 1 to ``maximum``, the bounds in the OpenAPI description too."""
    return Annotated[int, Field(ge=1, le=maximum), BeforeValidator(_a_number)]


Number = Annotated[float, BeforeValidator(_a_number)]
Time = Annotated[datetime, BeforeValidator(_a_time)]


def text_field(max_length, description, default=...):
    """A text that must say something: at least one visible character, which the description documents
    and the domain checks (``lifecycle.clean_text``: "must not be empty")."""
    return Field(
        default,
        max_length=max_length,
        description=description,
        json_schema_extra={"minLength": 1, "pattern": characters.SOMETHING_VISIBLE},
    )


def label_field(description=None):
    return Field("", max_length=MAX_LABEL_LENGTH, description=description)


class ProposalIn(Strict):
    text: str = text_field(MAX_TEXT_LENGTH, "the memory, one clear sentence")
    kind: str = Field(
        pattern=f"^{KIND_PATTERN.pattern}$", description="a slug: preference, project_context, decision, fact, ..."
    )
    source: str = text_field(MAX_TEXT_LENGTH, "where it came from: a message, file or command (required)")
    source_kind: SourceKind
    subject: str = label_field()
    scope: Scope = Scope.CORE
    user: str = label_field()
    channel: str = label_field()
    project: str = label_field("the project's name, required with scope project")
    confidence: Number = Field(1.0, ge=0, le=1)
    ttl_seconds: whole_number(proposals.MAX_TTL_SECONDS) | None = Field(
        None, description="forget it after this many seconds"
    )
    expires_at: Time | None = Field(None, description="or: forget it at this time (with a time zone)")
    message_id: whole_number(MAX_ID) | None = Field(None, description="the recorded message it was derived from")


class ProposalOut(Schema):
    id: int | None
    status: Literal["approved", "pending", "duplicate", "refused"]
    reason: str
    flags: list[str] = Field(
        description="why a stored proposal waits for the owner whatever the policy: tool_output, "
        "instruction_like, possible_update (it says otherwise than a live memory of its subject)"
    )


class MessageIn(Strict):
    role: Message.Role
    text: str = text_field(proposals.MAX_MESSAGE_LENGTH, "the message as it was said (secrets in it are redacted)")
    user: str = label_field()
    channel: str = label_field()
    project: str = label_field()


class Created(Schema):
    id: int


class Detail(Schema):
    detail: str


class FieldError(Schema):
    field: str = Field(description="the field, empty for the body as a whole")
    message: str


class Invalid(Schema):
    detail: str
    errors: list[FieldError]


# What any call may answer besides its own: documented on every endpoint.
ERRORS = {401: Detail, 422: Invalid}
BODY_ERRORS = {**ERRORS, 400: Detail, 413: Detail, 415: Detail}


class MemoryOut(Schema):
    id: int
    text: str
    kind: str
    subject: str
    scope: str
    user: str
    channel: str
    project: str
    layer: str
    status: str
    state: str
    pinned: bool
    stale: bool
    confidence: float
    source: str
    source_kind: str
    flags: list[str]
    superseded_by: int | None = Field(None, alias="superseded_by_id")
    expires_at: datetime | None
    created_at: datetime
    confirmed_at: datetime

    @staticmethod
    def resolve_state(memory):
        # A Memory's state is computed; a MemoryOut validated again (MCP checks what its tools return)
        # already holds it.
        state = memory.state
        return state() if callable(state) else state


class MemoryList(Schema):
    items: list[MemoryOut]
    total: int


class MemoryFilters(Schema):
    q: str = Field("", description="words to look for (case and diacritics do not matter)")
    status: Literal[MemoryQuerySet.STATES] | None = None
    layer: Layer | None = None
    scope: Scope | None = None
    limit: int = Field(50, ge=1, le=MAX_LIMIT)
    offset: int = Field(0, ge=0, le=MAX_OFFSET)


class ForgetOut(Schema):
    status: Literal["erased", "requested"]
    erased: list[int] = Field(description="the memories erased: this one and the older versions it replaced")
    request_id: int | None = Field(description="the deletion request waiting for the owner")
    reason: str


class ContextIn(Strict):
    query: str = text_field(MAX_QUERY_LENGTH, "the request's text")
    user: str = label_field("who is asking; governed retrieval keeps their memories")
    channel: str = label_field("the conversation, like telegram:123")
    project: str = label_field("the current project")
    budget_tokens: whole_number(MAX_BUDGET_TOKENS) | None = Field(
        None, description="working budget for this request, in tokens"
    )
    limit: whole_number(MAX_CONTEXT_LIMIT) | None = Field(None, description="at most this many working memories")


class ContextItem(Schema):
    id: int
    text: str
    layer: str
    score: float
    signals: dict[str, float]
    confirmed_at: datetime


class NearMiss(ContextItem):
    reason: str = Field(description="why it was left out: core budget, budget, limit or score")


class ContextOut(Schema):
    prompt: str
    items: list[ContextItem]
    tokens: int
    paused: bool
    governance: str
    meaning: str = Field(
        description='"on" when the ranking used meaning (embeddings), "off" when embeddings are off, '
        "else why the model could not be used (the ranking was by words alone)"
    )
    near_misses: list[NearMiss]


# ---------------------------------------------------------------------------------------------------
# Endpoints


@api.post(
    "/memories",
    response={200: ProposalOut, 201: ProposalOut, 403: ProposalOut, **BODY_ERRORS},
    summary="Propose a memory",
    description="Needs the scope propose. 201 stored (approved or pending), 200 a duplicate (the existing "
    "memory is confirmed), 403 refused (paused, write policy deny, a secret, one-off venting, rejected by the "
    "owner before, or a user the token does not act for).",
)
def propose_memory(request, payload: ProposalIn):
    proposal = agents.propose(request.auth, **payload.model_dump())
    code = {proposals.DUPLICATE: 200, proposals.REFUSED: 403}.get(proposal.status, 201)
    return Status(code, proposal)


@api.post(
    "/messages",
    response={201: Created, 403: Detail, **BODY_ERRORS},
    summary="Record a conversation message",
    description="Needs the scope propose.",
)
def record_message(request, payload: MessageIn):
    message = agents.record_message(request.auth, **payload.model_dump())
    return Status(201, {"id": message.pk})


@api.get(
    "/memories",
    response={200: MemoryList, 403: Detail, **ERRORS},
    summary="List or search memories",
    description="Needs the scope read. A token bound to users sees theirs and those of no one in particular.",
)
def list_memories(request, filters: Query[MemoryFilters]):
    memories = agents.memories(
        request.auth, q=filters.q, status=filters.status, layer=filters.layer, scope=filters.scope
    )
    page = list(memories[filters.offset : filters.offset + filters.limit])
    return {"items": page, "total": memories.count()}


@api.delete(
    "/memories/{memory_id}",
    response={200: ForgetOut, 202: ForgetOut, 403: Detail, 404: Detail, **ERRORS},
    summary="Ask to forget a memory",
    description="Needs the scope forget, and follows the owner's delete policy: allow erases it for good with "
    "the older versions it replaced (200, status erased); ask queues a deletion request for the owner (202, "
    "status requested); deny refuses (403). A pinned memory is never erased by an agent (403).",
)
def forget_memory(
    request,
    memory_id: int = Path(..., ge=1, le=MAX_ID),
    reason: str = Query("", max_length=MAX_REASON_LENGTH, description="why, for the owner"),
):
    asked = agents.forget(request.auth, memory_id, reason=reason)
    return Status(200 if asked.status == deletions.ERASED else 202, asked)


@api.post(
    "/context",
    response={200: ContextOut, 403: Detail, **BODY_ERRORS},
    summary="The memory context for a request",
    description="Needs the scope recall. The prompt to inject (core tier, then the working memories relevant "
    "to the query, each line with its age), every memory with its score and signals, and the near-misses with "
    "why. Injected memories count as used. While memory is paused the prompt is empty and paused is true.",
)
def context(request, payload: ContextIn):
    fields = payload.model_dump()
    return retrieval.as_json(agents.context(request.auth, fields.pop("query"), **fields))
