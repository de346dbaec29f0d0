"""Argument types and options shared by several verbs.

A value argparse can check on its own (a choice, a number, a TTL, a time) fails there, with the usage
line and exit status 2; everything else is the write path's to check.
"""

import argparse
from datetime import UTC, datetime

from memories.lifecycle import MAX_TTL, parse_ttl

# Counts (--limit, --budget) and spans of days (--days) beyond these name nothing a store holds or a
# calendar reaches.
MAX_COUNT = 1_000_000_000
MAX_DAYS = MAX_TTL.days


def positive_int(value, maximum=MAX_COUNT):
    try:
        number = int(value)
    except ValueError:
        number = 0
    if not 1 <= number <= maximum:
        raise argparse.ArgumentTypeError(f"must be a whole number from 1 to {maximum}, not {value!r}")
    return number


def days(value):
    return positive_int(value, MAX_DAYS)


def ttl(value):
    try:
        return parse_ttl(value)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def moment(value):
    """An ISO-8601 time; the write path insists on a time zone."""
    try:
        moment = datetime.fromisoformat(value)
        if moment.tzinfo is not None:
            moment.astimezone(UTC)  # the calendar's edges with an extreme offset fall outside it
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an ISO-8601 time like 2026-12-01T09:00:00Z, not {value!r}") from None
    except OverflowError:
        raise argparse.ArgumentTypeError(f"is outside the calendar once in UTC: {value!r}") from None
    return moment


def add_json(parser, default=False):
    parser.add_argument("--json", action="store_true", default=default, help="print JSON, for scripts")


def add_limit(parser, default):
    """``default=argparse.SUPPRESS`` on a second-level verb keeps a ``--limit`` given before it."""
    shown = f" (default {default})" if isinstance(default, int) else ""
    parser.add_argument("--limit", type=positive_int, default=default, metavar="N", help=f"show at most N{shown}")


def add_verb(verbs, name, handler, help):
    """A verb whose ``--help`` repeats the one-line summary shown in ``bestie memory --help``."""
    parser = verbs.add_parser(name, help=help, description=help)
    parser.set_defaults(handler=handler)
    return parser


def add_actions(parser, *, required):
    """Second-level verbs (``messages search``, ``policy write``); they share the ``action`` name."""
    return parser.add_subparsers(dest="action", required=required, metavar="ACTION")


def add_query(parser):
    parser.add_argument("query", nargs="+", metavar="QUERY", help="words to look for (case and accents do not matter)")
