"""The owner's review console (SPEC §8): dashboard, pending queue, memory list and detail, export.

Thin views over ``memories.lifecycle``: every decision goes through it with the owner as actor, so the
console has the same checks and audit history as the command line and the API. Pages work without
JavaScript; with htmx, filters and decisions swap the named partials of the same templates.
"""

from collections import Counter
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.db.models import Min
from django.http import HttpResponseBadRequest, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import (
    HttpResponseClientRedirect,
    HttpResponseLocation,
    reswap,
    retarget,
    trigger_client_event,
)

from memories import lifecycle, reports, transfer
from memories.lifecycle import actors, deletions, proposals
from memories.models import AuditEvent, Memory, MemorySettings, SourceKind, Status, state_label
from review import drift, profile, undo
from review.filters import MemoryFilter, PendingFilter
from review.forms import EditForm, MemoryForm, ProfileRequestForm, ProposalForm, SelectionForm

PAGE_SIZE = 50
# Past the last row any table can have: ?page=1e30 shows an empty page, not an overflow.
MAX_PAGE = lifecycle.MAX_ID // PAGE_SIZE
# Deletion requests shown above the proposals: agents ask for few, and the owner decides them in a batch.
DELETIONS_SHOWN = 100
# Rows per lifecycle call when deciding a whole filtered set: each call is one UPDATE and one INSERT.
DECISION_CHUNK = 2000
# Query parameters that are not filters.
NOT_FILTERS = {"page", "decision", "expected", "select"}


def fragment(request):
    """An htmx request that wants a piece of the page (a history restore wants the whole page)."""
    return bool(request.htmx) and not request.htmx.history_restore_request


def back(request, default):
    """Where a form came from (its ``next`` field), if that is a path on this site; ``default`` otherwise
    (``redirect`` would read a bare word as the name of a view)."""
    target = request.POST.get("next", "")
    if target.startswith("/") and url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
        return target
    return default


def login(request):
    """The console's login page. An htmx call whose session has ended is redirected here too; the
    browser is sent to log in for the page it was showing, instead of the form landing in a fragment."""
    if fragment(request):
        shown = urlsplit(request.htmx.current_url or "")
        page = (shown.path + (f"?{shown.query}" if shown.query else "")) or reverse("review:dashboard")
        return HttpResponseClientRedirect(f"{reverse('login')}?{urlencode({'next': page})}")
    return login_form(request)


login_form = auth_views.LoginView.as_view(template_name="registration/login.html")


def filter_params(data):
    """The filter fields of a query, as (name, value) pairs to carry through a confirmation form."""
    return [(name, value) for name, values in data.lists() if name not in NOT_FILTERS for value in values if value]


@dataclass(frozen=True)
class Page:
    """One page of a list, without counting the list: a whole-table COUNT would grow with the queue,
    and a filter that matches few rows would make even a capped count read every row."""

    rows: list
    number: int
    has_next: bool

    @property
    def has_previous(self):
        return self.number > 1

    @property
    def previous_page_number(self):
        return self.number - 1

    @property
    def next_page_number(self):
        return self.number + 1

    @property
    def start_index(self):
        return (self.number - 1) * PAGE_SIZE + 1

    @property
    def end_index(self):
        return self.start_index + len(self.rows) - 1


def page_of(queryset, request):
    """The requested page (``?page=N``), read as one more row than it shows to know if there is a next."""
    try:
        number = min(max(1, int(request.GET.get("page", 1))), MAX_PAGE)
    except ValueError:
        number = 1
    start = (number - 1) * PAGE_SIZE
    rows = list(queryset[start : start + PAGE_SIZE + 1])
    return Page(rows=rows[:PAGE_SIZE], number=number, has_next=len(rows) > PAGE_SIZE)


# ---------------------------------------------------------------------------------------------------
# Dashboard


@require_GET
@login_required
def dashboard(request):
    now = timezone.now()
    pending = Memory.objects.pending(now)
    context = {
        "tiers": reports.tiers(now),
        "pending_count": pending.count(),
        "oldest_pending_at": pending.aggregate(at=Min("created_at"))["at"],
        "flagged_count": pending.flagged().count(),
        "deletion_count": deletions.pending_requests().count(),
        "settings": MemorySettings.load(),
    }
    return render(request, "review/dashboard.html", context)


# ---------------------------------------------------------------------------------------------------
# Pending queue


def pending_filter(data):
    return PendingFilter(data, queryset=Memory.objects.pending().select_related("message"))


