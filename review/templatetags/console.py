"""Template filters of the console."""

from django import template

from memories.models import state_label as label_of_state

register = template.Library()


@register.filter
def state_label(state):
    """A memory's state (``Memory.state``) in the owner's language: ``{{ memory.state|state_label }}``."""
    return label_of_state(state)
