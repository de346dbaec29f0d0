"""Template filters of the console."""

from django import template

from memories.models import state_label as label_of_state
from review import undo

register = template.Library()


@register.filter
def state_label(state):
    """A memory's state (``Memory.state``) in the owner's language: ``{{ memory.state|state_label }}``."""
    return label_of_state(state)


@register.filter
def undo_token(message):
    """The token of a message's Undo button (``review.undo``), or '': ``{{ message|undo_token }}``."""
    return undo.token_of(message)
