"""``recall`` over MCP next to the same request to ``POST /api/v1/context``, on the same store in the same run.

    .venv/bin/python bench/mcp_figures.py --size 100000            # SQLite file under var/
    .venv/bin/python bench/mcp_figures.py --size 100000 --database-url postgres://postgres@127.0.0.1:5432/bench

Three clients ask the same questions (context_figures.py's), interleaved query by query, each after a
warm-up round:
- the REST baseline: one keep-alive HTTP connection to a real gunicorn (as ``bestie serve`` runs it),
  ``POST /api/v1/context``;
- MCP over streamable HTTP: the official SDK's client calling the ``recall`` tool at ``/mcp/`` on the same
  gunicorn;
- MCP over stdio: the SDK's client with ``bestie mcp`` as its subprocess;
- MCP's ``tools/call`` as a plain JSON-RPC POST on the REST baseline's connection: the server's cost
  alone, since the SDK's client also checks every structured answer against the tool's output schema
  (jsonschema, in the client's process: most of its time for a context of a hundred items).
Times are the client's round trips in milliseconds (median and p95). The store is generated first unless
it exists (a SQLite file, or a PostgreSQL database with memories; ``--regenerate`` makes it anew).
"""

import argparse
import asyncio
import http.client
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from context_figures import QUERIES, percentile  # noqa: E402
from propose_figures import free_port, start_server  # noqa: E402

REQUEST = {"user": "owner", "project": "bestie", "channel": "cli"}


def summary(times):
    return {
        "requests": len(times),
        "median_ms": round(statistics.median(times), 2),
        "p95_ms": round(percentile(times, 0.95), 2),
    }


async def measure(port, token, env, rounds):
    import httpx2
    from mcp import Client, StdioServerParameters
    from mcp.client.streamable_http import streamable_http_client

    rest = http.client.HTTPConnection("127.0.0.1", port)
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}

    def rest_recall(query):
        rest.request("POST", "/api/v1/context", json.dumps({"query": query, **REQUEST}), headers)
        response = rest.getresponse()
        body = response.read()
        if response.status != 200:
            raise SystemExit(f"the API answered {response.status}: {body[:300]!r}")

    call_id = iter(range(1, 10**9))

    def jsonrpc_recall(query):
        body = {
            "jsonrpc": "2.0",
            "id": next(call_id),
            "method": "tools/call",
            "params": {"name": "recall", "arguments": {"query": query, **REQUEST}},
        }
        rest.request("POST", "/mcp/", json.dumps(body), {**headers, "Accept": "application/json, text/event-stream"})
        response = rest.getresponse()
        answer = json.loads(response.read())
        if response.status != 200 or "error" in answer or answer["result"].get("isError"):
            raise SystemExit(f"tools/call failed: {response.status} {str(answer)[:300]}")

    times = {"rest_context": [], "mcp_jsonrpc_recall": [], "mcp_http_recall": [], "mcp_stdio_recall": []}
    stdio = StdioServerParameters(
        command=sys.executable, args=[str(ROOT / "manage.py"), "mcp"], env={**env, "BESTIE_TOKEN": token}, cwd=str(ROOT)
    )
    async with (
        httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}) as http_client,
        Client(streamable_http_client(f"http://127.0.0.1:{port}/mcp/", http_client=http_client)) as over_http,
        Client(stdio) as over_stdio,
    ):

        async def mcp_recall(client, query):
            result = await client.call_tool("recall", {"query": query, **REQUEST})
            if result.is_error:
                raise SystemExit(f"recall failed: {result.content}")

        for round_number in range(rounds + 1):  # the first round warms every path up
            for query in QUERIES:
                for name, call in (
                    ("rest_context", lambda q: asyncio.to_thread(rest_recall, q)),
                    ("mcp_jsonrpc_recall", lambda q: asyncio.to_thread(jsonrpc_recall, q)),
                    ("mcp_http_recall", lambda q: mcp_recall(over_http, q)),
                    ("mcp_stdio_recall", lambda q: mcp_recall(over_stdio, q)),
                ):
                    started = time.perf_counter()
                    await call(query)
                    if round_number:
                        times[name].append((time.perf_counter() - started) * 1000)
    rest.close()
    return times


def _empty(database_url):
    """Whether the PostgreSQL store at ``database_url`` has no memories yet (or no tables)."""
    if not database_url:
        return False
    import psycopg

    try:
        with psycopg.connect(database_url) as connection:
            return connection.execute("SELECT count(*) FROM memory").fetchone()[0] == 0
    except psycopg.Error:
        return True


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--db", help="SQLite file (default var/bench-SIZE.sqlite3)")
    parser.add_argument("--database-url", help="a postgres:// URL instead of SQLite")
    parser.add_argument("--regenerate", action="store_true", help="make the store anew even if it exists")
    parser.add_argument("--rounds", type=int, default=5, help="rounds of the questions after the warm-up")
    args = parser.parse_args()
    args.db = args.db or str(ROOT / "var" / f"bench-{args.size}.sqlite3")
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="bestie_site.settings")
    if args.database_url:
        env["DATABASE_URL"] = args.database_url
    else:
        env.pop("DATABASE_URL", None)
        env["BESTIE_DB_PATH"] = str(Path(args.db).resolve())
    os.environ.clear()
    os.environ.update(env)
    if args.regenerate or (not args.database_url and not Path(args.db).exists()) or _empty(args.database_url):
        target = ["--database-url", args.database_url] if args.database_url else ["--db", args.db]
        subprocess.run(
            [sys.executable, str(ROOT / "bench" / "generate.py"), "--size", str(args.size), *target], check=True
        )

    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from memories import agent_tokens
    from memories.models import Memory

    call_command("migrate", verbosity=0)
    token = agent_tokens.create_token(f"bench-mcp-{time.time_ns()}", actor="owner:bench")
    results = {"engine": connection.vendor, "live_memories": Memory.objects.live().count()}
    connection.close()

    port = free_port()
    server = start_server(env, port)
    try:
        times = asyncio.run(measure(port, token, env, args.rounds))
    finally:
        server.terminate()
        server.wait(timeout=15)
    for name, values in times.items():
        results[name] = summary(values)
    baseline = results["rest_context"]["median_ms"]
    for name in ("mcp_jsonrpc_recall", "mcp_http_recall", "mcp_stdio_recall"):
        results[name]["median_vs_rest"] = round(results[name]["median_ms"] / baseline, 2)
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
