"""Who made a change, as the audit history names them: ``owner:NAME``, ``agent:NAME`` or ``system:JOB``."""

from django.utils.translation import gettext as _

from memories.lifecycle.validation import InvalidValue

# How every agent's name begins in the history.
AGENT_PREFIX = "agent:"


def owner(user):
    """The owner logged in to the console or the admin (``owner:cli`` is the command line's)."""
    return f"owner:{user.get_username()}"


def agent(name):
    """An agent, by its token's name."""
    name = (name or "").strip()
    if not name:
        raise InvalidValue("agent", _("say which agent it is (its token's name)"))
    return f"{AGENT_PREFIX}{name}"


def actor_label(actor):
    """Who made a change, in the owner's words: "you", "agent bestie", "maintenance"."""
    kind, _colon, name = actor.partition(":")
    if kind == "owner":
        return _("you (on the command line)") if name == "cli" else _("you")
    if kind == "agent":
        return _("agent %(name)s") % {"name": name}
    if kind == "system":
        return _("maintenance")
    return actor
