"""``bestie token create|list|revoke`` (``python manage.py token …``): the agents' API tokens (SPEC §9)."""

from django.core.management.base import CommandError

from bestie_site.commandline import ACTOR
from bestie_site.commandline.arguments import ttl
from bestie_site.commandline.output import TerminalSafeCommand, write_json
from memories import agent_tokens
from memories.lifecycle import LifecycleError
from memories.times import iso


def _create(command, options):
    scopes = options["scopes"].split(",") if options["scopes"] is not None else None
    plaintext = agent_tokens.create_token(
        options["name"], actor=ACTOR, scopes=scopes, users=options["user"], expires_in=options["expires"]
    )
    token = agent_tokens.list_tokens().get(name=options["name"], revoked_at__isnull=True)
    command.stdout.write(f"token for {options['name']} ({_describe(token)}; shown once, only its hash is kept):")
    command.stdout.write(plaintext)


def _describe(token):
    users = ", ".join(token.users) if token.users else "every user"
    ends = f"expires {iso(token.expires_at)}" if token.expires_at else "never expires"
    return f"scopes {','.join(token.scopes)}; for {users}; {ends}"


def _state(token):
    if token.revoked_at:
        return "revoked"
    return "expired" if token.expired else "active"


def _list(command, options):
    tokens = [
        {
            "name": token.name,
            "state": _state(token),
            "scopes": token.scopes,
            "users": token.users,
            "created_at": iso(token.created_at),
            "expires_at": iso(token.expires_at),
            "last_used_at": iso(token.last_used_at),
            "revoked_at": iso(token.revoked_at),
        }
        for token in agent_tokens.list_tokens()
    ]
    if options["json"]:
        return write_json(command, tokens)
    if not tokens:
        return command.stdout.write("no tokens; make one with `bestie token create NAME`")
    for token in tokens:
        command.stdout.write(
            f"{token['name']:<24} {token['state']:<8} {','.join(token['scopes']):<28}"
            f" for {', '.join(token['users']) or 'every user'}"
            f"  created {token['created_at']}  expires {token['expires_at'] or 'never'}"
            f"  last used {token['last_used_at'] or 'never'}"
            + (f"  revoked {token['revoked_at']}" if token["revoked_at"] else "")
        )


def _revoke(command, options):
    token = agent_tokens.revoke_token(options["name"], actor=ACTOR)
    command.stdout.write(f"revoked the token of {token.name}; calls with it now get 401")


class Command(TerminalSafeCommand):
    help = "The agents' API tokens: create one per agent (printed once), list them, revoke one."

    def add_arguments(self, parser):
        actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
        create = actions.add_parser("create", help="make a token for an agent; prints it as the last line")
        create.add_argument("name", help="the agent's name, like bestie or laptop-agent")
        create.add_argument(
            "--scopes",
            metavar="SCOPES",
            help="what it may do, comma-separated: propose (memories and messages), recall (context), "
            "read (list and search), forget (ask to erase); default propose,recall",
        )
        create.add_argument(
            "--user",
            action="append",
            default=[],
            metavar="U",
            help="the only user whose memories it sees and writes; repeat for several (default every user)",
        )
        create.add_argument("--expires", type=ttl, metavar="AGE", help="it stops working after this long: 90d, 12w")
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
