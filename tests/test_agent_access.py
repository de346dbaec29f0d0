"""What an agent's token lets it do (SPEC §9): scopes, users, expiry, and asking to erase a memory, which
follows the owner's delete policy; the owner's answer to a deletion request in the console and the CLI."""

import json
from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from governance import digest
from memories import agent_tokens, lifecycle
from memories.lifecycle import deletions, policies
from memories.models import AuditEvent, DeletionRequest, Memory, Message
from tests.cli import memory, memory_json, refused
from tests.factories import OWNER, add_memory

pytestmark = pytest.mark.django_db

ALL_SCOPES = ["propose", "recall", "read", "forget"]
PROPOSAL = {
    "text": "User prefers pnpm over npm.",
    "kind": "preference",
    "source": "telegram message 42",
    "source_kind": "user_message",
}


@pytest.fixture
def api(client):
    """``api(method, path, token, body=None)`` -> (status, JSON answer)."""

    def call(method, path, token, body=None):
        kwargs = {"data": json.dumps(body), "content_type": "application/json"} if body is not None else {}
        response = getattr(client, method)(f"/api/v1{path}", HTTP_AUTHORIZATION=f"Bearer {token}", **kwargs)
        return response.status_code, response.json()

    return call


def token(scopes=ALL_SCOPES, users=(), name="agent", **kwargs):
    return agent_tokens.create_token(name, actor=OWNER, scopes=scopes, users=users, **kwargs)


def everything():
    return (
        list(Memory.objects.order_by("pk").values()),
        list(AuditEvent.objects.order_by("pk").values()),
        list(DeletionRequest.objects.order_by("pk").values()),
        list(Message.objects.order_by("pk").values()),
    )


# ---------------------------------------------------------------------------------------------------
# Scopes


def test_a_new_token_may_propose_and_recall_but_not_read_or_forget(api, agent_token):
    kept = add_memory("User prefers concise replies.")
    assert api("post", "/memories", agent_token, PROPOSAL)[0] == 201
    assert api("post", "/messages", agent_token, {"role": "user", "text": "hi"})[0] == 201
    assert api("post", "/context", agent_token, {"query": "concise replies"})[0] == 200
    before = everything()
    status, answer = api("get", "/memories", agent_token)
    assert (
        status == 403 and "may not list and search memories" in answer["detail"] and "--scopes read" in answer["detail"]
    )
    status, answer = api("delete", f"/memories/{kept.pk}", agent_token)
    assert status == 403 and "may not ask to erase memories" in answer["detail"]
    assert everything() == before


@pytest.mark.parametrize(
    "scope, method, path, body",
    [
        ("propose", "post", "/memories", PROPOSAL),
        ("propose", "post", "/messages", {"role": "user", "text": "hi"}),
        ("recall", "post", "/context", {"query": "pnpm"}),
        ("read", "get", "/memories", None),
    ],
)
def test_each_call_needs_its_scope(api, scope, method, path, body):
    without = token([s for s in ALL_SCOPES if s != scope])
    before = everything()
    status, answer = api(method, path, without, body)
    assert status == 403 and f"--scopes {scope}" in answer["detail"]
    assert everything() == before


def test_scopes_are_checked_whatever_the_token_may_do_otherwise(api):
    reader = token(["read"])
    assert api("get", "/memories", reader)[0] == 200
    assert api("post", "/memories", reader, PROPOSAL)[0] == 403 and not Memory.objects.exists()


# ---------------------------------------------------------------------------------------------------
# Users


def test_a_token_bound_to_users_sees_and_writes_only_theirs(api):
    minh = add_memory("Minh prefers tea.", user="minh")
    lan = add_memory("Lan prefers coffee.", user="lan")
    everyone = add_memory("The household uses Linux.")
    bound = token(users=["minh"])
    status, answer = api("get", "/memories", bound)
    assert status == 200 and sorted(item["id"] for item in answer["items"]) == [minh.pk, everyone.pk]
    assert api("get", "/memories?q=coffee", bound)[1]["total"] == 0

    status, answer = api("post", "/memories", bound, {**PROPOSAL, "user": "lan"})
    assert status == 403 and "acts only for minh" in answer["detail"]
    status, answer = api("post", "/memories", bound, PROPOSAL)  # no user given: the one it is bound to
    assert status == 201 and Memory.objects.get(pk=answer["id"]).user == "minh"
    assert api("post", "/messages", bound, {"role": "user", "text": "hi", "user": "lan"})[0] == 403

    policies.set_delete_policy("allow", actor=OWNER)
    assert api("delete", f"/memories/{lan.pk}", bound) == (404, {"detail": f"no memory with id {lan.pk}"})
    assert api("delete", f"/memories/{everyone.pk}", bound)[0] == 404
    assert Memory.objects.filter(pk__in=[lan.pk, everyone.pk]).count() == 2


