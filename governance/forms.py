"""Forms of the settings page."""

from django import forms
from django.utils.translation import gettext_lazy as _

POLICIES = [("allow", _("allow")), ("ask", _("ask")), ("deny", _("deny"))]
GOVERNANCE = [("governed", _("governed")), ("full", _("full"))]


class PoliciesForm(forms.Form):
    write_policy = forms.ChoiceField(
        label=_("Write policy"),
        choices=POLICIES,
        help_text=_("allow: store at once; ask: queue for your approval; deny: refuse new memories."),
    )
    delete_policy = forms.ChoiceField(
        label=_("Delete policy"),
        choices=POLICIES,
        help_text=_("For every deletion, forgetting included: allow, ask for your confirmation, or refuse."),
    )
    governance_policy = forms.ChoiceField(
        label=_("Governance policy"),
        choices=GOVERNANCE,
        help_text=_("governed: only the current user, project and session; full: all live working memories."),
    )


class TokenForm(forms.Form):
    name = forms.CharField(
        label=_("Agent name"),
        max_length=64,
        help_text=_("Lower-case letters, digits, - and _, like bestie or laptop-agent."),
    )
