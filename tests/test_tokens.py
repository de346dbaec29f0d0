"""Agent tokens: made once, hashed at rest, revoked for good; and `bestie token`."""

import hashlib
import io
import json

import pytest
import time_machine
from django.core.management import call_command
from django.core.management.base import CommandError

from memories import agent_tokens
from memories.lifecycle import InvalidValue, NotFound
from memories.models import AgentToken, AuditEvent

pytestmark = pytest.mark.django_db


def token_command(*args):
    out = io.StringIO()
    call_command("token", *args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def test_token_is_hashed_at_rest_and_authenticates():
    plaintext = agent_tokens.create_token("bestie", actor="owner:test")
    token = AgentToken.objects.get()
    assert token.token_sha256 == hashlib.sha256(plaintext.encode()).hexdigest()
    assert plaintext not in str(list(AgentToken.objects.values())) + str(list(AuditEvent.objects.values()))
    assert agent_tokens.authenticate(plaintext) == agent_tokens.Access(
        agent="bestie", scopes=frozenset({"propose", "recall"}), users=frozenset()
    )
    event = AuditEvent.objects.get(event="token")
    assert (event.actor, event.new) == (
        "owner:test",
        {"token": "bestie", "action": "create", "scopes": ["propose", "recall"], "users": [], "expires_at": None},
    )


@pytest.mark.parametrize("guess", ["", "bst_", "bst_wrong", "Bearer x", None])
def test_wrong_tokens_do_not_authenticate(guess):
    agent_tokens.create_token("bestie", actor="owner:test")
    assert agent_tokens.authenticate(guess) is None


def test_revoked_token_does_not_authenticate_and_frees_the_name():
    plaintext = agent_tokens.create_token("bestie", actor="owner:test")
    revoked = agent_tokens.revoke_token("bestie", actor="owner:test")
    assert revoked.revoked_at is not None
    assert agent_tokens.authenticate(plaintext) is None
    second = agent_tokens.create_token("bestie", actor="owner:test")
    assert agent_tokens.authenticate(second).agent == "bestie"
    assert [t.revoked_at is None for t in agent_tokens.list_tokens()] == [False, True]


@pytest.mark.parametrize("name", ["", "Bestie", "has space", "-dash", "x" * 65, "tên"])
def test_bad_names_are_refused(name):
    with pytest.raises(InvalidValue) as error:
        agent_tokens.create_token(name, actor="owner:test")
    assert error.value.field == "name"
    assert not AgentToken.objects.exists() and not AuditEvent.objects.exists()


def test_active_name_is_unique():
    agent_tokens.create_token("bestie", actor="owner:test")
    with pytest.raises(InvalidValue, match="active token named 'bestie'"):
        agent_tokens.create_token("bestie", actor="owner:test")
    assert AgentToken.objects.count() == 1 and AuditEvent.objects.count() == 1


def test_revoking_an_unknown_token_names_it():
    with pytest.raises(NotFound, match="no active token named 'ghost'"):
        agent_tokens.revoke_token("ghost", actor="owner:test")


def test_last_used_is_written_at_most_once_a_minute():
    with time_machine.travel("2026-05-01 09:00:00Z", tick=False) as clock:
        plaintext = agent_tokens.create_token("bestie", actor="owner:test")
        agent_tokens.authenticate(plaintext)
        first = AgentToken.objects.get().last_used_at
        clock.move_to("2026-05-01 09:00:59Z")
        agent_tokens.authenticate(plaintext)
        assert AgentToken.objects.get().last_used_at == first
        clock.move_to("2026-05-01 09:01:00Z")
        agent_tokens.authenticate(plaintext)
        assert AgentToken.objects.get().last_used_at > first


def test_cli_create_prints_the_token_last():
    out = token_command("create", "laptop-agent")
    last = out.strip().splitlines()[-1]
    assert agent_tokens.authenticate(last).agent == "laptop-agent"


def test_cli_create_with_scopes_users_and_expiry_and_list_them():
    with time_machine.travel("2026-05-01 09:00:00Z", tick=False):
        out = token_command("create", "reader", "--scopes", "read,recall", "--user", "minh", "--expires", "90d")
        assert "scopes recall,read; for minh; expires 2026-07-30T09:00:00Z" in out
        [listed] = json.loads(token_command("list", "--json"))
        assert (listed["scopes"], listed["users"], listed["expires_at"], listed["state"]) == (
            ["recall", "read"],
            ["minh"],
            "2026-07-30T09:00:00Z",
            "active",
        )
        assert "recall,read" in token_command("list") and "for minh" in token_command("list")
    with time_machine.travel("2026-08-01 09:00:00Z", tick=False):
        assert json.loads(token_command("list", "--json"))[0]["state"] == "expired"


@pytest.mark.parametrize(
    "args, error",
    [
        (["--scopes", "read,write"], "scopes: give one or more of propose, recall, read, forget, not 'write'"),
        (["--expires", "0d"], "TTL must be a positive number"),
        (["--expires", "99999999999d"], "TTL must be at most 36500 days"),
    ],
)
def test_cli_create_refuses_bad_options(args, error):
    with pytest.raises((CommandError, SystemExit)):
        token_command("create", "agent", *args)
    assert not AgentToken.objects.exists()


def test_cli_list_and_revoke():
    token_command("create", "bestie")
    listed = json.loads(token_command("list", "--json"))
    assert [(t["name"], t["state"], t["last_used_at"]) for t in listed] == [("bestie", "active", None)]
    assert "bst_" not in token_command("list")
    assert "revoked" in token_command("revoke", "bestie")
    assert json.loads(token_command("list", "--json"))[0]["state"] == "revoked"


def test_cli_errors_change_nothing():
    with pytest.raises(CommandError, match="no active token named 'ghost'"):
        token_command("revoke", "ghost")
    with pytest.raises(CommandError, match="name: must be"):
        token_command("create", "Not Valid")
    assert not AgentToken.objects.exists()


def test_admin_lists_tokens_without_their_hash(admin_client):
    plaintext = agent_tokens.create_token("bestie", actor="owner:test")
    token = AgentToken.objects.get()
    listing = admin_client.get("/admin/memories/agenttoken/").content.decode()
    detail = admin_client.get(f"/admin/memories/agenttoken/{token.pk}/change/").content.decode()
    assert "bestie" in listing
    for page in (listing, detail):
        assert token.token_sha256 not in page and plaintext not in page
