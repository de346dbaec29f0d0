"""Bestie over MCP, driven by the official SDK's own client: over stdio (``bestie mcp`` as a real
subprocess) and over streamable HTTP (``/mcp/`` on the live server)."""

import asyncio
import concurrent.futures
import contextlib
import json
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import httpx2
import pytest
from django.db import connections
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

from memories import agent_tokens
from memories.lifecycle import policies
from memories.models import AuditEvent, DeletionRequest, Layer, Memory, Status
from tests.factories import add_memory, child_env

ROOT = Path(__file__).resolve().parent.parent
OWNER = "owner:test"
PNPM = {
    "text": "User uses pnpm for JavaScript projects",
    "kind": "preference",
    "subject": "package_manager",
    "source": "chat of 2026-12-01",
    "source_kind": "user_message",
}


def stdio(token):
    env = child_env()
    env.pop("BESTIE_TOKEN", None)
    if token is not None:
        env["BESTIE_TOKEN"] = token
    return Client(
        StdioServerParameters(command=sys.executable, args=[str(ROOT / "manage.py"), "mcp"], env=env, cwd=str(ROOT))
    )


def http(live_server, token):
    """A client of ``/mcp/`` with the token (the SDK leaves closing an HTTP client it was given to us)."""

    @contextlib.asynccontextmanager
    async def connect():
        headers = {"Authorization": f"Bearer {token}"}
        async with httpx2.AsyncClient(headers=headers) as http_client:
            async with Client(streamable_http_client(f"{live_server.url}/mcp/", http_client=http_client)) as client:
                yield client

    return connect()


def session(client, steps):
    """Run ``steps(client)`` (a coroutine function) in one connected session; the database is changed only
    from worker threads (``in_thread``), as Django wants outside the event loop."""

    async def run():
        async with client as connected:
            return await steps(connected)

    # A thread of its own: the browser tests' Playwright leaves an event loop running in this one.
    with concurrent.futures.ThreadPoolExecutor(1) as executor:
        return executor.submit(asyncio.run, run()).result()


async def in_thread(function, *args, **kwargs):
    """``function(*args, **kwargs)`` on a worker thread, its database connection closed after it."""

    def run():
        try:
            return function(*args, **kwargs)
        finally:
            connections.close_all()

    return await asyncio.to_thread(run)


def answer(result):
    assert not result.is_error, result.content
    return result.structured_content


def refusal(result):
    assert result.is_error
    return result.content[0].text


def _tools_and_policies(client):
    async def steps(c):
        listed = {tool.name: tool for tool in (await c.list_tools()).tools}
        stored = {}
        for policy in ("allow", "ask", "deny"):
            await in_thread(policies.set_write_policy, policy, actor=OWNER)
            stored[policy] = answer(await c.call_tool("remember", {**PNPM, "text": f"{PNPM['text']} ({policy})"}))
        await in_thread(policies.set_write_policy, "allow", actor=OWNER)
        secret = answer(
            await c.call_tool(
                "remember",
                {**PNPM, "text": "The deploy key is ghp_Zq8mW3xT6vB1nR4yK7pL2sD9fH5jC0aE3uGi"},
            )
        )
        recalled = answer(await c.call_tool("recall", {"query": "which package manager should I use for javascript?"}))
        without_scope = refusal(await c.call_tool("search", {"query": "pnpm"}))
        bad_ttl = refusal(await c.call_tool("remember", {**PNPM, "ttl": "forever"}))
        profile = (await c.read_resource("bestie://core-profile")).contents[0].text
        return listed, stored, secret, recalled, without_scope, bad_ttl, profile

    return session(client, steps)


def _check_tools_and_policies(found):
    listed, stored, secret, recalled, without_scope, bad_ttl, profile = found
    assert set(listed) == {"remember", "recall", "search", "forget"}
    assert listed["recall"].annotations.read_only_hint and listed["search"].annotations.read_only_hint
    assert listed["forget"].annotations.destructive_hint
    assert listed["remember"].annotations.destructive_hint is False
    assert "secrets" in listed["remember"].description

    assert stored["allow"]["status"] == "approved"
    assert stored["ask"]["status"] == "pending"
    assert stored["deny"]["status"] == "refused" and "deny" in stored["deny"]["reason"]
    approved = Memory.objects.get(pk=stored["allow"]["id"])
    assert (approved.status, approved.source_kind) == (Status.APPROVED, "user_message")
    assert Memory.objects.get(pk=stored["ask"]["id"]).status == Status.PENDING
    assert AuditEvent.objects.filter(memory_id=approved.pk, actor="agent:bestie").exists()

    assert secret["status"] == "refused" and "secret" in secret["reason"]
    assert not Memory.objects.filter(text__contains="ghp_").exists()

    assert [item["id"] for item in recalled["items"] if item["layer"] == "working"] == [approved.pk]
    assert f"- {approved.text}" in recalled["prompt"]
    assert "may not" in without_scope and "read" in without_scope
    assert "ttl" in bad_ttl
    assert "Người dùng xưng hô anh" in profile


@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_an_assistant_remembers_and_recalls_under_the_owners_policies(transport, transactional_db, request):
    add_memory("Người dùng xưng hô anh", kind="communication_preference", subject="address", layer=Layer.CORE)
    token = agent_tokens.create_token("bestie", actor=OWNER)
    client = stdio(token) if transport == "stdio" else http(request.getfixturevalue("live_server"), token)
    _check_tools_and_policies(_tools_and_policies(client))


