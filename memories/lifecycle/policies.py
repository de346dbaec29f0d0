"""The owner's switches (SPEC §3, §4) and the two guards every write and every deletion passes.

- **Writing**: ``write_refusal`` says whether pause or the write policy ``deny`` refuses a write; ``store``
  asks it inside its transaction, so nothing can write past it.
- **Deleting**: ``delete_refusal`` says whether the delete policy refuses a deletion: ``deny`` refuses
  every one, by anyone; ``ask`` refuses one the owner has not confirmed (``--yes``, the console's confirm
  step, or the owner naming the memory to forget); ``allow`` refuses none. ``erase``, ``soft_delete`` and
  ``clear`` ask it inside their transaction, so no caller (admin, console, CLI, API, jobs) can skip it;
  what an agent or a job asks for is never confirmed.
- **Changing the switches**: each change is one audit event (``policy``, no memory id) with the old and
  new value.
"""

from typing import NamedTuple

from django.db import connection, transaction
from django.utils.translation import gettext as _

from memories.lifecycle.history import record
from memories.lifecycle.validation import InvalidValue, Refused, clean_choice
from memories.models import AuditEvent, Governance, MemorySettings, Policy


class WriteSwitches(NamedTuple):
    paused: bool
    write_policy: str
    erasure_pending: bool  # a forget waits for a reader: the write finishes it (``lifecycle.erasure``)


def write_switches():
    """Pause, the write policy and a pending erasure: read on every write, so one raw read of them."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT paused, write_policy, erasure_pending_since FROM {MemorySettings._meta.db_table} WHERE id = 1"
        )
        row = cursor.fetchone()
    if row is None:
        memory_settings = MemorySettings.load()
        return WriteSwitches(memory_settings.paused, memory_settings.write_policy, False)
    return WriteSwitches(bool(row[0]), row[1], row[2] is not None)


def write_refusal(switches):
    """The ``Refused`` these switches give a write, or None."""
    if switches.paused:
        return Refused(_("memory is paused: nothing is written until it is resumed"))
    if switches.write_policy == Policy.DENY:
        return Refused(_("the write policy is deny: set it to ask or allow to store memories"))
    return None


def check_writes_allowed():
    """Raises ``Refused`` while paused or under the ``deny`` write policy; returns the switches read."""
    switches = write_switches()
    if refusal := write_refusal(switches):
        raise refusal
    return switches


def delete_refusal(*, confirmed):
    """The ``Refused`` the delete policy gives a deletion (``confirmed``: the owner confirmed it), or None."""
    policy = MemorySettings.load().delete_policy
    if policy == Policy.DENY:
        return Refused(_("the delete policy is deny: nothing was deleted; set it to ask or allow to delete memories"))
    if policy == Policy.ASK and not confirmed:
        return Refused(
            _(
                "the delete policy is ask: nothing was deleted; the owner must confirm it (--yes on the command line, "
                "the confirm step in the console)"
            )
        )
    return None


def check_delete_allowed(*, confirmed):
    """Raises ``Refused`` unless the delete policy allows this deletion (see ``delete_refusal``)."""
    if refusal := delete_refusal(confirmed=confirmed):
        raise refusal


def _set(field, value, actor):
    with transaction.atomic():
        memory_settings = MemorySettings.objects.select_for_update().get_or_create(pk=1)[0]
        old = getattr(memory_settings, field)
        if old != value:
            setattr(memory_settings, field, value)
            memory_settings.save()
            record(AuditEvent.Event.POLICY, None, actor, old={field: old}, new={field: value})
    return memory_settings


def set_write_policy(value, *, actor):
    return _set("write_policy", clean_choice("write policy", value, Policy), actor)


def set_delete_policy(value, *, actor):
    return _set("delete_policy", clean_choice("delete policy", value, Policy), actor)


def set_governance_policy(value, *, actor):
    return _set("governance_policy", clean_choice("governance policy", value, Governance), actor)


def pause(*, actor):
    return _set("paused", True, actor)


def resume(*, actor):
    return _set("paused", False, actor)


def set_budgets(*, actor, core=None, working=None):
    for name, value in (("core budget", core), ("working budget", working)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
            raise InvalidValue(name, _("must be a positive whole number of tokens, not %(value)r") % {"value": value})
    if core is not None:
        _set("core_budget_tokens", core, actor)
    if working is not None:
        _set("working_budget_tokens", working, actor)
    return MemorySettings.load()
