"""The agent API over HTTP (SPEC §9): tokens, every endpoint, every validation error, OpenAPI."""

import functools
import json

import pytest

from memories import agent_tokens, lifecycle
from memories.lifecycle import policies, proposals
from memories.models import AgentToken, AuditEvent, Memory, Message
from tests.factories import OWNER, add_memory

pytestmark = pytest.mark.django_db

PROPOSAL = {
    "text": "User prefers pnpm over npm.",
    "kind": "preference",
    "source": "telegram message 42",
    "source_kind": "user_message",
    "user": "owner",
}


@pytest.fixture
def call(client, agent_token):
    """``call(method, path, body=None, token=...)`` -> (status, JSON body)."""

    def call(method, path, body=None, token=agent_token, raw=None):
        headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token is not None else {}
        data = raw if raw is not None else (json.dumps(body) if body is not None else None)
        kwargs = {"content_type": "application/json", "data": data} if data is not None else {}
        response = getattr(client, method)(f"/api/v1{path}", **kwargs, **headers)
        return response.status_code, response.json()

    return call


def store():
    return (
        list(Memory.objects.order_by("pk").values()),
        list(AuditEvent.objects.order_by("pk").values()),
        list(Message.objects.order_by("pk").values()),
        list(AgentToken.objects.order_by("pk").values()),
    )


# ---------------------------------------------------------------------------------------------------
# Authentication


ENDPOINTS = [
    ("post", "/memories", PROPOSAL),
    ("post", "/messages", {"role": "user", "text": "hi"}),
    ("get", "/memories", None),
    ("delete", "/memories/1", None),
    ("get", "/openapi.json", None),
]


@pytest.mark.parametrize("method, path, body", ENDPOINTS)
@pytest.mark.parametrize("kind", ["missing", "invalid", "revoked", "not bearer"])
def test_no_valid_token_is_401_and_touches_nothing(client, agent_token, method, path, body, kind):
    add_memory()
    if kind == "revoked":
        agent_tokens.revoke_token("bestie", actor=OWNER)
    authorization = {
        "missing": None,
        "invalid": "Bearer bst_not-a-real-token",
        "revoked": f"Bearer {agent_token}",
        "not bearer": f"Basic {agent_token}",
    }[kind]
    headers = {"HTTP_AUTHORIZATION": authorization} if authorization else {}
    before = store()
    data = {"data": json.dumps(body), "content_type": "application/json"} if body else {}
    response = getattr(client, method)(f"/api/v1{path}", **data, **headers)
    assert response.status_code == 401
    assert "agent token is required" in response.json()["detail"]
    assert response["WWW-Authenticate"].startswith("Bearer")
    assert store() == before


def test_token_use_is_recorded(call):
    call("get", "/memories")
    assert AgentToken.objects.get().last_used_at is not None


# ---------------------------------------------------------------------------------------------------
# POST /memories


def test_propose_pending_under_ask(call):
    status, answer = call("post", "/memories", PROPOSAL)
    memory = Memory.objects.get()
    assert (status, answer) == (
        201,
        {
            "id": memory.pk,
            "status": "pending",
            "reason": "queued for the owner's review: the write policy is ask",
            "flags": [],
        },
    )
    assert memory.status == "pending" and memory.user == "owner"
    assert AuditEvent.objects.get(memory_id=memory.pk).actor == "agent:bestie"


def test_propose_approved_under_allow_and_flagged_tool_output(call):
    policies.set_write_policy("allow", actor=OWNER)
    assert call("post", "/memories", PROPOSAL)[1]["status"] == "approved"
    status, answer = call(
        "post", "/memories", {**PROPOSAL, "text": "Deploys use Terraform.", "source_kind": "tool_output"}
    )
    assert (status, answer["status"], answer["flags"]) == (201, "pending", ["tool_output"])


def test_a_possible_update_is_queued_with_its_flag_under_allow(call):
    policies.set_write_policy("allow", actor=OWNER)
    old = add_memory("User prefers pnpm over npm.", user="owner", subject="package_manager")
    body = {**PROPOSAL, "text": "User prefers yarn over npm.", "subject": "package_manager"}
    status, answer = call("post", "/memories", body)
    assert (status, answer["status"], answer["flags"]) == (201, "pending", ["possible_update"])
    assert f"says otherwise than memory {old.pk}" in answer["reason"]


