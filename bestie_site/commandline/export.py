"""``export`` and ``import``: the JSON document of SPEC §10, streamed out and read back."""

import os
import sys
from pathlib import Path

from django.core.management.base import CommandError

from bestie_site.commandline import ACTOR, output
from bestie_site.commandline.arguments import add_json, add_verb
from memories import transfer


def register(verbs):
    parser = add_verb(verbs, "export", export, "every memory (archive included) and the history, as JSON")
    parser.add_argument(
        "--output", metavar="FILE", help="write to FILE (replaced only once the export is complete), not stdout"
    )

    parser = add_verb(
        verbs,
        "import",
        import_,
        "read back an export (all of it, or nothing if anything is wrong), or another tool's memories for review",
    )
    parser.add_argument("file", metavar="FILE", help="the export document or the tool's file; - reads stdin")
    parser.add_argument(
        "--from",
        dest="format",
        choices=("bestie", *transfer.FORMATS),
        default="bestie",
        help="what FILE is: a Bestie export (the default), mem0's get_all() JSON or history.db, an OpenMemory"
        " export zip, ChatGPT's saved memories as text, JSON Lines or CSV with a text column",
    )
    parser.add_argument(
        "--dry-run", action="store_true", help="check it and say what it would import, skip and refuse; change nothing"
    )
    parser.add_argument(
        "--approve",
        action="store_true",
        help="another tool's memories: approve them at once instead of leaving them pending (flagged ones still wait)",
    )
    parser.add_argument(
        "--user", metavar="USER", help="another tool's memories: whose they are in Bestie (default: the tool's user id)"
    )
    add_json(parser)


def _count(number, one, many):
    return f"{number} {one if number == 1 else many}"


def _records(result):
    memories = _count(result.memories, "memory", "memories")
    return f"{memories} and {_count(result.history, 'history event', 'history events')}"


def export(command, options):
    if not options["output"] or options["output"] == "-":
        transfer.write_export(output.Stream(command.stdout))
        return
    target = Path(options["output"])
    # Written beside the target and renamed over it: a failed or interrupted export never leaves a
    # half-written file where the last good one was.
    partial = target.with_name(target.name + ".tmp")
    try:
        try:
            # Readable by the owner only: the export holds every memory.
            descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(descriptor, "w", encoding="utf-8") as out:
                result = transfer.write_export(out)
                out.flush()
                os.fsync(out.fileno())
            os.replace(partial, target)
        finally:
            partial.unlink(missing_ok=True)
    except OSError as error:
        raise CommandError(f"cannot write {target}: {error.strerror or error}") from None
    command.stderr.write(f"exported {_records(result)} to {target}", style_func=command.style.SUCCESS)


def import_(command, options):
    if options["format"] != "bestie":
        _import_foreign(command, options)
        return
    for option in ("approve", "user"):
        if options[option] not in (None, False):
            raise CommandError(f"--{option} is for another tool's memories (--from {'|'.join(transfer.FORMATS)})")
    path = options["file"]
    if path == "-":
        result = transfer.import_document(sys.stdin, actor=ACTOR, dry_run=options["dry_run"])
    else:
        try:
            source = open(path, encoding="utf-8")
        except OSError as error:
            raise CommandError(f"cannot read {path}: {error.strerror or error}") from None
        with source:
            result = transfer.import_document(source, actor=ACTOR, dry_run=options["dry_run"])
    report = {
        "memories": result.memories,
        "history": result.history,
        "dropped_message_links": result.dropped_message_links,
        "dry_run": result.dry_run,
    }
    if options["json"]:
        output.write_json(command, report)
        return
    counts = _records(result)
    if result.dry_run:
        command.stdout.write(f"{path} is a valid export of {counts}; dry run, nothing was changed")
    else:
        command.stdout.write(command.style.SUCCESS(f"imported {counts}"))
    if result.dropped_message_links:
        command.stdout.write(
            f"{_count(result.dropped_message_links, 'memory', 'memories')} lost the link to a source message "
            "that is not in this database"
        )


def _import_foreign(command, options):
    path = options["file"]
    if path == "-":
        name, source = "stdin", sys.stdin.buffer
        result = _foreign(source, name, options)
    else:
        try:
            source = open(path, "rb")
        except OSError as error:
            raise CommandError(f"cannot read {path}: {error.strerror or error}") from None
        with source:
            result = _foreign(source, Path(path).name, options)
    if options["json"]:
        output.write_json(command, _foreign_json(result))
        return
    for title, items in (("refused", result.refused), ("skipped", result.skipped)):
        for item in items:
            command.stdout.write(f"{title}  {item.where}: {item.reason}" + (f": {item.text}" if item.text else ""))
    for item in result.imported:
        if result.dry_run or item.flags:
            number = f" as memory {item.memory_id}" if item.memory_id else ""
            command.stdout.write(f"import  {item.where}{number}: {item.reason}: {item.text}")
    counts = (
        f"{_count(len(result.imported), 'memory', 'memories')} ({result.pending} pending, {result.approved} approved),"
        f" {len(result.skipped)} skipped, {len(result.refused)} refused"
    )
    if result.dry_run:
        command.stdout.write(f"dry run, nothing was changed: {path} would import {counts}")
    else:
        command.stdout.write(command.style.SUCCESS(f"imported {counts} from {path}"))
        if result.pending:
            command.stdout.write("review them with `bestie memory pending` or in the console")


def _foreign(source, name, options):
    return transfer.import_foreign(
        source,
        format=options["format"],
        file_name=name,
        actor=ACTOR,
        dry_run=options["dry_run"],
        approve=options["approve"],
        user=options["user"],
    )


def _foreign_json(result):
    def items(entries):
        return [
            {"where": i.where, "text": i.text, "reason": i.reason, "memory_id": i.memory_id, "flags": list(i.flags)}
            for i in entries
        ]

    return {
        "format": result.format,
        "file": result.file_name,
        "dry_run": result.dry_run,
        "approve": result.approve,
        "imported": len(result.imported),
        "pending": result.pending,
        "approved": result.approved,
        "flagged": len(result.flagged),
        "skipped": len(result.skipped),
        "refused": len(result.refused),
        "memories": items(result.imported),
        "skipped_memories": items(result.skipped),
        "refused_memories": items(result.refused),
    }