def pending_rows(filterset):
    rows = filterset.qs
    # A search orders by relevance; otherwise the queue reads oldest first.
    return rows if filterset.form.cleaned_data.get("q", "").strip() else rows.order_by("created_at", "id")


def for_queue(memories):
    """Each proposal as the queue shows it: ``may_replace``, the live memories it says otherwise than
    (possible updates); ``second_step``, whether approving it asks first (it is flagged);
    ``flag_explanations``, its flags in plain words; and ``suggested_core``, whether it is of what the
    core profile holds."""
    updates = proposals.possible_updates(memories)
    flagged = proposals.needing_second_step([memory.pk for memory in memories])
    for memory in memories:
        memory.may_replace = updates.get(memory.pk, [])
        memory.second_step = memory.pk in flagged
        memory.flag_explanations = [proposals.explain_flag(flag) for flag in memory.flags or []]
        memory.suggested_core = profile.belongs_to_profile(memory)
    return memories


@require_GET
@login_required
def pending(request):
    filterset = pending_filter(request.GET)
    filterset.is_valid()
    page = page_of(pending_rows(filterset), request)
    for_queue(page.rows)
    context = {"filter": filterset, "page": page, "deletions": list(deletions.pending_requests()[:DELETIONS_SHOWN])}
    template = "review/pending.html#table" if fragment(request) else "review/pending.html"
    return render(request, template, context)


def pending_memory(memory_id):
    """A memory that must still be pending for the owner to decide on it."""
    memory = get_object_or_404(Memory.objects.select_related("message"), pk=memory_id)
    if memory.state() != "pending":
        state = state_label(memory.state())
        raise lifecycle.LifecycleError(
            _("Memory #%(id)s is %(state)s, no longer pending.") % {"id": memory.pk, "state": state}
        )
    return memory


def outcome(request, memory_id, text, ok=True, changes=None):
    """What became of one proposal: the partial that replaces its item, or a message and the queue; what
    ``changes`` recorded can be undone from either."""
    if fragment(request):
        token = undo.offer(request, changes, text) if changes else None
        context = {"memory_id": memory_id, "text": text, "ok": ok, "undo_token": token}
        return render(request, "review/pending.html#outcome", context)
    if changes:
        undo.done(request, changes, text)
    else:
        (messages.success if ok else messages.error)(request, text)
    return redirect(back(request, reverse("review:pending")))


@require_GET
@login_required
def pending_item(request, memory_id):
    """One proposal as it shows in the queue (htmx puts it back after an edit is cancelled)."""
    if not fragment(request):
        return redirect("review:memory-detail", memory_id=memory_id)
    try:
        memory = pending_memory(memory_id)
    except lifecycle.LifecycleError as error:
        return outcome(request, memory_id, str(error), ok=False)
    return render(request, "review/pending.html#item", {"memory": for_queue([memory])[0]})


def confirmed(request):
    return request.POST.get("confirm") == "yes"


def second_step(request, memory_id, carry=()):
    """The confirmation a flagged proposal gets before it is approved: its flags in plain words and an
    explicit "Approve anyway", posted back to the same approval with ``carry`` (its other fields) and
    ``confirm=yes``. None when the proposal needs no second step, or it was given."""
    if confirmed(request) or not proposals.needing_second_step([memory_id]):
        return None
    try:
        memory = for_queue([pending_memory(memory_id)])[0]
    except lifecycle.LifecycleError as error:
        return outcome(request, memory_id, str(error), ok=False)
    context = {
        "memory": memory,
        "explanations": [proposals.explain_flag(flag) for flag in memory.flags],
        "action_url": request.path,
        "carry": carry,
        "inline": fragment(request),
        "next": back(request, reverse("review:pending")),
    }
    template = "review/approve_flagged.html#card" if fragment(request) else "review/approve_flagged.html"
    return render(request, template, context)


@require_POST
@login_required
def decide_one(request, memory_id, decision):
    if decision == "approve" and (asked := second_step(request, memory_id)):
        return asked
    decide = lifecycle.approve if decision == "approve" else lifecycle.reject
    try:
        with undo.recording() as changes:
            decide([memory_id], actor=actors.owner(request.user))
    except lifecycle.LifecycleError as error:
        return outcome(request, memory_id, str(error), ok=False)
    text = _("Approved #%(id)s.") if decision == "approve" else _("Rejected #%(id)s.")
    return outcome(request, memory_id, text % {"id": memory_id}, changes=changes)


