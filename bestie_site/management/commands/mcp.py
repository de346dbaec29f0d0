"""``bestie mcp`` (``python manage.py mcp``): Bestie's memory as an MCP server over stdio, for an assistant
that starts it as a local process. The agent token comes from ``BESTIE_TOKEN``; it is checked again on
every call, so revoking it stops the server's tools at once."""

import os

import anyio
from django.core.management.base import BaseCommand, CommandError

from memories import agent_tokens, mcp_server


class Command(BaseCommand):
    help = (
        "Serve Bestie's memory over MCP on stdin/stdout, with the agent token in BESTIE_TOKEN "
        "(bestie token create NAME). Assistants start it themselves; see the README for their configuration."
    )
    # stdout carries the protocol alone, and the system checks would cost every start half a second.
    requires_system_checks = []

    def handle(self, *args, **options):
        plaintext = os.environ.get("BESTIE_TOKEN", "").strip()
        if not plaintext:
            raise CommandError("BESTIE_TOKEN is not set: give the server an agent token (bestie token create NAME)")
        if agent_tokens.authenticate(plaintext) is None:
            raise CommandError("BESTIE_TOKEN is not a valid agent token: it is unknown, revoked or expired")
        with mcp_server.serving(lambda: agent_tokens.authenticate(plaintext)):
            anyio.run(mcp_server.server.run_stdio_async)