def test_duplicate_is_200_and_confirms(call):
    existing = add_memory("User prefers pnpm over npm.", user="owner")
    status, answer = call("post", "/memories", {**PROPOSAL, "text": "user prefers PNPM over npm"})
    assert (status, answer["id"], answer["status"]) == (200, existing.pk, "duplicate")
    assert Memory.objects.count() == 1
    assert AuditEvent.objects.filter(memory_id=existing.pk, event="confirm", actor="agent:bestie").exists()


@pytest.mark.parametrize("refusal", ["pause", "deny", "secret", "venting", "rejected"])
def test_refused_is_403_with_the_proposal_body(call, refusal):
    body = PROPOSAL
    if refusal == "pause":
        policies.pause(actor=OWNER)
    elif refusal == "deny":
        policies.set_write_policy("deny", actor=OWNER)
    elif refusal == "secret":
        body = {**PROPOSAL, "text": "The GitHub token is ghp_1a2B3c4D5e6F7g8H9i0JkLmNoPqRsTuVwXyZ"}
    elif refusal == "venting":
        body = {**PROPOSAL, "text": "Ugh, the traffic was awful today."}
    else:
        lifecycle.reject([proposals.propose(**PROPOSAL, agent="bestie").id], actor=OWNER)
    before = store()
    status, answer = call("post", "/memories", body)
    assert status == 403
    assert (answer["id"], answer["status"], answer["flags"]) == (None, "refused", [])
    assert answer["reason"].startswith("not stored")
    assert "ghp_" not in answer["reason"]
    assert store()[:3] == before[:3]


@pytest.mark.parametrize(
    "change, field",
    [
        ({"text": None}, "text"),
        ({"kind": None}, "kind"),
        ({"source": None}, "source"),
        ({"source_kind": None}, "source_kind"),
        ({"text": ""}, "text"),
        ({"text": "x" * 2001}, "text"),
        ({"kind": "Bad Kind"}, "kind"),
        ({"source": "  "}, "source"),
        ({"source_kind": "rumour"}, "source_kind"),
        ({"scope": "galaxy"}, "scope"),
        ({"scope": "project"}, "project"),
        ({"confidence": 2}, "confidence"),
        ({"confidence": "very"}, "confidence"),
        ({"ttl_seconds": 0}, "ttl_seconds"),
        ({"ttl_seconds": "soon"}, "ttl_seconds"),
        ({"expires_at": "tomorrow"}, "expires_at"),
        ({"expires_at": "2030-01-01T09:00:00"}, "expires_at"),
        ({"ttl_seconds": 60, "expires_at": "2030-01-01T09:00:00Z"}, "expires_at"),
        ({"message_id": 424242}, "message_id"),
        ({"user": "u" * 101}, "user"),
        ({"colour": "blue"}, "colour"),
    ],
)
def test_every_validation_error_names_the_field_and_stores_nothing(call, change, field):
    body = {key: value for key, value in {**PROPOSAL, **change}.items() if value is not None}
    before = store()
    status, answer = call("post", "/memories", body)
    assert status == 422
    assert field in answer["detail"]
    assert field in [error["field"] for error in answer["errors"]]
    assert store()[:3] == before[:3]


@pytest.mark.parametrize("raw", ["{not json", "[1, 2]", ""])
def test_a_body_that_is_not_a_proposal_is_4xx(call, raw):
    before = store()
    status, answer = call("post", "/memories", raw=raw or "null")
    assert status in (400, 422)
    assert answer["detail"]
    assert store()[:3] == before[:3]


# ---------------------------------------------------------------------------------------------------
# POST /messages


def test_record_message_redacted(call):
    status, answer = call(
        "post", "/messages", {"role": "user", "text": "mk wifi là Hoa$Sen2024!", "channel": "telegram:1"}
    )
    message = Message.objects.get()
    assert (status, answer) == (201, {"id": message.pk})
    assert "Hoa$Sen2024" not in message.text and message.channel == "telegram:1"


