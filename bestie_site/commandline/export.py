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

    parser = add_verb(verbs, "import", import_, "read back an export: all of it, or nothing if anything is wrong")
    parser.add_argument("file", metavar="FILE", help="the export document; - reads stdin")
    parser.add_argument("--dry-run", action="store_true", help="check it and count what it holds; change nothing")
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