@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_search_and_forget_need_their_scopes_and_follow_the_delete_policy(transport, transactional_db, request):
    kept = add_memory("User lives in Da Nang", kind="fact", subject="home")
    pinned = add_memory("User is allergic to peanuts", kind="fact", subject="health", pinned=True)
    token = agent_tokens.create_token("janitor", actor=OWNER, scopes=["read", "forget"])
    client = stdio(token) if transport == "stdio" else http(request.getfixturevalue("live_server"), token)

    async def steps(c):
        found = answer(await c.call_tool("search", {"query": "da nang"}))
        asked = answer(await c.call_tool("forget", {"memory_id": kept.pk, "reason": "user moved"}))
        never = refusal(await c.call_tool("forget", {"memory_id": pinned.pk}))
        missing = refusal(await c.call_tool("forget", {"memory_id": 2**62}))
        no_propose = refusal(await c.call_tool("remember", PNPM))
        return found, asked, never, missing, no_propose

    found, asked, never, missing, no_propose = session(client, steps)
    assert [item["id"] for item in found["items"]] == [kept.pk] and found["total"] == 1
    assert found["items"][0]["state"] == "live"
    assert asked["status"] == "requested"
    request_ = DeletionRequest.objects.get(pk=asked["request_id"])
    assert (request_.memory_id, request_.agent, request_.reason) == (kept.pk, "janitor", "user moved")
    assert Memory.objects.filter(pk=kept.pk).exists()
    assert "pinned" in never and Memory.objects.filter(pk=pinned.pk).exists()
    assert "no memory" in missing
    assert "may not" in no_propose


def test_forget_erases_under_delete_policy_allow_over_stdio(transactional_db):
    gone = add_memory("User works at Acme", kind="fact", subject="work")
    policies.set_delete_policy("allow", actor=OWNER)
    token = agent_tokens.create_token("janitor", actor=OWNER, scopes=["forget"])

    async def steps(c):
        return answer(await c.call_tool("forget", {"memory_id": gone.pk}))

    assert session(stdio(token), steps)["status"] == "erased"
    assert not Memory.objects.filter(pk=gone.pk).exists()


def test_a_token_bound_to_a_user_recalls_only_theirs(transactional_db, live_server):
    add_memory("Lan prefers tea", kind="preference", subject="drink", user="lan")
    add_memory("Minh prefers coffee", kind="preference", subject="drink", user="minh")
    token = agent_tokens.create_token("lan-bot", actor=OWNER, users=["lan"])

    async def steps(c):
        mine = answer(await c.call_tool("recall", {"query": "what does she like to drink, tea or coffee?"}))
        other = refusal(await c.call_tool("recall", {"query": "coffee", "user": "minh"}))
        return mine, other

    mine, other = session(http(live_server, token), steps)
    assert [item["text"] for item in mine["items"]] == ["Lan prefers tea"]
    assert "acts only for lan" in other


def _post(url, headers):
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}).encode()
    request = urllib.request.Request(
        url, data=body, method="POST", headers={"Content-Type": "application/json", **headers}
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def test_http_without_a_valid_token_is_401_and_runs_nothing(transactional_db, live_server):
    url = f"{live_server.url}/mcp/"
    revoked = agent_tokens.create_token("old", actor=OWNER)
    agent_tokens.revoke_token("old", actor=OWNER)
    for headers in ({}, {"Authorization": "Bearer bst_not-a-token"}, {"Authorization": f"Bearer {revoked}"}):
        status, response_headers, body = _post(url, headers)
        assert status == 401
        assert response_headers["WWW-Authenticate"] == "Bearer"
        assert "agent token" in json.loads(body)["detail"]


def test_stdio_refuses_to_start_without_a_valid_token(transactional_db):
    for token in (None, "bst_not-a-token"):
        env = child_env()
        env.pop("BESTIE_TOKEN", None)
        if token:
            env["BESTIE_TOKEN"] = token
        done = subprocess.run(
            [sys.executable, str(ROOT / "manage.py"), "mcp"],
            env=env,
            cwd=ROOT,
            input="",
            capture_output=True,
            encoding="utf-8",
            timeout=120,
        )
        assert done.returncode == 1 and done.stdout == ""
        assert "BESTIE_TOKEN" in done.stderr and "Traceback" not in done.stderr


def test_a_revoked_token_stops_a_running_stdio_server(transactional_db):
    token = agent_tokens.create_token("bestie", actor=OWNER)

    async def steps(c):
        before = await c.call_tool("recall", {"query": "anything"})
        await in_thread(agent_tokens.revoke_token, "bestie", actor=OWNER)
        after = await c.call_tool("recall", {"query": "anything"})
        return before, after

    before, after = session(stdio(token), steps)
    assert not before.is_error
    assert "not valid" in refusal(after)


def _send(url, method, body, headers):
    request = urllib.request.Request(url, data=body, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def test_http_answers_what_is_not_mcp_with_a_clear_error(transactional_db, live_server, settings):
    url = f"{live_server.url}/mcp/"
    auth = {"Authorization": f"Bearer {agent_tokens.create_token('bestie', actor=OWNER)}"}
    as_json = {**auth, "Content-Type": "application/json", "Accept": "application/json, text/event-stream"}

    status, headers, body = _send(url, "GET", None, {**auth, "Accept": "text/event-stream"})
    assert (status, headers["Allow"]) == (405, "POST")  # at once: no stream is held open
    status, _, body = _send(url, "POST", b"{not json", as_json)
    assert status == 400 and json.loads(body)["error"]["code"] == -32700
    status, _, body = _send(url, "POST", b"[]", as_json)
    assert status == 400 and "error" in json.loads(body)
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    status, _, body = _send(url, "POST", b" " * 2000, as_json)
    assert status == 413 and json.loads(body) == {"detail": "the body is too large"}