@require_POST
@login_required
def approve_update(request, memory_id):
    """Approve a possible update and let it supersede the memories it says otherwise than."""
    if asked := second_step(request, memory_id, [("replaces", pk) for pk in request.POST.getlist("replaces")]):
        return asked
    try:
        with undo.recording() as changes:
            replaced = proposals.approve_as_update(
                memory_id, request.POST.getlist("replaces"), actor=actors.owner(request.user)
            )
    except lifecycle.LifecycleError as error:
        return outcome(request, memory_id, str(error), ok=False)
    old = ", ".join(f"#{pk}" for pk in replaced)
    text = _("Approved #%(id)s; it replaces %(old)s.") % {"id": memory_id, "old": old}
    return outcome(request, memory_id, text, changes=changes)


def apply_changes(memory, data, who):
    """The owner's corrections of an ``EditForm``, each through its lifecycle function (the caller holds
    the transaction). Returns whether anything was to change."""
    changes = {
        "text": " ".join(data["text"].split()) != memory.text,
        "labels": (data["kind"], data["subject"]) != (memory.kind, memory.subject),
        "placement": (data["scope"], data["layer"], data["project"]) != (memory.scope, memory.layer, memory.project),
        "expiry": bool(data["ttl"]) or (data["no_expiry"] and memory.expires_at is not None),
    }
    if changes["text"]:
        lifecycle.edit(memory.pk, data["text"], actor=who)
    if changes["labels"]:
        lifecycle.relabel(memory.pk, actor=who, kind=data["kind"], subject=data["subject"])
    if changes["placement"]:
        lifecycle.move(memory.pk, actor=who, scope=data["scope"], layer=data["layer"], project=data["project"])
    if changes["expiry"]:
        lifecycle.set_expiry(memory.pk, actor=who, ttl=data["ttl"])
    return any(changes.values())


@require_POST
@login_required
def approve_into_core(request, memory_id):
    """Approve a proposal straight into the core profile (the queue suggests it for one that belongs there)."""
    if asked := second_step(request, memory_id):
        return asked
    try:
        profile.approve_into_core(memory_id, actor=actors.owner(request.user))
    except lifecycle.LifecycleError as error:
        return outcome(request, memory_id, str(error), ok=False)
    return outcome(request, memory_id, _("Approved #%(id)s into the core profile.") % {"id": memory_id})


def apply_edit(memory, data, who, approve):
    """The owner's corrections of a proposal, then the approval: all or nothing."""
    with transaction.atomic():
        apply_changes(memory, data, who)
        if data["pinned"] != memory.pinned:
            (lifecycle.pin if data["pinned"] else lifecycle.unpin)(memory.pk, actor=who)
        if approve:
            lifecycle.approve([memory.pk], actor=who)


@require_http_methods(["GET", "POST"])
@login_required
def edit_proposal(request, memory_id):
    """Edit a proposal before approving it. A flagged one shows its flags in plain words, and is approved
    only with "Save and approve anyway" (the form's ``confirm``): the edit form is its second step."""
    try:
        memory = pending_memory(memory_id)
    except lifecycle.LifecycleError as error:
        return outcome(request, memory_id, str(error), ok=False)
    flagged = bool(proposals.needing_second_step([memory.pk]))
    if request.method == "POST":
        form = ProposalForm(request.POST)
        approve = request.POST.get("then") == "approve"
        if approve and flagged and not confirmed(request):
            form.add_error(None, _("This proposal is flagged: read why above, then choose Save and approve anyway."))
        if form.is_valid():
            try:
                with undo.recording() as changes:
                    apply_edit(memory, form.cleaned_data, actors.owner(request.user), approve)
            except lifecycle.LifecycleError as error:
                field = getattr(error, "field", None)
                form.add_error(field if field in form.fields else None, str(error))
            else:
                if approve:
                    text = _("Edited and approved #%(id)s.") % {"id": memory.pk}
                    return outcome(request, memory.pk, text, changes=changes)
                if fragment(request):
                    item = for_queue([pending_memory(memory.pk)])[0]
                    return render(request, "review/pending.html#item", {"memory": item})
                undo.done(request, changes, _("Saved #%(id)s.") % {"id": memory.pk})
                return redirect(back(request, reverse("review:pending")))
    else:
        form = ProposalForm.for_memory(memory)
    context = {
        "memory": memory,
        "form": form,
        "explanations": [proposals.explain_flag(flag) for flag in memory.flags] if flagged else [],
    }
    template = "review/pending_edit.html#form" if fragment(request) else "review/pending_edit.html"
    return render(request, template, context)


