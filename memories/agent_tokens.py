"""Agent tokens (SPEC §9): one bearer token per agent, of which only a SHA-256 is stored, and what it
lets the agent do.

The plaintext is returned once by ``create_token`` and never again; a revoked or expired token
authenticates nothing, stays in the list, and a revoked one frees its name for a new token. Creating and
revoking are audit events (``token``, no memory id) naming the token, never its value.

A token carries scopes (``propose``, ``recall``, ``read``, ``forget``; ``propose`` and ``recall`` unless
more are asked for) and may be bound to users. ``authenticate`` answers with an ``Access``, and every
agent interface (the API, MCP, an assistant in the same process) asks that one object what the agent may
do: ``require`` a scope, ``user`` for whom it writes or asks, ``visible`` what it may see.
"""

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from memories import rows
from memories.lifecycle import MAX_TTL, InvalidValue, NotFound, Refused, actors, clean_label, record
from memories.models import AgentToken, AuditEvent, TokenScope, default_token_scopes

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


def clean_scopes(scopes):
    """The scopes asked for, each once, in their usual order; at least one."""
    if scopes is None:
        return default_token_scopes()
    wanted = {scope.strip() for scope in scopes if scope.strip()}
    unknown = sorted(wanted - set(TokenScope.values))
    if unknown or not wanted:
        raise InvalidValue(
            "scopes",
            _("give one or more of %(scopes)s, not %(value)r")
            % {"scopes": ", ".join(TokenScope.values), "value": ",".join(sorted(unknown or wanted)) or ""},
        )
    return [scope for scope in TokenScope.values if scope in wanted]


def _clean_users(users):
    cleaned = [clean_label("user", user) for user in users or ()]
    if any(not user for user in cleaned):
        raise InvalidValue("user", _("must not be empty"))
    return sorted(set(cleaned))


def _clean_expiry(expires_in, now):
    if expires_in is None:
        return None
    if expires_in <= timedelta(0):
        raise InvalidValue("expires", _("must be positive"))
    if expires_in > MAX_TTL:
        raise InvalidValue("expires", _("must be at most %(days)s days") % {"days": MAX_TTL.days})
    return now + expires_in


def create_token(name, *, actor, scopes=None, users=(), expires_in=None):
    """A new token for the agent ``name`` with these ``scopes`` (``propose`` and ``recall`` when None), for
    these ``users`` (every user when empty), ending ``expires_in`` (a timedelta) from now (never when None).
    Returns its plaintext, which is not stored anywhere."""
    name = clean_name(name)
    scopes, users = clean_scopes(scopes), _clean_users(users)
    now = timezone.now()
    expires_at = _clean_expiry(expires_in, now)
    plaintext = _PREFIX + secrets.token_urlsafe(32)
    try:
        with transaction.atomic():
            token = AgentToken.objects.create(
                name=name,
                token_sha256=_digest(plaintext),
                scopes=scopes,
                users=users,
                created_at=now,
                expires_at=expires_at,
            )
            record(
                AuditEvent.Event.TOKEN,
                None,
                actor,
                new={
                    "token": token.name,
                    "action": "create",
                    "scopes": scopes,
                    "users": users,
                    "expires_at": expires_at,
                },
            )
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


@dataclass(frozen=True)
class Access:
    """What one agent's token lets it do: the one place every agent interface asks."""

    agent: str  # the token's name
    scopes: frozenset
    users: frozenset  # the users it acts for; empty: every user

    @classmethod
    def of(cls, token):
        return cls(agent=token.name, scopes=frozenset(token.scopes), users=frozenset(token.users))

    @property
    def actor(self):
        return actors.agent(self.agent)

    def require(self, scope):
        """Raises ``Refused`` unless the token has ``scope``."""
        if scope not in self.scopes:
            raise Refused(
                _(
                    "this token may not %(what)s: its scopes are %(scopes)s; the owner makes a token with "
                    "--scopes %(scope)s for that"
                )
                % {
                    "what": TokenScope(scope).label,
                    "scopes": ", ".join(sorted(self.scopes)),
                    "scope": scope,
                }
            )

    def user(self, user):
        """The user a write or a request of this agent is for: ``user`` itself when the token may act for it;
        a token bound to one user acts for that one when none is given. Raises ``Refused`` otherwise."""
        user = (user or "").strip()
        if not self.users:
            return user
        if not user and len(self.users) == 1:
            return next(iter(self.users))
        if user not in self.users:
            raise Refused(
                _("this token acts only for %(users)s, not for %(user)r")
                % {"users": ", ".join(sorted(self.users)), "user": user}
            )
        return user

    def visible(self, memories):
        """What of ``memories`` (a queryset) the agent may see: a bound token, its users' memories and those
        of no one in particular."""
        return memories.filter(user__in=[*self.users, ""]) if self.users else memories

    def owns(self, memory):
        """Whether the agent may ask to erase ``memory``: a bound token, only its users' memories."""
        return not self.users or memory.user in self.users


def authenticate(plaintext):
    """The ``Access`` of the active, unexpired token whose plaintext this is, or None."""
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
    if token.expires_at is not None and token.expires_at <= now:
        return None
    if token.last_used_at is None or now - token.last_used_at >= LAST_USED_PRECISION:
        AgentToken.objects.filter(pk=token.pk).update(last_used_at=now)
    return Access.of(token)
