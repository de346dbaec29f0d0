"""Forms of the settings, channels and import pages."""

from django import forms
from django.utils.translation import gettext_lazy as _

from governance.models import DigestChannel
from memories.lifecycle import MAX_LABEL_LENGTH, parse_ttl
from memories.models import Governance, Policy, TokenScope, default_token_scopes


class PoliciesForm(forms.Form):
    write_policy = forms.ChoiceField(
        label=_("Write policy"),
        choices=Policy.choices,
        help_text=_("allow: store at once; ask: queue for your approval; deny: refuse new memories."),
    )
    delete_policy = forms.ChoiceField(
        label=_("Delete policy"),
        choices=Policy.choices,
        help_text=_("For every deletion, forgetting included: allow, ask for your confirmation, or refuse."),
    )
    governance_policy = forms.ChoiceField(
        label=_("Governance policy"),
        choices=Governance.choices,
        help_text=_("governed: only the current user, project and session; full: all live working memories."),
    )


class TokenForm(forms.Form):
    name = forms.CharField(
        label=_("Agent name"),
        max_length=64,
        help_text=_("Lower-case letters, digits, - and _, like bestie or laptop-agent."),
    )
    scopes = forms.MultipleChoiceField(
        label=_("It may"),
        choices=TokenScope.choices,
        initial=default_token_scopes,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Give an agent only what it needs: reading and forgetting are for agents you trust."),
    )
    users = forms.CharField(
        label=_("Only for users"),
        required=False,
        max_length=1000,
        help_text=_("Comma-separated; empty: every user. A bound token sees and writes only their memories."),
    )
    expires = forms.CharField(
        label=_("Expires after"),
        required=False,
        max_length=20,
        help_text=_("Like 90d or 12w; empty: never."),
    )

    def clean_users(self):
        return [user.strip() for user in self.cleaned_data["users"].split(",") if user.strip()]

    def clean_expires(self):
        value = self.cleaned_data["expires"].strip()
        if not value:
            return None
        try:
            return parse_ttl(value)
        except ValueError:
            raise forms.ValidationError(_("Give a positive number followed by s, m, h, d or w, like 90d.")) from None


IMPORT_FORMATS = [
    ("bestie", _("Bestie's own export (JSON)")),
    ("mem0", _("mem0: the JSON of get_all(), or its history.db")),
    ("openmemory", _("OpenMemory: the dashboard's export (.zip)")),
    ("chatgpt", _("ChatGPT: saved memories, pasted one a line or bullet")),
    ("jsonl", _("JSON Lines: one memory a line, with a text field")),
    ("csv", _("CSV: one memory a row, with a text column")),
]


class ImportForm(forms.Form):
    """The import page: a file and what it is. What the file holds is checked by ``memories.transfer``."""

    file = forms.FileField(label=_("File"))
    format = forms.ChoiceField(label=_("What it is"), choices=IMPORT_FORMATS)
    user = forms.CharField(
        label=_("User"),
        required=False,
        max_length=MAX_LABEL_LENGTH,
        help_text=_("Another tool's memories only: whose they are here; empty keeps each one's user from the file."),
    )
    no_user = forms.BooleanField(
        label=_("About no one in particular"),
        required=False,
        help_text=_("Another tool's memories only: they apply whoever Bestie talks to, whatever the file says."),
    )
    approve = forms.BooleanField(
        label=_("Approve them at once"),
        required=False,
        help_text=_(
            "Another tool's memories only; flagged ones (instruction-like, venting, possible updates) still wait."
        ),
    )


class HeldImportForm(forms.Form):
    """The import of a previewed upload: its token and the choices made for the preview."""

    upload = forms.CharField(max_length=64)
    format = forms.ChoiceField(choices=IMPORT_FORMATS)
    user = forms.CharField(required=False, max_length=MAX_LABEL_LENGTH)
    no_user = forms.BooleanField(required=False)
    approve = forms.BooleanField(required=False)
    file_name = forms.CharField(max_length=255)


CHANNEL_KINDS = [
    (DigestChannel.Kind.EMAIL, _("Email")),
    (DigestChannel.Kind.TELEGRAM, _("Telegram")),
    (DigestChannel.Kind.ZALO, _("Zalo")),
    (DigestChannel.Kind.WEBHOOK, _("Webhook")),
]


class ChannelForm(forms.Form):
    """Where the digest goes. The target is checked for its kind by ``governance.channels``."""

    kind = forms.ChoiceField(label=_("Kind"), choices=CHANNEL_KINDS)
    target = forms.CharField(
        label=_("Target"),
        max_length=DigestChannel._meta.get_field("target").max_length,
        help_text=_(
            "Email: an address. Telegram: the chat id (123456789, -100… for a group) or @channelname. "
            "Zalo: the user id the Official Account sees. Webhook: an https:// URL."
        ),
    )