def test_a_bound_token_recalls_nothing_of_another_user_even_under_full_governance(api):
    policies.set_governance_policy("full", actor=OWNER)
    add_memory("Lan prefers oolong tea.", user="lan")
    minh = add_memory("Minh prefers green tea.", user="minh")
    status, answer = api("post", "/context", token(users=["minh"]), {"query": "which tea", "user": "minh"})
    assert status == 200 and [item["id"] for item in answer["items"]] == [minh.pk]
    assert api("post", "/context", token(users=["minh"], name="other"), {"query": "tea", "user": "lan"})[0] == 403


def test_a_token_bound_to_several_users_must_say_which(api):
    bound = token(users=["minh", "lan"])
    status, answer = api("post", "/memories", bound, PROPOSAL)
    assert status == 403 and "acts only for lan, minh, not for ''" in answer["detail"]
    assert api("post", "/memories", bound, {**PROPOSAL, "user": "lan"})[0] == 201


# ---------------------------------------------------------------------------------------------------
# Expiry


def test_an_expired_token_opens_nothing(api):
    with time_machine.travel("2026-05-01 09:00:00Z", tick=False) as clock:
        plaintext = token(expires_in=timedelta(days=90))
        assert api("get", "/memories", plaintext)[0] == 200
        clock.move_to("2026-07-30 09:00:00Z")
        status, answer = api("get", "/memories", plaintext)
        assert status == 401 and "valid agent token" in answer["detail"]


@pytest.mark.parametrize(
    "kwargs, field",
    [
        ({"scopes": ["write"]}, "scopes"),
        ({"scopes": []}, "scopes"),
        ({"users": [""]}, "user"),
        ({"users": ["x" * 101]}, "user"),
        ({"expires_in": timedelta(0)}, "expires"),
        ({"expires_in": timedelta(days=40_000)}, "expires"),
    ],
)
def test_bad_scopes_users_or_expiry_make_no_token(kwargs, field):
    with pytest.raises(lifecycle.InvalidValue) as error:
        agent_tokens.create_token("agent", actor=OWNER, **kwargs)
    assert error.value.field == field
    assert not AuditEvent.objects.exists()


# ---------------------------------------------------------------------------------------------------
# Asking to erase a memory follows the delete policy


def test_under_delete_allow_the_agent_erases(api):
    memory_ = add_memory("User lives in Hà Nội.")
    policies.set_delete_policy("allow", actor=OWNER)
    status, answer = api("delete", f"/memories/{memory_.pk}", token())
    assert status == 200 and answer["status"] == "erased" and answer["erased"] == [memory_.pk]
    assert not Memory.objects.exists()
    assert AuditEvent.objects.get(event="forget").actor == "agent:agent"


def test_under_delete_ask_the_agent_queues_a_deletion_request(api):
    memory_ = add_memory("User lives in Hà Nội.")
    agent = token()
    status, answer = api("delete", f"/memories/{memory_.pk}?reason=the%20user%20moved", agent)
    request = DeletionRequest.objects.get()
    assert status == 202 and answer == {
        "status": "requested",
        "erased": [],
        "request_id": request.pk,
        "reason": "queued for the owner's review: the delete policy is ask",
    }
    assert (request.memory_id, request.agent, request.reason, request.status) == (
        memory_.pk,
        "agent",
        "the user moved",
        "pending",
    )
    assert Memory.objects.get(pk=memory_.pk).is_live()
    assert AuditEvent.objects.filter(event="request_forget", actor="agent:agent").count() == 1
    # Asking again is the same request.
    assert api("delete", f"/memories/{memory_.pk}", agent)[1]["request_id"] == request.pk
    assert DeletionRequest.objects.count() == 1


def test_under_delete_deny_the_agent_is_refused(api):
    memory_ = add_memory("User lives in Hà Nội.")
    policies.set_delete_policy("deny", actor=OWNER)
    agent = token()
    before = everything()
    status, answer = api("delete", f"/memories/{memory_.pk}", agent)
    assert status == 403 and "delete policy is deny" in answer["detail"]
    assert everything() == before


@pytest.mark.parametrize("policy", ["allow", "ask", "deny"])
def test_a_pinned_memory_is_never_erased_by_an_agent(api, policy):
    pinned = add_memory("User's name is Minh.", pinned=True)
    policies.set_delete_policy(policy, actor=OWNER)
    agent = token()
    before = everything()
    status, answer = api("delete", f"/memories/{pinned.pk}", agent)
    assert status == 403 and "pinned: an agent never erases it" in answer["detail"]
    assert everything() == before


