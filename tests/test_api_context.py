"""``POST /api/v1/context`` (SPEC §9): the same retrieval as everywhere, over HTTP with a bearer token."""

import json
from datetime import UTC, datetime

import pytest
import time_machine

from memories.lifecycle import policies
from memories.models import Layer, Memory
from tests.factories import OWNER, add_memory

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 5, 2, 9, 0, tzinfo=UTC)


@pytest.fixture
def ask(client, agent_token):
    """``ask(body, token=…)`` -> (status, JSON answer) of ``POST /api/v1/context``."""

    def ask(body, token=agent_token):
        headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
        response = client.post("/api/v1/context", data=json.dumps(body), content_type="application/json", **headers)
        return response.status_code, response.json()

    return ask


def statistics():
    return list(Memory.objects.order_by("pk").values_list("pk", "access_count", "last_accessed_at"))


def test_answers_with_the_prompt_items_and_near_misses(ask):
    with time_machine.travel(NOW, tick=False):
        core = add_memory("Replies in Vietnamese.", layer=Layer.CORE, pinned=True).pk
        shop = add_memory("Prefers pnpm for the shop.", user="lan").pk
        garden = add_memory("Prefers pnpm for the garden.", confidence=0.9).pk

    status, answer = ask({"query": "which package manager, pnpm?", "user": "lan", "limit": 1})

    assert status == 200
    assert answer["prompt"] == (
        "- Replies in Vietnamese (confirmed 2026-05-02)\n- Prefers pnpm for the shop (confirmed 2026-05-02)"
    )
    assert [item["id"] for item in answer["items"]] == [core, shop]
    item = answer["items"][1]
    assert set(item) == {"id", "text", "layer", "score", "signals", "confirmed_at"}
    assert item["confirmed_at"].startswith("2026-05-02T09:00:00")
    assert item["score"] == pytest.approx(sum(item["signals"].values()), abs=1e-3)
    assert answer["paused"] is False and answer["governance"] == "governed" and answer["tokens"] > 0
    assert [(miss["id"], miss["reason"]) for miss in answer["near_misses"]] == [(garden, "limit")]
    # What was injected counts as used, once; the near-miss does not.
    assert Memory.objects.get(pk=shop).access_count == 1
    assert Memory.objects.get(pk=core).access_count == 1
    assert Memory.objects.get(pk=garden).access_count == 0


def test_paused_memory_answers_an_empty_prompt(ask):
    add_memory("Prefers pnpm.")
    policies.pause(actor=OWNER)
    before = statistics()
    status, answer = ask({"query": "pnpm"})
    assert status == 200
    assert answer == {
        "prompt": "",
        "items": [],
        "tokens": 0,
        "paused": True,
        "governance": "governed",
        "meaning": "off",
        "near_misses": [],
    }
    assert statistics() == before


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        ({"user": "lan"}, "query", "Field required"),
        ({"query": "   "}, "query", "query: must not be empty"),
        ({"query": "x" * 2001}, "query", "at most 2000 characters"),
        ({"query": "pnpm", "budget_tokens": 0}, "budget_tokens", "greater than or equal to 1"),
        ({"query": "pnpm", "limit": "many"}, "limit", 'must be a JSON number, not "many"'),
        ({"query": "pnpm", "limit": "5"}, "limit", 'must be a JSON number, not "5"'),
        ({"query": "pnpm", "limit": True}, "limit", "must be a JSON number, not true"),
        ({"query": "pnpm", "limit": 10**18}, "limit", "less than or equal to 10000"),
        ({"query": "pnpm", "user": ["lan"]}, "user", "valid string"),
        ({"query": "pnpm", "colour": "red"}, "colour", "Extra inputs are not permitted"),
    ],
)
def test_bad_input_is_422_naming_the_field_and_changes_nothing(ask, body, field, message):
    add_memory("Prefers pnpm.")
    before = statistics()
    status, answer = ask(body)
    assert status == 422
    assert field in answer["detail"] and message in answer["detail"]
    assert statistics() == before


def test_a_body_that_is_not_json_is_400(client, agent_token):
    response = client.post(
        "/api/v1/context",
        data="query=pnpm",
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {agent_token}",
    )
    assert response.status_code == 400


def test_needs_a_valid_token(ask):
    add_memory("Prefers pnpm.")
    before = statistics()
    assert ask({"query": "pnpm"}, token=None)[0] == 401
    assert ask({"query": "pnpm"}, token="not-a-token")[0] == 401
    assert statistics() == before


def test_is_described_in_the_openapi_document(client, agent_token):
    document = client.get("/api/v1/openapi.json", HTTP_AUTHORIZATION=f"Bearer {agent_token}").json()
    operation = document["paths"]["/api/v1/context"]["post"]
    assert operation["summary"] == "The memory context for a request"