@pytest.mark.parametrize(
    "body, field",
    [
        ({"text": "hi"}, "role"),
        ({"role": "system", "text": "hi"}, "role"),
        ({"role": "user"}, "text"),
        ({"role": "user", "text": "   "}, "text"),
        ({"role": "user", "text": "hi", "project": "p" * 101}, "project"),
    ],
)
def test_message_validation(call, body, field):
    status, answer = call("post", "/messages", body)
    assert status == 422 and field in answer["detail"]
    assert not Message.objects.exists()


def test_message_refused_while_paused(call):
    policies.pause(actor=OWNER)
    status, answer = call("post", "/messages", {"role": "user", "text": "hi"})
    assert status == 403 and "paused" in answer["detail"]
    assert not Message.objects.exists()


# ---------------------------------------------------------------------------------------------------
# GET /memories


@pytest.fixture
def trusted_token():
    """A token with every scope, for every user."""
    return agent_tokens.create_token("trusted", actor=OWNER, scopes=["propose", "recall", "read", "forget"])


def test_list_filters_search_and_pages(call, trusted_token):
    call = functools.partial(call, token=trusted_token)
    first = add_memory("Người dùng thích ăn phở ở Hà Nội.", layer="core")
    add_memory("User prefers pnpm.", layer="working")
    pending = proposals.propose(**PROPOSAL, agent="bestie")
    status, answer = call("get", "/memories")
    assert status == 200 and answer["total"] == 3 and len(answer["items"]) == 3
    assert call("get", "/memories?q=ha%20noi")[1]["items"][0]["id"] == first.pk
    assert [m["id"] for m in call("get", "/memories?status=pending")[1]["items"]] == [pending.id]
    assert call("get", "/memories?layer=core")[1]["total"] == 1
    assert call("get", "/memories?scope=project")[1]["total"] == 0
    page = call("get", "/memories?limit=1&offset=1")[1]
    assert page["total"] == 3 and len(page["items"]) == 1
    item = call("get", "/memories?q=pnpm&status=live")[1]["items"][0]
    assert item["text"] == "User prefers pnpm." and item["state"] == "live"
    assert item["superseded_by"] is None and item["flags"] == [] and item["created_at"].endswith("Z")


@pytest.mark.parametrize(
    "query, field",
    [
        ("limit=201", "limit"),
        ("limit=0", "limit"),
        ("offset=-1", "offset"),
        ("status=happy", "status"),
        ("layer=attic", "layer"),
        ("scope=galaxy", "scope"),
        ("limit=many", "limit"),
    ],
)
def test_list_validation(call, trusted_token, query, field):
    status, answer = call("get", f"/memories?{query}", token=trusted_token)
    assert status == 422 and field in answer["detail"]


# ---------------------------------------------------------------------------------------------------
# DELETE /memories/ID (the delete policy and deletion requests: tests/test_agent_access.py)


def test_forget_unknown_or_bad_id(call, trusted_token):
    assert call("delete", "/memories/999", token=trusted_token) == (404, {"detail": "no memory with id 999"})
    status, answer = call("delete", "/memories/abc", token=trusted_token)
    assert status == 422 and "memory_id" in answer["detail"]


# ---------------------------------------------------------------------------------------------------
# OpenAPI


def test_openapi_lists_every_path(call):
    status, schema = call("get", "/openapi.json")
    assert status == 200 and schema["openapi"].startswith("3.")
    assert "possible_update" in schema["components"]["schemas"]["ProposalOut"]["properties"]["flags"]["description"]
    assert {"/api/v1/memories", "/api/v1/messages", "/api/v1/memories/{memory_id}"} <= set(schema["paths"])
    assert set(schema["paths"]["/api/v1/memories"]) == {"get", "post"}
    assert schema["components"]["securitySchemes"]["AgentBearer"]["scheme"] == "bearer"


def test_openapi_for_the_logged_in_owner(console):
    assert console.get("/api/v1/openapi.json").status_code == 200


def test_session_cookie_does_not_authenticate_api_calls(console):
    response = console.post("/api/v1/memories", data=json.dumps(PROPOSAL), content_type="application/json")
    assert response.status_code == 401
    assert not Memory.objects.exists()
