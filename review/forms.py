"""Forms of the review console: adding and editing memories, edit-before-approve, and the selections of the
bulk actions."""

from django import forms
from django.utils.functional import lazy
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from memories.lifecycle import MAX_ID, MAX_LABEL_LENGTH, MAX_TEXT_LENGTH, parse_ttl
from memories.models import Layer, Scope


def ttl_from(value):
    """A TTL typed in the console (``7d``, ``12h``), or None when the field was left empty."""
    value = value.strip()
    if not value:
        return None
    try:
        return parse_ttl(value)
    except ValueError:
        raise forms.ValidationError(_("Give a positive number followed by s, m, h, d or w, like 7d or 12h.")) from None


def kind_help():
    """The kind's help: what to type, with examples of the values themselves as code."""
    kinds = ("preference", "fact", "project_context")
    examples = format_html_join(", ", "<code>{}</code>", ((kind,) for kind in kinds))
    return format_html("{} {}", _("A lower-case word, with _ between words, like:"), examples)


class MemoryForm(forms.Form):
    """What the owner writes in a memory: adding one from the memory list. Validation of the values
    themselves belongs to ``memories.lifecycle``; this only shapes the input."""

    text = forms.CharField(label=_("Text"), max_length=MAX_TEXT_LENGTH, widget=forms.Textarea(attrs={"rows": 3}))
    kind = forms.CharField(
        label=_("Kind"),
        max_length=64,
        help_text=lazy(kind_help, SafeString)(),
    )
    subject = forms.CharField(label=_("Subject"), max_length=MAX_LABEL_LENGTH, required=False)
    scope = forms.ChoiceField(label=_("Scope"), choices=Scope.choices, initial=Scope.CORE)
    project = forms.CharField(label=_("Project"), max_length=MAX_LABEL_LENGTH, required=False)
    layer = forms.ChoiceField(label=_("Layer"), choices=Layer.choices, initial=Layer.WORKING)
    ttl = forms.CharField(
        label=_("Expires after"),
        required=False,
        max_length=20,
        help_text=_("Like 7d, 12h or 2w from now; empty never expires."),
    )

    def clean_ttl(self):
        return ttl_from(self.cleaned_data["ttl"])


class EditForm(MemoryForm):
    """What the owner may change in a memory: the memory detail's edit, in place."""

    no_expiry = forms.BooleanField(label=_("Never expires"), required=False)

    FIELDS = ("text", "kind", "subject", "scope", "project", "layer")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["kind"].help_text = ""
        self.fields["ttl"].help_text = _("Like 7d, 12h or 2w from now; empty keeps the current expiry.")

    @classmethod
    def for_memory(cls, memory, **kwargs):
        return cls(initial={field: getattr(memory, field) for field in cls.FIELDS}, **kwargs)

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("ttl") and cleaned.get("no_expiry"):
            raise forms.ValidationError(_("Choose either an expiry or never expires, not both."))
        return cleaned


class ProposalForm(EditForm):
    """What the owner may change in a proposal before approving it."""

    pinned = forms.BooleanField(label=_("Pinned"), required=False)

    FIELDS = (*EditForm.FIELDS, "pinned")


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
