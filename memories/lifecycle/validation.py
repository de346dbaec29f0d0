"""Checks every write makes before it touches anything, and the errors a refused or impossible write raises.

A ``LifecycleError``'s message says exactly what was wrong; ``InvalidValue`` names the field. Messages are
translated (gettext) in the language of the request that caused them: the console shows them in
Vietnamese or English; the command line and the API speak the default language.
"""

import datetime
import functools
import re
from datetime import timedelta

from django.utils import timezone
from django.utils.translation import gettext as _

from memories.language import characters
from memories.models import Scope
from memories.screening.secrets import find_secrets

KIND_PATTERN = re.compile(r"[a-z][a-z0-9_]{0,63}")
_TTL = re.compile(r"^\s*(\d+)\s*([smhdw])\s*$")
_TTL_UNITS = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days", "w": "weeks"}
MAX_TEXT_LENGTH = 2000
MAX_LABEL_LENGTH = 100
# The longest TTL or token lifetime anything accepts: a century, well inside what a datetime can hold.
MAX_TTL = timedelta(days=36_500)
# Ids are 64-bit signed integers in both databases: a larger one names nothing (and overflows a query).
MAX_ID = 2**63 - 1


class LifecycleError(Exception):
    """An operation that was refused or could not be done; nothing was changed."""


class NotFound(LifecycleError):
    pass


class InvalidValue(LifecycleError):
    def __init__(self, field, message):
        super().__init__(f"{field}: {message}")
        self.field = field


class Refused(LifecycleError):
    """Refused by the owner's policy (paused, write policy deny, delete policy) or the secret filter."""


def too_long(length, limit):
    return _("is %(length)s characters long; the limit is %(limit)s") % {"length": length, "limit": limit}


def one_of(values, value):
    return _("must be one of %(values)s, not %(value)r") % {"values": ", ".join(values), "value": value}


def no_memory(ids):
    return _("no memory with id %(ids)s") % {"ids": ", ".join(map(str, ids))}


def clean_id(value, field="id"):
    """A whole-number id from 1 to ``MAX_ID``."""
    try:
        number = int(value)
    except (TypeError, ValueError, OverflowError):
        raise InvalidValue(field, _("must be a whole number, not %(value)r") % {"value": value}) from None
    if isinstance(value, bool) or not 1 <= number <= MAX_ID:
        raise InvalidValue(
            field, _("must be a whole number from 1 to %(max)s, not %(value)r") % {"max": MAX_ID, "value": value}
        )
    return number


def clean_ids(ids):
    """Whole-number memory ids, each once, in the given order; at least one."""
    try:
        wanted = list(dict.fromkeys(int(i) for i in ids))
    except (TypeError, ValueError, OverflowError):
        raise InvalidValue("id", _("ids must be whole numbers, got %(value)r") % {"value": list(ids)}) from None
    if not wanted:
        raise InvalidValue("id", _("give at least one memory id"))
    for number in wanted:
        if not 1 <= number <= MAX_ID:
            raise InvalidValue(
                "id", _("ids must be from 1 to %(max)s, got %(value)s") % {"max": MAX_ID, "value": number}
            )
    return wanted


def clean_characters(field, value):
    """``value`` without the characters that are not text (``language.characters``); a lone surrogate,
    which no file or database can hold, is refused."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise InvalidValue(field, _("must be text, not %(value)r") % {"value": value})
    surrogate = characters.lone_surrogate(value)
    if surrogate is not None:
        raise InvalidValue(
            field, _("is not valid text: it holds %(char)s, half of a UTF-16 pair") % {"char": surrogate}
        )
    return characters.visible(value)


def clean_text(text, field="text"):
    text = characters.strip(" ".join(clean_characters(field, text).split()))
    if not text:
        raise InvalidValue(field, _("must not be empty"))
    if len(text) > MAX_TEXT_LENGTH:
        raise InvalidValue(field, too_long(len(text), MAX_TEXT_LENGTH))
    return text


def refuse_secrets(outcome, **fields):
    """Secrets are never stored (SPEC §3): refused before anything is written, with a message that
    names the kind of secret and never the secret itself."""
    for field, value in fields.items():
        for finding in find_secrets(value)[:1]:
            raise Refused(f"{field} {finding.reason}: {outcome}")


def clean_kind(kind):
    kind = clean_characters("kind", kind).strip()
    if not KIND_PATTERN.fullmatch(kind):
        raise InvalidValue(
            "kind", _("must be a lower-case slug like preference or project_context, not %(value)r") % {"value": kind}
        )
    return kind


@functools.cache
def _choice_values(choices):
    return frozenset(choices.values)


def clean_choice(field, value, choices):
    if value not in _choice_values(choices):
        raise InvalidValue(field, one_of(choices.values, value))
    return value


def clean_label(field, value):
    value = characters.strip(clean_characters(field, value))
    if len(value) > MAX_LABEL_LENGTH:
        raise InvalidValue(field, _("must be at most %(limit)s characters") % {"limit": MAX_LABEL_LENGTH})
    return value


def clean_confidence(value):
    try:
        value = float(value)
    except (TypeError, ValueError):
        raise InvalidValue("confidence", _("must be a number from 0 to 1, not %(value)r") % {"value": value}) from None
    if not 0.0 <= value <= 1.0:
        raise InvalidValue("confidence", _("must be from 0 to 1, not %(value)s") % {"value": value})
    return value


def clean_expiry(expires_at=None, ttl=None, now=None):
    """An aware datetime from either an absolute time or a TTL (timedelta); None means never."""
    if expires_at is not None and ttl is not None:
        raise InvalidValue("expires_at", _("give either an expiry time or a TTL, not both"))
    if ttl is not None:
        if ttl <= timedelta(0):
            raise InvalidValue("ttl", _("must be positive"))
        if ttl > MAX_TTL:
            raise InvalidValue("ttl", _("must be at most %(days)s days") % {"days": MAX_TTL.days})
        return (now or timezone.now()) + ttl
    if expires_at is None:
        return None
    if timezone.is_naive(expires_at):
        raise InvalidValue("expires_at", _("must include a time zone (e.g. 2026-12-01T09:00:00Z)"))
    latest = (now or timezone.now()) + MAX_TTL
    try:
        # In UTC, as it is stored: the calendar's edges with an extreme offset fall outside it.
        expires_at = expires_at.astimezone(datetime.UTC)
        too_late = expires_at > latest
    except OverflowError:
        too_late = True
    if too_late:
        raise InvalidValue(
            "expires_at",
            _("must be at most %(days)s days from now, before %(latest)s")
            % {"days": MAX_TTL.days, "latest": latest.date()},
        )
    return expires_at


def clean_placement(scope, project):
    clean_choice("scope", scope, Scope)
    if scope == Scope.PROJECT and not project:
        raise InvalidValue("project", _("a project-scoped memory needs the project's name"))


def parse_ttl(value):
    """``7d`` -> timedelta(days=7); accepts s, m, h, d and w, up to ``MAX_TTL``. Raises ValueError with a
    readable reason."""
    match = _TTL.match(value or "")
    if not match or int(match.group(1)) == 0:
        raise ValueError(f"TTL must be a positive number followed by s, m, h, d or w (like 7d or 12h), not {value!r}")
    number, unit = match.groups()
    if len(number) > 9 or timedelta(**{_TTL_UNITS[unit]: int(number)}) > MAX_TTL:
        raise ValueError(f"TTL must be at most {MAX_TTL.days} days, not {value!r}")
    return timedelta(**{_TTL_UNITS[unit]: int(number)})