# Lazy: a list made at import time would hold the words of the language active then, whatever the owner's.
DECISIONS = [("approve", gettext_lazy("approve")), ("reject", gettext_lazy("reject"))]


def decided(decision, count):
    if decision == "approve":
        return ngettext("Approved %(count)d proposal.", "Approved %(count)d proposals.", count) % {"count": count}
    return ngettext("Rejected %(count)d proposal.", "Rejected %(count)d proposals.", count) % {"count": count}


def leave_out_flagged(request, ids, flagged):
    """``ids`` without the flagged ones unless the owner ticked that they are included, and how many were
    left out."""
    if request.POST.get("include_flagged") == "yes":
        return ids, 0
    kept = [memory_id for memory_id in ids if memory_id not in flagged]
    return kept, len(ids) - len(kept)


def say_left_out(request, count):
    if count:
        messages.warning(
            request,
            ngettext(
                "%(count)d flagged proposal was left out: it is still pending.",
                "%(count)d flagged proposals were left out: they are still pending.",
                count,
            )
            % {"count": count},
        )


def flag_counts(flagged):
    """How many of the flagged proposals (``{id: flags}``) carry each flag: ``[(plain words, count), …]``."""
    counts = Counter(flag for flags in flagged.values() for flag in flags)
    return [(proposals.explain_flag(flag), count) for flag, count in counts.most_common()]


def confirm_selected(request, ids, flagged):
    """Approving ticked proposals among which some are flagged: a page that says how many and why, where
    they are included only by ticking a box."""
    context = {
        "selected": True,
        "decision": "approve",
        "ids": ids,
        "count": len(ids),
        "flagged_count": len(flagged),
        "unflagged_count": len(ids) - len(flagged),
        "flag_counts": flag_counts(flagged),
        "flagged_memories": Memory.objects.filter(pk__in=list(flagged)).order_by("id"),
        "next": back(request, reverse("review:pending")),
    }
    if fragment(request):
        # The queue's bulk form asked with htmx: the confirmation takes the page's place.
        response = render(request, "review/pending_confirm.html#confirm", context)
        return reswap(retarget(response, "main"), "innerHTML")
    return render(request, "review/pending_confirm.html", context)


@require_POST
@login_required
def decide_selected(request):
    """Approve or reject the ticked proposals: all of them or, if one cannot be, none. Flagged ones are
    approved only when the confirmation's box includes them."""
    form = SelectionForm(request.POST, actions=DECISIONS)
    if form.is_valid():
        ids, decision = list(dict.fromkeys(form.cleaned_data["ids"])), form.cleaned_data["action"]
        left_out = 0
        if decision == "approve" and (flagged := proposals.needing_second_step(ids)):
            if not confirmed(request):
                return confirm_selected(request, ids, flagged)
            ids, left_out = leave_out_flagged(request, ids, flagged)
        decide = lifecycle.approve if decision == "approve" else lifecycle.reject
        try:
            with undo.recording() as changes:
                count = decide(ids, actor=actors.owner(request.user)) if ids else 0
        except lifecycle.LifecycleError as error:
            messages.error(request, str(error))
        else:
            undo.done(request, changes, decided(decision, count))
            say_left_out(request, left_out)
    else:
        for errors in form.errors.values():
            messages.error(request, " ".join(errors))
    target = back(request, reverse("review:pending"))
    if fragment(request):
        # htmx fetches the queue again as the page showed it, filters and messages included.
        return HttpResponseLocation(target, target="#table", swap="outerHTML")
    return redirect(target)


@transaction.atomic
def decide_all(ids, decision, who):
    """Decide a whole filtered set, a chunk per lifecycle call so no statement grows with the set."""
    decide = lifecycle.approve if decision == "approve" else lifecycle.reject
    return sum(decide(ids[i : i + DECISION_CHUNK], actor=who) for i in range(0, len(ids), DECISION_CHUNK))


