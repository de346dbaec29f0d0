"""Agent tokens (SPEC §9): one bearer token per agent, of which only a SHA-256 is stored.

The plaintext is returned once by ``create_token`` and never again; a revoked token authenticates
nothing, stays in the list, and frees its name for a new token. Creating and revoking are audit events
(``token``, no memory id) naming the token, never its value.
"""

import hashlib
import hmac
import re
import secrets
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from memories import rows
from memories.lifecycle import InvalidValue, NotFound, record
from memories.models import AgentToken, AuditEvent

NAME_PATTERN = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")
# Recording every use would turn each API read into a write; a minute is precise enough to spot an
# unused token.
LAST_USED_PRECISION = timedelta(minutes=1)
_PREFIX = "bst_"


def _digest(plaintext):
    return hashlib.sha256(plaintext.encode("utf-8")).hexdigest()


def clean_name(name):
    name = (name or "").strip()
    if not NAME_PATTERN.fullmatch(name):
        raise InvalidValue(
            "name",
            _("must be 1-64 lower-case letters, digits, '-' or '_', starting with a letter or digit, not %(value)r")
            % {"value": name},
        )
    return name


def create_token(name, *, actor):
    """A new token for the agent ``name``; returns its plaintext, which is not stored anywhere."""
    name = clean_name(name)
    plaintext = _PREFIX + secrets.token_urlsafe(32)
    try:
        with transaction.atomic():
            token = AgentToken.objects.create(name=name, token_sha256=_digest(plaintext))
            record(AuditEvent.Event.TOKEN, None, actor, new={"token": token.name, "action": "create"})
    except IntegrityError:
        raise InvalidValue(
            "name", _("an active token named %(name)r exists; revoke it first") % {"name": name}
        ) from None
    return plaintext


def revoke_token(name, *, actor):
    with transaction.atomic():
        token = AgentToken.objects.select_for_update().filter(name=name, revoked_at__isnull=True).first()
        if token is None:
            raise NotFound(_("no active token named %(name)r") % {"name": name})
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])
        record(AuditEvent.Event.TOKEN, None, actor, new={"token": token.name, "action": "revoke"})
    return token


def list_tokens():
    """Every token, active and revoked, without anything secret."""
    return AgentToken.objects.defer("token_sha256").order_by("name", "created_at")


def authenticate(plaintext):
    """The active token whose plaintext this is, or None."""
    if not plaintext or not plaintext.startswith(_PREFIX):
        return None
    digest = _digest(plaintext)
    # A statement built once: this runs before every API call, and the ORM took longer to build the
    # query than the database took to answer it.
    token = rows.first(AgentToken, "token_sha256 = %s AND revoked_at IS NULL", [digest])
    if token is None:
        return None
    if not hmac.compare_digest(token.token_sha256, digest):
        return None
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at >= LAST_USED_PRECISION:
        AgentToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
    return token
