"""``bestie token create|list|revoke`` (``python manage.py token …``): the agents' API tokens (SPEC §9)."""

from django.core.management.base import BaseCommand, CommandError

from bestie_site.commandline import ACTOR
from bestie_site.commandline.output import write_json
from memories import agent_tokens
from memories.lifecycle import LifecycleError
from memories.times import iso


def _create(command, options):
    plaintext = agent_tokens.create_token(options["name"], actor=ACTOR)
    command.stdout.write(f"token for {options['name']} (shown once; only its hash is kept):")
    command.stdout.write(plaintext)


def _list(command, options):
    tokens = [
        {
            "name": token.name,
            "state": "revoked" if token.revoked_at else "active",
            "created_at": iso(token.created_at),
            "last_used_at": token.last_used_at and iso(token.last_used_at),
            "revoked_at": token.revoked_at and iso(token.revoked_at),
        }
        for token in agent_tokens.list_tokens()
    ]
    if options["json"]:
        return write_json(command, tokens)
    if not tokens:
        return command.stdout.write("no tokens; make one with `bestie token create NAME`")
    for token in tokens:
        command.stdout.write(
            f"{token['name']:<24} {token['state']:<8} created {token['created_at']}"
            f"  last used {token['last_used_at'] or 'never'}"
            + (f"  revoked {token['revoked_at']}" if token["revoked_at"] else "")
        )


def _revoke(command, options):
    token = agent_tokens.revoke_token(options["name"], actor=ACTOR)
    command.stdout.write(f"revoked the token of {token.name}; calls with it now get 401")


class Command(BaseCommand):
    help = "The agents' API tokens: create one per agent (printed once), list them, revoke one."

    def add_arguments(self, parser):
        actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
        create = actions.add_parser("create", help="make a token for an agent; prints it as the last line")
        create.add_argument("name", help="the agent's name, like bestie or laptop-agent")
        create.set_defaults(handler=_create)
        listing = actions.add_parser("list", help="every token, active and revoked (never the token itself)")
        listing.add_argument("--json", action="store_true", help="print JSON, for scripts")
        listing.set_defaults(handler=_list)
        revoke = actions.add_parser("revoke", help="stop a token from working")
        revoke.add_argument("name", help="the agent's name")
        revoke.set_defaults(handler=_revoke)

    def handle(self, *args, handler, **options):
        try:
            handler(self, options)
        except LifecycleError as error:
            raise CommandError(str(error)) from error