@require_http_methods(["GET", "POST"])
@login_required
def decide_filtered(request):
    """Approve or reject every proposal the filters match, after a confirmation that shows how many (and,
    approving, how many of them are flagged and why: they are left out unless its box is ticked)."""
    data = request.POST if request.method == "POST" else request.GET
    decision = data.get("decision")
    if decision not in ("approve", "reject"):
        return HttpResponseBadRequest(_("decision must be approve or reject"))
    filterset = pending_filter(data)
    params = filter_params(data)
    pending_url = reverse("review:pending") + "?" + urlencode(params)
    if not filterset.is_valid():
        messages.error(request, _("Fix the filters first: nothing was decided."))
        return redirect(pending_url)
    ids = list(filterset.qs.order_by().values_list("pk", flat=True))
    flagged = proposals.needing_second_step(ids) if decision == "approve" else {}
    expected = (str(len(ids)), str(len(flagged)))
    if request.method == "POST" and ids and (data.get("expected"), data.get("expected_flagged", "0")) == expected:
        ids, left_out = leave_out_flagged(request, ids, flagged)
        try:
            with undo.recording() as changes:
                count = decide_all(ids, decision, actors.owner(request.user))
        except lifecycle.LifecycleError as error:
            messages.error(request, str(error))
            return redirect(pending_url)
        undo.done(request, changes, decided(decision, count))
        say_left_out(request, left_out)
        return redirect(pending_url)
    if request.method == "POST":
        messages.warning(request, _("The proposals matching these filters changed; check the count again."))
    context = {
        "decision": decision,
        "count": len(ids),
        "flagged_count": len(flagged),
        "unflagged_count": len(ids) - len(flagged),
        "flag_counts": flag_counts(flagged),
        "flagged_url": reverse("review:pending")
        + "?"
        + urlencode([*((name, value) for name, value in params if name != "flagged"), ("flagged", "true")]),
        "params": params,
        "filter": filterset,
        "cancel": pending_url,
    }
    return render(request, "review/pending_confirm.html", context)


@require_http_methods(["GET", "POST"])
@login_required
def reject_all(request):
    """Reject every pending proposal, after a confirmation that shows how many."""
    if request.method == "POST" and request.POST.get("confirm") == "yes":
        with undo.recording() as changes:
            count = lifecycle.reject_all(actor=actors.owner(request.user))
        text = ngettext("Rejected %(count)d proposal.", "Rejected %(count)d proposals.", count) % {"count": count}
        undo.done(request, changes, text)
        return redirect("review:pending")
    return render(
        request, "review/pending_confirm.html", {"count": Memory.objects.pending().count(), "everything": True}
    )


DELETION_DECISIONS = [("approve", gettext_lazy("forget")), ("reject", gettext_lazy("keep"))]


@require_POST
@login_required
def decide_deletions(request):
    """Forget the memories agents asked to erase (after a confirmation listing them), or keep them."""
    form = SelectionForm(request.POST, actions=DELETION_DECISIONS)
    if not form.is_valid():
        for errors in form.errors.values():
            messages.error(request, " ".join(errors))
        return redirect("review:pending")
    ids, decision = form.cleaned_data["ids"], form.cleaned_data["action"]
    if decision == "approve" and request.POST.get("confirm") != "yes":
        chosen = deletions.pending_requests().filter(pk__in=ids)
        return render(
            request, "review/deletions_confirm.html", {"requests": chosen, "missing": len(set(ids)) - len(chosen)}
        )
    who = actors.owner(request.user)
    try:
        if decision == "approve":
            count = len(deletions.approve(ids, actor=who))
            text = ngettext("Forgot %(count)d memory.", "Forgot %(count)d memories.", count)
        else:
            count = deletions.reject(ids, actor=who)
            text = ngettext("Kept %(count)d memory.", "Kept %(count)d memories.", count)
    except lifecycle.LifecycleError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, text % {"count": count})
    return redirect("review:pending")


# ---------------------------------------------------------------------------------------------------
# Memories


def memory_filter(data):
    return MemoryFilter(data, queryset=Memory.objects.all())


def list_context(request, add_form=None):
    filterset = memory_filter(request.GET)
    filterset.is_valid()
    rows = filterset.qs
    if not filterset.form.cleaned_data.get("q", "").strip():
        rows = rows.order_by("-id")
    return {"filter": filterset, "page": page_of(rows, request), "add_form": add_form or MemoryForm(prefix="add")}


@require_GET
@login_required
def memory_list(request):
    template = "review/memory_list.html#table" if fragment(request) else "review/memory_list.html"
    return render(request, template, list_context(request))


@require_POST
@login_required
def memory_add(request):
    """A memory the owner writes, from the memory list: approved at once, as ``bestie memory add`` does."""
    form = MemoryForm(request.POST, prefix="add")
    if form.is_valid():
        data = form.cleaned_data
        try:
            with undo.recording() as changes:
                memory = lifecycle.add(
                    **{name: data[name] for name in ("text", "kind", "subject", "scope", "layer", "project", "ttl")},
                    source="console",
                    source_kind=SourceKind.OWNER,
                    status=Status.APPROVED,
                    actor=actors.owner(request.user),
                )
        except lifecycle.LifecycleError as error:
            field = getattr(error, "field", None)
            form.add_error(field if field in form.fields else None, str(error))
        else:
            undo.done(request, changes, _("Added #%(id)s.") % {"id": memory.pk})
            if fragment(request):
                # A fresh form for the next one; the table below fetches itself again.
                response = render(request, "review/memory_list.html#add", {"add_form": MemoryForm(prefix="add")})
                return trigger_client_event(response, "memory-added")
            return redirect(back(request, reverse("review:memory-list")))
    if fragment(request):
        return render(request, "review/memory_list.html#add", {"add_form": form})
    return render(request, "review/memory_list.html", list_context(request, add_form=form))


