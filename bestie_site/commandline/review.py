"""The owner's decisions on proposals (pending: list, search, inspect; approve, reject, reject-all) and on
agents' deletion requests (deletions: list, approve, reject)."""

import argparse

from django.core.management.base import CommandError
from django.utils import timezone

from bestie_site.commandline import ACTOR, output
from bestie_site.commandline.arguments import add_actions, add_json, add_limit, add_query, add_verb
from bestie_site.commandline.memories import details, write_details
from memories import lifecycle
from memories.lifecycle import deletions, proposals
from memories.models import Memory
from memories.search import matching
from memories.times import iso


def register(verbs):
    parser = add_verb(verbs, "pending", pending, "proposals waiting for your decision, oldest first")
    add_limit(parser, 20)
    add_json(parser)
    actions = add_actions(parser, required=False)
    search = add_verb(actions, "search", search_pending, "pending proposals whose text has every word of QUERY")
    add_query(search)
    add_limit(search, argparse.SUPPRESS)
    add_json(search, argparse.SUPPRESS)
    inspect = add_verb(actions, "inspect", inspect_pending, "a pending proposal with its source and history")
    inspect.add_argument("id", metavar="ID")
    add_json(inspect, argparse.SUPPRESS)

    parser = add_verb(verbs, "approve", approve, "approve pending proposals: they become live memories")
    parser.add_argument("ids", nargs="+", metavar="ID")
    parser.add_argument("--yes", action="store_true", help="approve flagged ones too, having read their flags")
    add_verb(verbs, "reject", reject, "reject pending proposals: they are not proposed again").add_argument(
        "ids", nargs="+", metavar="ID"
    )

    parser = add_verb(verbs, "reject-all", reject_all, "reject every pending proposal (shows the count without --yes)")
    parser.add_argument("--yes", action="store_true", help="really reject them all")

    parser = add_verb(verbs, "deletions", list_deletions, "agents' requests to erase memories, oldest first")
    add_json(parser)
    actions = add_actions(parser, required=False)
    for name, handler, help in (
        ("approve", approve_deletions, "forget the memories of these requests, for good"),
        ("reject", reject_deletions, "keep the memories of these requests; no agent may ask for them again"),
    ):
        add_verb(actions, name, handler, help).add_argument("ids", nargs="+", metavar="REQUEST")


def notes(row):
    """A proposal is judged by where it came from: its source, and the flags the write path raised."""
    words = [f"{row.source_kind}: {row.source}", f"proposed {output.day(row.created_at)}"]
    if row.flags:
        words.append(f"flags: {', '.join(row.flags)}")
    return words


def write_pending(command, proposals, options, now):
    shown = output.write_memories(
        command,
        proposals[: options["limit"]],
        as_json=options["json"],
        now=now,
        notes=notes,
        empty="no pending proposals match",
    )
    if not options["json"] and shown == options["limit"] and (total := proposals.count()) > shown:
        command.stdout.write(f"showing {shown} of {total}; --limit N shows more")


def pending(command, options):
    now = timezone.now()
    write_pending(command, Memory.objects.pending(now).order_by("created_at", "id"), options, now)


def search_pending(command, options):
    now = timezone.now()
    write_pending(command, matching(Memory.objects.pending(now), " ".join(options["query"])), options, now)


def inspect_pending(command, options):
    now = timezone.now()
    memory = lifecycle.get_memory(options["id"])
    state = memory.state(now)
    if state != "pending":
        raise CommandError(
            f"memory {memory.pk} is {state}, not pending; see it with `bestie memory inspect {memory.pk}`"
        )
    info = details(memory, now)
    replaces = proposals.possible_updates([memory]).get(memory.pk, [])
    info["may_replace"] = [{"id": old.pk, "text": old.text} for old in replaces]
    if options["json"]:
        output.write_json(command, info)
        return
    write_details(command, info, now)
    for old in replaces:
        command.stdout.write(
            f"may replace #{old.pk}: {old.text}  (to replace it: bestie memory approve {memory.pk}, "
            f"then bestie memory supersede {old.pk} {memory.pk})"
        )


def approve(command, options):
    """A flagged proposal gets the console's second step here too: its flags in plain words, and nothing
    approved until the owner asks again with ``--yes``."""
    flagged = proposals.needing_second_step(lifecycle.clean_ids(options["ids"]))
    if flagged and not options["yes"]:
        lines = [
            f"#{pk}: " + "; ".join(str(proposals.explain_flag(flag)) for flag in flags)
            for pk, flags in sorted(flagged.items())
        ]
        raise CommandError(
            "flagged, so nothing was approved:\n"
            + "\n".join(lines)
            + "\nread them (bestie memory pending inspect ID), then approve again with --yes"
        )
    lifecycle.approve(options["ids"], actor=ACTOR)
    command.stdout.write(command.style.SUCCESS(f"approved {_memories(options['ids'])}"))


def reject(command, options):
    lifecycle.reject(options["ids"], actor=ACTOR)
    command.stdout.write(command.style.SUCCESS(f"rejected {_memories(options['ids'])}"))


def _memories(ids):
    ids = list(dict.fromkeys(ids))
    return f"memor{'y' if len(ids) == 1 else 'ies'} {', '.join(f'#{i}' for i in ids)}"


def reject_all(command, options):
    if not options["yes"]:
        count = Memory.objects.pending().count()
        command.stdout.write(
            command.style.WARNING(
                f"reject-all would reject {count} pending proposal{'' if count == 1 else 's'}. "
                "Nothing was changed; run `bestie memory reject-all --yes` to do it."
            )
        )
        return
    count = lifecycle.reject_all(actor=ACTOR)
    command.stdout.write(command.style.SUCCESS(f"rejected {count} pending proposal{'' if count == 1 else 's'}"))


def list_deletions(command, options):
    rows = [
        {
            "id": request.pk,
            "memory_id": request.memory_id,
            "text": request.memory.text,
            "agent": request.agent,
            "reason": request.reason,
            "requested_at": iso(request.requested_at),
        }
        for request in deletions.pending_requests()
    ]
    if options["json"]:
        return output.write_json(command, rows)
    if not rows:
        return command.stdout.write("no deletion requests")
    for row in rows:
        reason = f": {row['reason']}" if row["reason"] else ""
        command.stdout.write(
            f"request {row['id']}  memory #{row['memory_id']}  {row['text']}"
            f"  (asked by {row['agent']} {output.day(row['requested_at'])}{reason})"
        )


def approve_deletions(command, options):
    erased = deletions.approve(options["ids"], actor=ACTOR)
    command.stdout.write(command.style.SUCCESS(f"forgot memory {', '.join(f'#{i}' for i in erased)}"))


def reject_deletions(command, options):
    count = deletions.reject(options["ids"], actor=ACTOR)
    command.stdout.write(command.style.SUCCESS(f"kept the memories of {count} request(s)"))
