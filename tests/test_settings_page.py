"""The settings page: the policies, pause and the agents' tokens."""

import json

import pytest

from memories import agent_tokens
from memories.models import AgentToken, AuditEvent, MemorySettings
from tests.console import ACTOR, text_of

pytestmark = pytest.mark.django_db


def test_settings_change_the_policies_and_pause_with_the_owner_as_actor(console):
    page = console.get("/settings/")
    assert 'name="write_policy"' in text_of(page)

    response = console.post(
        "/settings/policies/",
        {
            "write_policy": "allow",
            "delete_policy": "deny",
            "governance_policy": "full",
        },
    )
    assert response["Location"] == "/settings/"
    memory_settings = MemorySettings.load()
    assert (memory_settings.write_policy, memory_settings.delete_policy, memory_settings.governance_policy) == (
        "allow",
        "deny",
        "full",
    )
    assert AuditEvent.objects.filter(event="policy", actor=ACTOR).count() == 3

    console.post("/settings/pause/", {"action": "pause"})
    assert MemorySettings.load().paused is True
    console.post("/settings/pause/", {"action": "resume"})
    assert MemorySettings.load().paused is False


def test_invalid_policy_is_refused_and_changes_nothing(console):
    response = console.post(
        "/settings/policies/",
        {
            "write_policy": "yolo",
            "delete_policy": "deny",
            "governance_policy": "full",
        },
    )

    assert response.status_code == 200
    assert "Select a valid choice. yolo is not one of the available choices." in text_of(response)
    assert MemorySettings.load().delete_policy == "ask"
    assert not AuditEvent.objects.filter(event="policy").exists()


def test_agent_tokens_are_created_shown_once_listed_and_revoked(console):
    response = console.post(
        "/settings/tokens/",
        {"name": "laptop-agent", "scopes": ["propose", "read"], "users": "minh, lan", "expires": "90d"},
    )

    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    plaintext = text_of(response).split('<p class="token">')[1].split("</p>")[0]
    access = agent_tokens.authenticate(plaintext)
    assert (access.agent, access.scopes, access.users) == ("laptop-agent", {"propose", "read"}, {"lan", "minh"})
    assert AgentToken.objects.get().expires_at is not None
    later = text_of(console.get("/settings/"))
    assert "laptop-agent" in later and plaintext not in later and "propose, read" in later and "lan, minh" in later
    [event] = AuditEvent.objects.filter(event="token")
    assert event.actor == ACTOR and plaintext not in json.dumps(event.new)

    revoked = console.post("/settings/tokens/revoke/", {"name": "laptop-agent", "confirm": "yes"})
    assert revoked["Location"] == "/settings/"
    assert agent_tokens.authenticate(plaintext) is None
    assert "revoked" in text_of(console.get("/settings/"))


@pytest.mark.parametrize(
    "name, error",
    [
        ("Not OK", "must be 1-64 lower-case letters"),
        ("taken", "an active token named &#x27;taken&#x27; exists"),
    ],
)
def test_a_refused_token_name_says_why_and_creates_nothing(console, name, error):
    agent_tokens.create_token("taken", actor=ACTOR)

    response = console.post("/settings/tokens/", {"name": name, "scopes": ["propose"]})

    assert response.status_code == 200
    assert error in text_of(response)
    assert '<p class="token">' not in text_of(response)
    assert AgentToken.objects.count() == 1


def test_revoking_a_token_asks_for_a_confirmation_first(console):
    plaintext = agent_tokens.create_token("laptop-agent", actor=ACTOR)
    assert "Revoke…" in text_of(console.get("/settings/"))

    asked = console.post("/settings/tokens/revoke/", {"name": "laptop-agent"})
    page = text_of(asked)
    assert asked.status_code == 200 and "Revoke the token of laptop-agent?" in page
    assert 'name="confirm" value="yes"' in page and 'value="laptop-agent"' in page
    assert agent_tokens.authenticate(plaintext) is not None
    assert not AuditEvent.objects.filter(event="token", new__action="revoke").exists()

    console.post("/settings/tokens/revoke/", {"name": "laptop-agent", "confirm": "yes"})
    assert agent_tokens.authenticate(plaintext) is None


def test_revoking_an_unknown_token_says_so(console):
    page = console.post("/settings/tokens/revoke/", {"name": "ghost"}, follow=True)

    assert "no active token named &#x27;ghost&#x27;" in text_of(page)
