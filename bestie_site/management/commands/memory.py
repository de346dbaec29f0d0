"""``bestie memory VERB …`` (``python manage.py memory VERB …``): the owner's command line (SPEC §7).

The verbs live in ``bestie_site.commandline``; each calls a domain function and prints its answer.
An operation the write path refuses (unknown id, bad value, the owner's policy) ends here as a
``CommandError``: its message on stderr, a non-zero exit, nothing changed.
"""

from django.core.management.base import CommandError

from bestie_site.commandline import (
    cleanup,
    context,
    doctor,
    drift,
    embeddings,
    export,
    hygiene,
    maintenance,
    memories,
    messages,
    policies,
    reports,
    review,
)
from bestie_site.commandline.output import TerminalSafeCommand
from memories.lifecycle import LifecycleError

VERB_MODULES = (
    reports,
    policies,
    memories,
    review,
    messages,
    export,
    maintenance,
    context,
    doctor,
    drift,
    hygiene,
    cleanup,
    embeddings,
)


class Command(TerminalSafeCommand):
    # The system checks import every URL and the API schema: half a second on each call of an everyday
    # command. `make run` (migrate) and `manage.py check` still run them.
    requires_system_checks = []
    help = (
        "Bestie's memory: list, search and change memories, review proposals, set the policies, "
        "export and import. `bestie memory VERB --help` explains a verb; --json gives JSON for scripts."
    )

    def add_arguments(self, parser):
        verbs = parser.add_subparsers(dest="verb", required=True, metavar="VERB", title="verbs")
        for module in VERB_MODULES:
            module.register(verbs)

    def handle(self, *args, handler, **options):
        try:
            handler(self, options)
        except LifecycleError as error:
            raise CommandError(str(error)) from error
        except OSError as error:  # a file or directory named on the command line
            where = f"{error.filename}: " if error.filename else ""
            raise CommandError(f"{where}{error.strerror or error}") from error