def _in_order(ids):
    found = Memory.objects.in_bulk(ids)
    return [found[i] for i in ids if i in found]


def detail_context(memory):
    history = list(AuditEvent.objects.filter(memory_id=memory.pk).order_by("id"))
    return {
        "memory": memory,
        "state": memory.state(),
        "current": lifecycle.is_current(memory),
        "editable": memory.is_live(),
        "history": [
            (event, [(name, (event.old or {}).get(name), value) for name, value in (event.new or {}).items()])
            for event in history
        ],
        # An add is undone from the banner that confirmed it, not from the history: undoing it hides the
        # memory for good, which is Forget's to do, after its confirmation.
        "revertible": lifecycle.revertible([event for event in history if event.event != AuditEvent.Event.ADD]),
        "replaced": Memory.objects.filter(pk__in=lifecycle.predecessors([memory.pk])).order_by("-id"),
        "replaced_by": _in_order(lifecycle.successors(memory)),
    }


@require_GET
@login_required
def memory_detail(request, memory_id):
    memory = get_object_or_404(Memory.objects.select_related("message"), pk=memory_id)
    template = "review/memory_detail.html#detail" if fragment(request) else "review/memory_detail.html"
    return render(request, template, detail_context(memory))


def show_memory(request, memory_id):
    """Back to a memory's page after a change to it; htmx swaps the page's content in place."""
    url = reverse("review:memory-detail", args=[memory_id])
    if fragment(request):
        return HttpResponseLocation(url, target="#detail", swap="outerHTML")
    return redirect(url)


@require_http_methods(["GET", "POST"])
@login_required
def memory_edit(request, memory_id):
    """Edit a live memory's text, labels, placement and expiry: in place on its page with htmx, or on a
    page of its own. All the changes or, if one is refused, none."""
    memory = get_object_or_404(Memory, pk=memory_id)
    if not memory.is_live():
        state = state_label(memory.state())
        messages.error(
            request,
            _("Memory #%(id)s is %(state)s: only a live memory is edited here.") % {"id": memory.pk, "state": state},
        )
        return show_memory(request, memory.pk)
    if request.method == "POST":
        form = EditForm(request.POST)
        if form.is_valid():
            try:
                with transaction.atomic(), undo.recording() as changes:
                    changed = apply_changes(memory, form.cleaned_data, actors.owner(request.user))
            except lifecycle.LifecycleError as error:
                field = getattr(error, "field", None)
                form.add_error(field if field in form.fields else None, str(error))
            else:
                if changed:
                    undo.done(request, changes, _("Saved #%(id)s.") % {"id": memory.pk})
                else:
                    messages.info(request, _("Nothing to change in #%(id)s.") % {"id": memory.pk})
                return show_memory(request, memory.pk)
    else:
        form = EditForm.for_memory(memory)
    template = "review/memory_edit.html#form" if fragment(request) else "review/memory_edit.html"
    return render(request, template, {"memory": memory, "form": form})


def memory_changes():
    """What the buttons of a memory's page do, and what the console says once it is done."""
    return {
        "pin": (lifecycle.pin, _("Pinned #%(id)s.")),
        "unpin": (lifecycle.unpin, _("Unpinned #%(id)s.")),
        "confirm": (lifecycle.confirm, _("Confirmed #%(id)s.")),
    }


@require_POST
@login_required
def memory_change(request, memory_id, action):
    """Pin, unpin or confirm one memory from its page; a refusal (a rejected or replaced memory) is shown."""
    memory = get_object_or_404(Memory, pk=memory_id)
    change, done = memory_changes()[action]
    try:
        with undo.recording() as changes:
            change(memory.pk, actor=actors.owner(request.user))
    except lifecycle.LifecycleError as error:
        messages.error(request, str(error))
    else:
        undo.done(request, changes, done % {"id": memory.pk})
    return show_memory(request, memory.pk)


