"""Vectors of the memories: ``embeddings [status]`` and ``embeddings build`` (README "Embeddings")."""

import argparse
import sys

from django.core.management.base import CommandError

from bestie_site.commandline import output
from bestie_site.commandline.arguments import add_actions, add_json, add_verb, positive_int
from memories import vectors
from memories.language import embeddings


def register(verbs):
    parser = add_verb(
        verbs,
        "embeddings",
        status_verb,
        "the embeddings model and its vectors: how many memories have one, are missing one or have a stale one",
    )
    add_json(parser)
    actions = add_actions(parser, required=False)
    add_json(add_verb(actions, "status", status_verb, "the model and the counts (the default)"), argparse.SUPPRESS)
    build = add_verb(
        actions, "build", build_verb, "make every missing or stale vector now (resumable; exit 0 when all are made)"
    )
    build.add_argument("--limit", type=positive_int, help="make at most this many vectors")
    add_json(build, argparse.SUPPRESS)


def status_verb(command, options):
    current = vectors.status()
    if options["json"]:
        output.write_json(command, current.as_json())
        return
    write = command.stdout.write
    write(f"embeddings: {current.mode}" + (f" ({current.model})" if current.model else ""))
    if current.problem:
        write(command.style.WARNING(f"  {current.problem}"))
    elif current.mode != embeddings.OFF:
        write(command.style.SUCCESS("  the model loads and embeds"))
    write(f"  memories that should have a vector: {current.memories}")
    write(f"  with a current vector: {current.current}")
    write(f"  missing: {current.missing}")
    write(f"  stale (made from an older text): {current.stale}")
    if current.other_models:
        write(f"  vectors of another model (replaced by a build): {current.other_models}")
    if current.missing or current.stale:
        write("  `bestie memory embeddings build` makes them now; the job cluster makes them in the background")


def _bar(done, total, width=30):
    share = done / total if total else 1.0
    filled = round(width * share)
    return f"[{'#' * filled}{'.' * (width - filled)}] {done}/{total}"


def build_verb(command, options):
    interactive = not options["json"] and sys.stderr.isatty()

    def progress(done, total):
        if interactive:
            sys.stderr.write(f"\r{_bar(done, total)}")
            sys.stderr.flush()
        elif not options["json"]:
            command.stdout.write(f"{done}/{total} memories read")

    try:
        built = vectors.build(progress=progress, limit=options["limit"])
    except embeddings.Unavailable as error:
        raise CommandError(f"no vectors made: {error}") from error
    finally:
        if interactive:
            sys.stderr.write("\n")
    if options["json"]:
        output.write_json(command, {"made": built.made, "missing": built.missing})
    else:
        command.stdout.write(f"vectors made: {built.made}; still missing or stale: {built.missing}")
    if built.missing and options["limit"] is None:
        raise CommandError(f"{built.missing} memories still have no current vector")
