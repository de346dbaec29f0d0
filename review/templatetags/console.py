"""Template filters of the console: a memory's states, kinds, places, flags, history and the preview's
signals in the owner's words. The technical names (the values the API, the CLI and the export keep) are
for ``title=`` and the memory's own page; these are the one place the console turns one into the other."""

from django import template
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.html import format_html
from django.utils.timesince import timesince
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext_lazy

from memories.lifecycle.actors import actor_label
from memories.lifecycle.proposals import flag_label as label_of_flag
from memories.models import Governance, Layer, Memory, Policy, TokenScope, kind_label, words_of
from memories.models import state_label as label_of_state
from memories.retrieval.context import LEFT_OUT_LABELS, SIGNAL_LABELS
from review import undo

register = template.Library()

# The fields a change in a memory's history names, as its page names them.
FIELD_LABELS = {
    "text": gettext_lazy("Text"),
    "kind": gettext_lazy("Kind"),
    "subject": gettext_lazy("Subject"),
    "scope": gettext_lazy("Scope"),
    "user": gettext_lazy("User"),
    "channel": gettext_lazy("Channel"),
    "project": gettext_lazy("Project"),
    "layer": gettext_lazy("Layer"),
    "status": gettext_lazy("Status"),
    "pinned": gettext_lazy("Pinned"),
    "stale": gettext_lazy("Stale"),
    "superseded_by_id": gettext_lazy("Replaced by"),
    "expires_at": gettext_lazy("Expires"),
    "confidence": gettext_lazy("Confidence"),
    "source": gettext_lazy("Source"),
    "source_kind": gettext_lazy("Source kind"),
    "flags": gettext_lazy("Flags"),
    "message_id": gettext_lazy("Source message"),
    "created_at": gettext_lazy("Created"),
    "confirmed_at": gettext_lazy("Confirmed"),
    "deleted_at": gettext_lazy("Deleted"),
}
POLICY_LABELS = {**dict(Policy.choices), **dict(Governance.choices)}
# Django's ``timesince`` words, in this catalogue: Django's own Vietnamese has them under older msgids, so
# "3 days, 2 hours" would stay English on a Vietnamese page.
TIME_STRINGS = {
    "year": ngettext_lazy("%(num)d year", "%(num)d years", "num"),
    "month": ngettext_lazy("%(num)d month", "%(num)d months", "num"),
    "week": ngettext_lazy("%(num)d week", "%(num)d weeks", "num"),
    "day": ngettext_lazy("%(num)d day", "%(num)d days", "num"),
    "hour": ngettext_lazy("%(num)d hour", "%(num)d hours", "num"),
    "minute": ngettext_lazy("%(num)d minute", "%(num)d minutes", "num"),
}


@register.filter
def state_label(state):
    """A memory's state (``Memory.state``) in the owner's language: ``{{ memory.state|state_label }}``."""
    return label_of_state(state)


@register.filter
def kind_words(memory):
    """A memory's kind and subject in words: "communication preference: language"."""
    if memory.subject:
        return f"{kind_label(memory.kind)}: {words_of(memory.subject)}"
    return kind_label(memory.kind)


@register.simple_tag
def kind_of(memory):
    """A memory's kind and subject as a label, their names on hover: ``{% kind_of memory %}``."""
    names = f"{memory.kind}:{memory.subject}" if memory.subject else memory.kind
    return format_html('<span class="label" title="{}">{}</span>', names, kind_words(memory))


@register.filter
def kind(value):
    """A kind (a slug) in words: ``{{ memory.kind|kind }}``."""
    return kind_label(value)


@register.filter
def words(slug):
    """A slug as its words: ``package_manager`` reads "package manager"."""
    return words_of(slug)


@register.filter
def placement(memory):
    """Where a memory applies and which layer holds it: "everywhere · working memory"."""
    return f"{memory.get_scope_display()} · {memory.get_layer_display()}"


@register.filter
def layer_label(layer):
    """A layer's name (``core``, ``working``, ``archive``) in the owner's words."""
    return Layer(layer).label if layer in Layer.values else words_of(layer)


@register.filter
def policy_label(policy):
    """A write, delete or governance policy (``ask``, ``governed``) in the owner's words."""
    return POLICY_LABELS.get(policy) or words_of(policy)


@register.filter
def flag_label(flag):
    """Why the write path flagged a proposal, in a few words: ``{{ flag|flag_label }}``."""
    return label_of_flag(flag)


@register.filter
def signal_label(name):
    """A retrieval signal (``relevance``, ``recency``…) as what it measures."""
    return SIGNAL_LABELS.get(name) or words_of(name)


@register.filter
def left_out_label(reason):
    """Why retrieval left a near-miss out (``budget``, ``score``…), in words."""
    return LEFT_OUT_LABELS.get(reason) or reason


@register.filter
def token_scopes(scopes):
    """What an agent's token lets it do, in words."""
    return "; ".join(str(TokenScope(scope).label) if scope in TokenScope.values else scope for scope in scopes)


@register.filter
def actor(name):
    """Who made a change (``agent:bestie``, ``owner:owner``, ``system:hygiene``), in words."""
    return actor_label(name)


@register.filter
def field_label(name):
    """A field a change in the history names (``source_kind``), as the memory's page names it."""
    return FIELD_LABELS.get(name) or words_of(name)


@register.filter
def history_value(value, name):
    """A value a change in the history holds, as the memory's page shows it: choices and kinds in words,
    yes or no, times in the console's time zone, "–" for nothing: ``{{ old|history_value:name }}``."""
    if value is None or value == "" or value == []:
        return "–"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if name == "kind":
        return kind_label(value)
    if name == "subject":
        return words_of(value)
    if name == "flags" and isinstance(value, list):
        return ", ".join(str(label_of_flag(flag)) for flag in value)
    if name in ("superseded_by_id", "message_id"):
        return f"#{value}"
    if name.endswith("_at") and isinstance(value, str) and (moment := parse_datetime(value)):
        return timezone.localtime(moment).strftime("%Y-%m-%d %H:%M")
    field = next((field for field in Memory._meta.concrete_fields if field.attname == name), None)
    if field is not None and field.choices:
        return dict(field.choices).get(value, value)
    return value


@register.filter
def age(moment):
    """How long ago ``moment`` was, in the owner's language: "3 days, 2 hours" ("3 ngày, 2 giờ")."""
    return timesince(moment, time_strings=TIME_STRINGS)


@register.filter
def undo_token(message):
    """The token of a message's Undo button (``review.undo``), or '': ``{{ message|undo_token }}``."""
    return undo.token_of(message)