MEMORY_ACTIONS = [
    ("pin", gettext_lazy("pin")),
    ("unpin", gettext_lazy("unpin")),
    ("confirm", gettext_lazy("confirm")),
    ("forget", gettext_lazy("forget")),
]


def apply_to_memories(ids, action, who):
    """One action on every selected memory: all of them or, if one cannot be changed, none."""
    with transaction.atomic():
        if action == "forget":
            # The owner confirmed the list on the confirmation page.
            erased = set()
            for memory_id in ids:
                if memory_id not in erased:
                    erased.update(lifecycle.forget(memory_id, actor=who, confirmed=True).erased)
            return len(erased)
        change = {"pin": lifecycle.pin, "unpin": lifecycle.unpin, "confirm": lifecycle.confirm}[action]
        for memory_id in ids:
            change(memory_id, actor=who)
        return len(ids)


@require_POST
@login_required
def memory_bulk(request):
    """Pin, unpin, confirm or forget the ticked memories, after a confirmation listing them."""
    form = SelectionForm(request.POST, actions=MEMORY_ACTIONS)
    if not form.is_valid():
        for errors in form.errors.values():
            messages.error(request, " ".join(errors))
        return redirect(back(request, reverse("review:memory-list")))
    ids, action = form.cleaned_data["ids"], form.cleaned_data["action"]
    if request.POST.get("confirm") != "yes":
        context = {
            "action": action,
            "action_label": dict(MEMORY_ACTIONS)[action],
            "memories": Memory.objects.filter(pk__in=ids).order_by("id"),
            "missing": len(set(ids)) - Memory.objects.filter(pk__in=ids).count(),
            "next": back(request, reverse("review:memory-list")),
        }
        return render(request, "review/memory_confirm.html", context)
    try:
        with undo.recording() as changes:
            count = apply_to_memories(ids, action, actors.owner(request.user))
    except lifecycle.LifecycleError as error:
        messages.error(request, str(error))
        return redirect(back(request, reverse("review:memory-list")))
    text = ngettext("%(action)s: %(count)d memory.", "%(action)s: %(count)d memories.", count) % {
        "action": dict(MEMORY_ACTIONS)[action].capitalize(),
        "count": count,
    }
    undo.done(request, changes, text)
    if action == "forget":
        return redirect("review:memory-list")
    return redirect(back(request, reverse("review:memory-list")))


@require_GET
@login_required
def export(request):
    """The export document of ``bestie memory export``, streamed; the memory list's filters narrow it."""
    memories = None
    if filter_params(request.GET):
        filterset = memory_filter(request.GET)
        if not filterset.is_valid():
            return HttpResponseBadRequest(
                _("The filters are not valid: %(errors)s") % {"errors": filterset.errors.as_text()}
            )
        memories = filterset.qs
    response = StreamingHttpResponse(transfer.iter_export(memories), content_type="application/json")
    name = f"bestie-export-{timezone.now():%Y%m%d-%H%M%S}.json"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


# ---------------------------------------------------------------------------------------------------
# Drift review (SPEC §5): re-check the oldest confirmations, a weekly handful at a time.


@require_GET
@login_required
def drift_review(request):
    return render(request, "review/drift.html", {"queue": drift.drift_queue()})


def drift_apply(memory_id, data, who):
    """One review decision through ``review.drift``; returns the message that says what happened."""
    action = data.get("action")
    if action == "confirm":
        drift.confirm(memory_id, actor=who)
        return _("Confirmed #%(id)s.") % {"id": memory_id}
    if action == "supersede":
        new = drift.supersede(memory_id, data.get("text", ""), actor=who)
        return _("Replaced #%(id)s with #%(new)s.") % {"id": memory_id, "new": new.pk}
    if action == "expire":
        try:
            ttl = lifecycle.parse_ttl(data.get("ttl", ""))
        except ValueError as error:
            raise lifecycle.InvalidValue("ttl", str(error)) from None
        memory = drift.set_expiry(memory_id, actor=who, ttl=ttl)
        return _("#%(id)s now expires %(when)s.") % {
            "id": memory_id,
            "when": timezone.localtime(memory.expires_at).strftime("%Y-%m-%d %H:%M"),
        }
    if action == "forget":
        drift.forget(memory_id, actor=who)
        return _("Forgot #%(id)s.") % {"id": memory_id}
    raise lifecycle.InvalidValue("action", _("must be confirm, supersede, expire or forget"))


