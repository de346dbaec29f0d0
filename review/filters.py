"""The console's list filters: the pending queue and the memory list (django-filter)."""

from dataclasses import dataclass

import django_filters
from django import forms
from django.utils.translation import gettext_lazy as _

from memories.models import STATE_LABELS, Layer, Memory, Scope, SourceKind
from memories.retrieval.finding import find

STATES = list(STATE_LABELS.items())
YES_NO = [("true", _("yes")), ("false", _("no"))]


@dataclass(frozen=True)
class Chip:
    """A filter in use, in words ("Flagged: yes"), and as the query names it (``flagged=true``)."""

    label: str
    value: str
    query: str


class _MemoryFilter(django_filters.FilterSet):
    q = django_filters.CharFilter(label=_("Search"), method="search", widget=forms.TextInput(attrs={"type": "search"}))
    kind = django_filters.CharFilter(label=_("Kind"))
    scope = django_filters.ChoiceFilter(label=_("Scope"), choices=Scope.choices, empty_label=_("any"))
    source_kind = django_filters.ChoiceFilter(label=_("Source kind"), choices=SourceKind.choices, empty_label=_("any"))
    user = django_filters.CharFilter(label=_("User"))
    channel = django_filters.CharFilter(label=_("Channel"))
    project = django_filters.CharFilter(label=_("Project"))

    class Meta:
        model = Memory
        fields = []

    def search(self, queryset, name, value):
        return find(queryset, value) if value.strip() else queryset

    def chips(self):
        """The filters in use, each as a ``Chip``: what a confirmation says it applies to."""
        chips = []
        for bound in self.form:
            value = bound.value()
            if isinstance(value, list):  # a range of dates, from and to
                if not any(value):
                    continue
                shown = " – ".join(end or "…" for end in value)
            elif not value:
                continue
            else:
                shown = dict(getattr(bound.field, "choices", ())).get(value, value)
            query = " ".join(
                f"{key}={self.data[key]}"
                for key in self.data
                if (key == bound.name or key.startswith(f"{bound.name}_")) and self.data[key]
            )
            chips.append(Chip(bound.label, shown, query))
        return chips


class PendingFilter(_MemoryFilter):
    """Filters of the pending queue; the queryset it narrows is ``Memory.objects.pending()``."""

    flagged = django_filters.ChoiceFilter(
        label=_("Flagged"), choices=YES_NO, empty_label=_("any"), method="filter_flagged"
    )
    created = django_filters.DateFromToRangeFilter(
        label=_("Proposed between"),
        field_name="created_at",
        widget=django_filters.widgets.DateRangeWidget(attrs={"type": "date"}),
    )

    def filter_flagged(self, queryset, name, value):
        return queryset.flagged() if value == "true" else queryset.filter(flags=[])


class MemoryFilter(_MemoryFilter):
    """Filters of the memory list (and of the export download)."""

    state = django_filters.ChoiceFilter(label=_("State"), choices=STATES, empty_label=_("any"), method="filter_state")
    layer = django_filters.ChoiceFilter(label=_("Layer"), choices=Layer.choices, empty_label=_("any"))
    pinned = django_filters.ChoiceFilter(
        label=_("Pinned"), choices=YES_NO, empty_label=_("any"), method="filter_pinned"
    )

    def filter_pinned(self, queryset, name, value):
        return queryset.filter(pinned=value == "true")

    def filter_state(self, queryset, name, value):
        return queryset.in_state(value)
