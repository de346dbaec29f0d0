"""The owner's switches (SPEC §3, §4): write, delete and governance policies, pause and resume.

Every change is one audit event (``policy``, no memory id) with the old and new value.
"""

from django.db import transaction
from django.utils.translation import gettext as _

from memories.lifecycle import InvalidValue, clean_choice, record
from memories.models import AuditEvent, Governance, MemorySettings, Policy


def _set(field, value, actor):
    with transaction.atomic():
        settings = MemorySettings.objects.select_for_update().get_or_create(pk=1)[0]
        old = getattr(settings, field)
        if old != value:
            setattr(settings, field, value)
            settings.save()
            record(AuditEvent.Event.POLICY, None, actor, old={field: old}, new={field: value})
    return settings


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
        if value is not None and (not isinstance(value, int) or value < 1):
            raise InvalidValue(name, _("must be a positive whole number of tokens, not %(value)r") % {"value": value})
    if core is not None:
        _set("core_budget_tokens", core, actor)
    if working is not None:
        _set("working_budget_tokens", working, actor)
    return MemorySettings.load()