@require_POST
@login_required
def drift_decide(request, memory_id):
    if request.POST.get("action") == "forget" and request.POST.get("confirm") != "yes":
        # Forgetting goes through the same confirmation page as everywhere else in the console.
        memory = Memory.objects.filter(pk=memory_id).first()
        if memory is not None:
            context = {
                "action": "forget",
                "action_label": dict(MEMORY_ACTIONS)["forget"],
                "memories": [memory],
                "missing": 0,
                "next": reverse("review:drift"),
                "confirm_url": reverse("review:drift-decide", args=[memory.pk]),
            }
            return render(request, "review/memory_confirm.html", context)
    try:
        with undo.recording() as changes:
            text = drift_apply(memory_id, request.POST, actors.owner(request.user))
    except lifecycle.LifecycleError as error:
        if fragment(request):
            memory = Memory.objects.filter(pk=memory_id).first()
            if memory is not None:
                return render(request, "review/drift.html#item", {"memory": memory, "error": str(error)})
            return render(
                request, "review/drift.html#outcome", {"memory_id": memory_id, "text": str(error), "ok": False}
            )
        messages.error(request, str(error))
        return redirect("review:drift")
    if fragment(request):
        context = {"memory_id": memory_id, "text": text, "ok": True, "undo_token": undo.offer(request, changes, text)}
        return render(request, "review/drift.html#outcome", context)
    undo.done(request, changes, text)
    return redirect("review:drift")


# ---------------------------------------------------------------------------------------------------
# The core profile (SPEC §4): what every prompt starts with; promote to it and demote from it in place.


def profile_page(request, form):
    wanted = form.cleaned_data if form.is_valid() else {}
    request_fields = {name: wanted.get(name, "") for name in ("user", "channel", "project")}
    shown_for = urlencode([(name, value) for name, value in request_fields.items() if value])
    context = {
        "form": form,
        "curation": profile.curation(**request_fields),
        "request_fields": request_fields,
        "here": reverse("review:core-profile") + (f"?{shown_for}" if shown_for else ""),
    }
    template = "review/core.html#profile" if fragment(request) else "review/core.html"
    return render(request, template, context)


@require_GET
@login_required
def core_profile(request):
    return profile_page(request, ProfileRequestForm(request.GET))


@require_POST
@login_required
def core_move(request, memory_id, direction):
    """Promote a memory into the core profile or demote it to working, then show the profile again (in
    place with htmx): the request it was shown for travels in the form."""
    move = profile.promote if direction == "promote" else profile.demote
    try:
        move(memory_id, actor=actors.owner(request.user))
    except lifecycle.LifecycleError as error:
        messages.error(request, str(error))
    else:
        if direction == "promote":
            messages.success(request, _("#%(id)s is in the core profile: always injected.") % {"id": memory_id})
            if profile.overflows(memory_id):
                messages.warning(
                    request,
                    _("It does not fit the core budget: it is left out of prompts until the profile has room."),
                )
        else:
            messages.success(request, _("#%(id)s is back in working: injected only when relevant.") % {"id": memory_id})
    if fragment(request):
        return profile_page(request, ProfileRequestForm(request.POST))
    return redirect(back(request, reverse("review:core-profile")))


# Undo (``review.undo``) and reverting a change from a memory's history


@require_POST
@login_required
def undo_change(request):
    """The Undo button of a confirmation: what that action changed goes back, through ``lifecycle.revert``."""
    entry = undo.take(request, request.POST.get("token", ""))
    if entry is None:
        messages.error(
            request,
            _(
                "This can no longer be undone from here: Undo lasts %(minutes)s minutes and works once. "
                "A memory's history can still revert each change."
            )
            % {"minutes": undo.UNDO_MINUTES},
        )
    else:
        try:
            lifecycle.revert(entry["events"], actor=actors.owner(request.user))
        except lifecycle.LifecycleError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, _("Undone: %(change)s") % {"change": entry["text"]})
    return redirect(back(request, reverse("review:dashboard")))


@require_POST
@login_required
def revert_event(request, event_id):
    """Revert one change from a memory's history (itself a change, which can be undone in turn)."""
    event = get_object_or_404(AuditEvent, pk=event_id, memory_id__isnull=False)
    try:
        with undo.recording() as changes:
            lifecycle.revert([event.pk], actor=actors.owner(request.user))
    except lifecycle.LifecycleError as error:
        messages.error(request, str(error))
    else:
        undo.done(
            request,
            changes,
            _("Reverted the %(event)s of %(when)s.")
            % {
                "event": event.get_event_display(),
                "when": timezone.localtime(event.at).strftime("%Y-%m-%d %H:%M"),
            },
        )
    return show_memory(request, event.memory_id)
