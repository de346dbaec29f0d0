"""Forms of the ``memories`` pages: the retrieval preview's request."""

from django import forms
from django.utils.translation import gettext_lazy as _

from memories.lifecycle import MAX_LABEL_LENGTH
from memories.retrieval import MAX_QUERY_LENGTH


class PreviewForm(forms.Form):
    q = forms.CharField(label=_("Query"), max_length=MAX_QUERY_LENGTH, required=False)
    user = forms.CharField(label=_("User"), max_length=MAX_LABEL_LENGTH, required=False)
    channel = forms.CharField(label=_("Channel"), max_length=MAX_LABEL_LENGTH, required=False)
    project = forms.CharField(label=_("Project"), max_length=MAX_LABEL_LENGTH, required=False)
    budget = forms.IntegerField(label=_("Working budget (tokens)"), min_value=1, required=False)
    limit = forms.IntegerField(label=_("At most (working memories)"), min_value=1, required=False)
