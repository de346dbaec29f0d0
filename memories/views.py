"""Pages of the ``memories`` app: the retrieval preview (SPEC §8), "what would Bestie see for this query,
and why". A thin view over ``memories.retrieval.build_context``, the function the agent API calls."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.views.decorators.http import require_GET

from memories import retrieval
from memories.forms import PreviewForm
from memories.lifecycle import InvalidValue


@login_required
@require_GET
def preview(request):
    form = PreviewForm(request.GET or None)
    context = None
    if form.is_valid() and form.cleaned_data["q"].strip():
        data = form.cleaned_data
        try:
            # A preview only looks: the memories it shows are not counted as used.
            context = retrieval.build_context(
                data["q"],
                user=data["user"],
                channel=data["channel"],
                project=data["project"],
                budget_tokens=data["budget"],
                limit=data["limit"],
                record_access=False,
            )
        except InvalidValue as error:
            form.add_error(None, str(error))
    return render(request, "memories/preview.html", {"form": form, "context": context})
