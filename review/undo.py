"""The console's Undo: the banner that confirms a change offers to take it back for ``UNDO_MINUTES``.

A view makes its change inside ``recording()`` (the ids of the audit events it writes are kept) and
confirms it with ``done(request, changes, text)``: the message gets an Undo button when
``lifecycle.revert`` would accept those events. The session keeps the ids behind a token, so the button's
form carries nothing to forge, and each button works once. Undoing is ``lifecycle.revert``: the same write
path, checks and history as any change.
"""

import secrets

from django.contrib import messages
from django.utils import timezone

from memories import lifecycle

UNDO_MINUTES = 10
# An action that wrote more events than this (a whole filtered queue approved) offers no Undo: a memory's
# history can still revert each of its changes.
MOST_EVENTS = 1000
# Undo buttons kept per session: the banner shows the newest; a few more stay usable from pages left open.
KEPT = 10
SESSION_KEY = "bestie_undo"
TAG = "undo:"


def recording():
    return lifecycle.recording(MOST_EVENTS)


def offer(request, changes, text):
    """Keep what ``changes`` (a ``recording()``) did, to be undone; returns its token, or None when it
    cannot be undone (nothing changed, too much changed, or a change of a kind that cannot be)."""
    if not changes.complete or not changes.event_ids or lifecycle.revert_refusal(changes.event_ids):
        return None
    now = timezone.now().timestamp()
    kept = {token: entry for token, entry in request.session.get(SESSION_KEY, {}).items() if entry["until"] > now}
    token = secrets.token_urlsafe(12)
    kept[token] = {"events": changes.event_ids, "text": str(text), "until": now + UNDO_MINUTES * 60}
    request.session[SESSION_KEY] = dict(list(kept.items())[-KEPT:])
    return token


def done(request, changes, text):
    """The message that confirms a change, with its Undo button when it can be undone."""
    token = offer(request, changes, text)
    messages.success(request, text, extra_tags=f"{TAG}{token}" if token else "")


def token_of(message):
    """The Undo token a message carries, or ''."""
    tags = message.extra_tags or ""
    return tags.removeprefix(TAG) if tags.startswith(TAG) else ""


def take(request, token):
    """What the Undo button ``token`` stands for (``events``, ``text``), once; None when it is unknown,
    used already or older than ``UNDO_MINUTES``."""
    kept = request.session.get(SESSION_KEY, {})
    entry = kept.pop(token, None)
    request.session[SESSION_KEY] = kept
    if entry is None or entry["until"] <= timezone.now().timestamp():
        return None
    return entry