def test_a_secret_in_the_reason_is_refused(api):
    memory_ = add_memory("User lives in Hà Nội.")
    agent = token()
    before = everything()
    status, answer = api("delete", f"/memories/{memory_.pk}?reason=password%20is%20hunter2hunter2", agent)
    assert status == 403 and "reason" in answer["detail"] and "hunter2" not in answer["detail"]
    assert everything() == before


# ---------------------------------------------------------------------------------------------------
# The owner's answer


@pytest.fixture
def asked(api):
    """Two memories agents asked to erase under the default delete policy, ask."""
    agent = token()
    first, second = add_memory("User lives in Hà Nội."), add_memory("User's sister is Lan.")
    old = add_memory("User lived in Huế.")
    lifecycle.supersede(old.pk, first.pk, actor=OWNER)
    for memory_ in (first, second):
        api("delete", f"/memories/{memory_.pk}?reason=outdated", agent)
    return agent, first, second, old


def test_the_owner_approves_and_the_memories_are_forgotten(asked):
    _, first, second, old = asked
    requests = list(DeletionRequest.objects.values_list("pk", flat=True))
    assert sorted(deletions.approve(requests, actor=OWNER)) == sorted([first.pk, second.pk, old.pk])
    assert not Memory.objects.exists() and not DeletionRequest.objects.exists()
    forgets = AuditEvent.objects.filter(event="forget", actor=OWNER, memory_id=first.pk)
    assert forgets.get().note.startswith("deletion request")
    assert not AuditEvent.objects.filter(note__contains="outdated").exists()


def test_the_owner_rejects_and_the_agent_may_not_ask_again(api, asked):
    agent, first, second, _ = asked
    request = DeletionRequest.objects.get(memory=first)
    assert deletions.reject([request.pk], actor=OWNER) == 1
    assert Memory.objects.get(pk=first.pk).is_live()
    assert AuditEvent.objects.get(event="keep", memory_id=first.pk).actor == OWNER
    status, answer = api("delete", f"/memories/{first.pk}", agent)
    assert status == 403 and "the owner kept memory" in answer["detail"]
    with pytest.raises(lifecycle.LifecycleError, match="not pending: deletion request"):
        deletions.approve([request.pk, DeletionRequest.objects.get(memory=second).pk], actor=OWNER)
    assert Memory.objects.filter(pk=second.pk).exists()  # all or none


def test_approving_under_delete_deny_is_refused(asked):
    policies.set_delete_policy("deny", actor=OWNER)
    before = everything()
    with pytest.raises(lifecycle.Refused, match="delete policy is deny"):
        deletions.approve(list(DeletionRequest.objects.values_list("pk", flat=True)), actor=OWNER)
    assert everything() == before


def test_the_console_lists_requests_and_forgets_after_a_confirmation(console, asked):
    _, first, second, _ = asked
    page = console.get("/pending/").content.decode()
    assert "2 deletion requests" in page and "User lives in Hà Nội." in page and "outdated" in page
    assert "Deletion requests" in console.get("/").content.decode()
    request = DeletionRequest.objects.get(memory=first)
    confirm = console.post("/pending/deletions/", {"ids": [request.pk], "action": "approve"})
    assert confirm.status_code == 200 and "Yes, forget them" in confirm.content.decode()
    assert Memory.objects.filter(pk=first.pk).exists()
    done = console.post(
        "/pending/deletions/", {"ids": [request.pk], "action": "approve", "confirm": "yes"}, follow=True
    )
    assert "Forgot 2 memories." in done.content.decode()
    assert not Memory.objects.filter(pk=first.pk).exists()
    keep = DeletionRequest.objects.get(memory=second)
    kept = console.post("/pending/deletions/", {"ids": [keep.pk], "action": "reject"}, follow=True)
    assert "Kept 1 memory." in kept.content.decode() and Memory.objects.filter(pk=second.pk).exists()


def test_the_cli_lists_approves_and_rejects_requests(asked):
    _, first, second, _ = asked
    listed = memory_json("deletions")
    assert [(row["memory_id"], row["agent"], row["reason"]) for row in listed] == [
        (first.pk, "agent", "outdated"),
        (second.pk, "agent", "outdated"),
    ]
    assert "kept the memories of 1 request" in memory("deletions", "reject", str(listed[1]["id"]))
    assert f"forgot memory #{first.pk}" in memory("deletions", "approve", str(listed[0]["id"]))
    assert "not pending: deletion request" in refused("deletions", "approve", str(listed[1]["id"]))
    assert "no deletion requests" in memory("deletions")


def test_the_digest_lists_the_requests(asked):
    _, first, _, _ = asked
    report = digest.build(timezone.now() - timedelta(days=7))
    assert report.deletion_count == 2 and report.deletions[0].memory_id == first.pk
    assert "Deletion requests: 2" in report.text
