"""Conversation messages: ``messages`` (newest first) and ``messages search``."""

import argparse

from bestie_site.commandline import output
from bestie_site.commandline.arguments import add_actions, add_json, add_limit, add_query, add_verb
from memories.models import Message
from memories.search import matching


def _filters(parser, *, nested=False):
    """The same options on ``messages`` and ``messages search``. On the search they have no default, so
    ``messages --role user search dentist`` keeps the role given before ``search``."""
    unset = argparse.SUPPRESS
    add_limit(parser, unset if nested else 20)
    parser.add_argument(
        "--role", choices=Message.Role.values, default=unset if nested else None, help="only messages of this role"
    )
    add_json(parser, unset if nested else False)


def register(verbs):
    parser = add_verb(verbs, "messages", list_messages, "conversation messages, newest first")
    _filters(parser)
    actions = add_actions(parser, required=False)
    search = add_verb(actions, "search", search_messages, "messages whose text has every word of QUERY")
    add_query(search)
    _filters(search, nested=True)


def _messages(options):
    messages = Message.objects.all()
    if options["role"]:
        messages = messages.filter(role=options["role"])
    return messages


def write_messages(command, messages, options):
    rows = messages[: options["limit"]].values_list(*output.MESSAGE_FIELDS, named=True).iterator()
    if options["json"]:
        output.write_json_array(command, (output.encode(output.message_json(row)) for row in rows))
        return
    shown = 0
    for row in rows:
        command.stdout.write(output.message_line(row))
        shown += 1
    if not shown:
        command.stdout.write("no messages match")


def list_messages(command, options):
    write_messages(command, _messages(options).order_by("-created_at", "-id"), options)


def search_messages(command, options):
    write_messages(command, matching(_messages(options), " ".join(options["query"])), options)
