"""Forms of the review console: edit-before-approve and the selections of the bulk actions."""

from django import forms
from django.utils.translation import gettext_lazy as _

from memories.lifecycle import MAX_ID, MAX_LABEL_LENGTH, MAX_TEXT_LENGTH, parse_ttl
from memories.models import Layer, Scope


class ProposalForm(forms.Form):
    """What the owner may change in a proposal before approving it. Validation of the values themselves
    belongs to ``memories.lifecycle``; this only shapes the input."""

    text = forms.CharField(label=_("Text"), max_length=MAX_TEXT_LENGTH, widget=forms.Textarea(attrs={"rows": 3}))
    kind = forms.CharField(label=_("Kind"), max_length=64)
    subject = forms.CharField(label=_("Subject"), max_length=MAX_LABEL_LENGTH, required=False)
    scope = forms.ChoiceField(label=_("Scope"), choices=Scope.choices)
    project = forms.CharField(label=_("Project"), max_length=MAX_LABEL_LENGTH, required=False)
    layer = forms.ChoiceField(label=_("Layer"), choices=Layer.choices)
    ttl = forms.CharField(
        label=_("Expires after"),
        required=False,
        max_length=20,
        help_text=_("Like 7d, 12h or 2w from now; empty keeps the current expiry."),
    )
    no_expiry = forms.BooleanField(label=_("Never expires"), required=False)
    pinned = forms.BooleanField(label=_("Pinned"), required=False)

    @classmethod
    def for_memory(cls, memory, **kwargs):
        fields = ("text", "kind", "subject", "scope", "project", "layer", "pinned")
        return cls(initial={field: getattr(memory, field) for field in fields}, **kwargs)

    def clean_ttl(self):
        value = self.cleaned_data["ttl"].strip()
        if not value:
            return None
        try:
            return parse_ttl(value)
        except ValueError:
            raise forms.ValidationError(
                _("Give a positive number followed by s, m, h, d or w, like 7d or 12h.")
            ) from None

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("ttl") and cleaned.get("no_expiry"):
            raise forms.ValidationError(_("Choose either an expiry or never expires, not both."))
        return cleaned


class MemoryIdsField(forms.TypedMultipleChoiceField):
    """Ticked memory ids: whole numbers an id can be (whether they exist is the write path's to say)."""

    def __init__(self, **kwargs):
        super().__init__(coerce=int, **kwargs)

    def valid_value(self, value):
        value = str(value)
        return value.isascii() and value.isdigit() and 1 <= int(value) <= MAX_ID


class SelectionForm(forms.Form):
    """The memories ticked in a list, and what to do with them."""

    ids = MemoryIdsField(error_messages={"required": _("Select at least one memory.")})

    def __init__(self, *args, actions, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["action"] = forms.ChoiceField(choices=actions)


class ProfileRequestForm(forms.Form):
    """Whose core profile to show: what a request of this user, channel and project always gets."""

    user = forms.CharField(label=_("User"), max_length=MAX_LABEL_LENGTH, required=False)
    channel = forms.CharField(label=_("Channel"), max_length=MAX_LABEL_LENGTH, required=False)
    project = forms.CharField(label=_("Project"), max_length=MAX_LABEL_LENGTH, required=False)
