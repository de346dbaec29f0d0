"""The governance pages of the owner's console: settings (policies, pause, tokens), the doctor with its
merges and cleanup, the maintenance jobs (schedules and run history), and import."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db import transaction
from django.http import StreamingHttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from governance import cleanup, consolidation, doctor, hygiene, schedules, uploads
from governance.forms import HeldImportForm, ImportForm, PoliciesForm, TokenForm
from governance.models import JobRun
from memories import agent_tokens, transfer
from memories.lifecycle import LifecycleError, actors, policies
from memories.models import Memory, MemorySettings
from review import undo


def settings_context(policies_form=None, token_form=None, new_token=None):
    memory_settings = MemorySettings.load()
    if policies_form is None:
        policies_form = PoliciesForm(
            initial={
                "write_policy": memory_settings.write_policy,
                "delete_policy": memory_settings.delete_policy,
                "governance_policy": memory_settings.governance_policy,
            }
        )
    return {
        "settings": memory_settings,
        "policies_form": policies_form,
        "token_form": token_form or TokenForm(),
        "tokens": agent_tokens.list_tokens(),
        "new_token": new_token,
    }


@require_GET
@login_required
def settings_page(request):
    return render(request, "governance/settings.html", settings_context())


@require_POST
@login_required
def set_policies(request):
    form = PoliciesForm(request.POST)
    if not form.is_valid():
        return render(request, "governance/settings.html", settings_context(form))
    who = actors.owner(request.user)
    try:
        with transaction.atomic():
            policies.set_write_policy(form.cleaned_data["write_policy"], actor=who)
            policies.set_delete_policy(form.cleaned_data["delete_policy"], actor=who)
            policies.set_governance_policy(form.cleaned_data["governance_policy"], actor=who)
    except LifecycleError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("Policies saved."))
    return redirect("governance:settings")


@require_POST
@login_required
def pause_or_resume(request):
    if request.POST.get("action") == "pause":
        policies.pause(actor=actors.owner(request.user))
        messages.success(request, _("Memory is paused: nothing is written or injected until you resume."))
    else:
        policies.resume(actor=actors.owner(request.user))
        messages.success(request, _("Memory is running again: writing and injecting resumed."))
    return redirect("governance:settings")


@require_POST
@login_required
def create_token(request):
    """A new agent token. Its plaintext is in this one response and nowhere else: not in a message,
    the session or a redirect."""
    form = TokenForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        name = data["name"]
        try:
            plaintext = agent_tokens.create_token(
                name,
                actor=actors.owner(request.user),
                scopes=data["scopes"],
                users=data["users"],
                expires_in=data["expires"],
            )
        except LifecycleError as error:
            field = getattr(error, "field", "name")
            form.add_error({"user": "users", "expires": "expires", "scopes": "scopes"}.get(field, "name"), str(error))
        else:
            context = settings_context(new_token={"name": name, "plaintext": plaintext})
            return render(request, "governance/settings.html", context)
    return render(request, "governance/settings.html", settings_context(token_form=form))


@require_POST
@login_required
def revoke_token(request):
    """Revoke an agent's token, after a page that names it and says what revoking does."""
    name = request.POST.get("name", "")
    if request.POST.get("confirm") != "yes":
        token = agent_tokens.list_tokens().filter(name=name, revoked_at__isnull=True).first()
        if token is not None:
            return render(request, "governance/token_revoke_confirm.html", {"token": token})
    try:
        agent_tokens.revoke_token(name, actor=actors.owner(request.user))
    except LifecycleError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("Token %(name)s revoked: it no longer opens the API.") % {"name": name})
    return redirect("governance:settings")


# ---------------------------------------------------------------------------------------------------
# Doctor, merges and cleanup (SPEC §5)

DOCTOR_GROUPS_SHOWN = 50


def _texts(groups):
    ids = {i for group in groups for i in group}
    return Memory.objects.in_bulk(ids)


@require_GET
@login_required
def doctor_page(request):
    report = doctor.recent_report()
    score = hygiene.score(report=report)
    shown = report.duplicates[:DOCTOR_GROUPS_SHOWN] + report.conflicts[:DOCTOR_GROUPS_SHOWN]
    rows = _texts(shown)
    conflicts = [
        {"members": [rows[i] for i in group], "suggested": consolidation.newest([rows[i] for i in group]).pk}
        for group in report.conflicts[:DOCTOR_GROUPS_SHOWN]
    ]
    # The chart is built from numbers and dates only: nothing in it comes from a memory's text.
    chart = mark_safe(hygiene.chart(hygiene.trend()))
    return render(
        request,
        "governance/doctor.html",
        {
            "report": report,
            "score": score,
            "chart": chart,
            "duplicates": [[rows[i] for i in group] for group in report.duplicates[:DOCTOR_GROUPS_SHOWN]],
            "conflicts": conflicts,
            "shown": DOCTOR_GROUPS_SHOWN,
        },
    )


def _ids(values):
    try:
        return [int(value) for value in values]
    except ValueError:
        raise LifecycleError(_("Memory ids must be whole numbers.")) from None


@require_http_methods(["GET", "POST"])
@login_required
def merge_page(request):
    """The members of a duplicate group side by side, and the merged text for the owner to edit."""
    data = request.POST if request.method == "POST" else request.GET
    try:
        ids = _ids(data.getlist("ids"))
        draft = consolidation.draft(ids)
    except LifecycleError as error:
        messages.error(request, str(error))
        return redirect("governance:doctor")
    error = None
    if request.method == "POST":
        try:
            with undo.recording() as changes:
                merged = consolidation.merge(
                    ids,
                    actor=actors.owner(request.user),
                    text=request.POST.get("text", ""),
                    include_pinned=request.POST.get("include_pinned") == "on",
                )
        except LifecycleError as failure:
            error = str(failure)
        else:
            text = _("Merged %(members)s into #%(id)s.") % {
                "members": ", ".join(f"#{i}" for i in merged.member_ids),
                "id": merged.memory_id,
            }
            if request.htmx:
                context = {
                    "text": text,
                    "memory_id": merged.memory_id,
                    "undo_token": undo.offer(request, changes, text),
                }
                return render(request, "governance/merge.html#done", context)
            undo.done(request, changes, text)
            return redirect("review:memory-detail", memory_id=merged.memory_id)
    members = Memory.objects.in_bulk(ids)
    context = {
        "members": [members[i] for i in ids],
        "draft": draft,
        "error": error,
        "text": request.POST.get("text", draft.text) if request.method == "POST" else draft.text,
    }
    template = "governance/merge.html#form" if request.htmx else "governance/merge.html"
    return render(request, template, context)


@require_POST
@login_required
def resolve_conflict(request):
    if not request.POST.get("winner"):
        messages.error(request, _("Choose the memory that stays."))
        return redirect("governance:doctor")
    try:
        ids = _ids(request.POST.getlist("ids"))
        winner = _ids([request.POST["winner"]])[0]
        with undo.recording() as changes:
            resolved = consolidation.resolve(
                winner,
                [i for i in ids if i != winner],
                actor=actors.owner(request.user),
                include_pinned=request.POST.get("include_pinned") == "on",
            )
    except LifecycleError as error:
        messages.error(request, str(error))
    else:
        text = _("#%(winner)s stays; superseded %(losers)s.") % {
            "winner": resolved.winner_id,
            "losers": ", ".join(f"#{i}" for i in resolved.loser_ids),
        }
        undo.done(request, changes, text)
    return redirect("governance:doctor")


PROGRESS_MARK = "<!-- progress -->"


@require_http_methods(["GET", "POST"])
@login_required
def cleanup_page(request):
    """The cleanup plan, every action with its reason; the confirm step applies exactly this plan and
    streams its progress, one line per action, as the browser receives it."""
    if request.method == "POST":
        confirmed = request.POST.get("yes") == "on"
        try:
            current = cleanup.checked_plan(confirmed=confirmed, fingerprint=request.POST.get("fingerprint", ""))
        except LifecycleError as error:
            messages.error(request, str(error))
            return redirect("governance:cleanup")
        page = render_to_string("governance/cleanup_progress.html", {"plan": current}, request=request)
        head, tail = page.split(PROGRESS_MARK)
        return StreamingHttpResponse(_cleanup_stream(current, actors.owner(request.user), confirmed, head, tail))
    plan = cleanup.plan()
    return render(request, "governance/cleanup.html", {"plan": plan, "shown": DOCTOR_GROUPS_SHOWN})


def _cleanup_stream(current, who, confirmed, head, tail):
    yield head
    for item in cleanup.carry_out(current, actor=who, confirmed=confirmed):
        if isinstance(item, cleanup.Applied):
            summary = _(
                "Cleanup done: merged %(merged)s groups, marked %(stale)s stale, archived %(archived)s, "
                "soft-deleted %(soft)s, hard-deleted %(hard)s."
            ) % {
                "merged": len(item.merged),
                "stale": item.marked_stale,
                "archived": item.archived,
                "soft": item.soft_deleted,
                "hard": item.hard_deleted,
            }
            yield format_html('<li class="done" role="status">{}</li>\n', summary)
        else:
            step, done, total = item
            yield format_html("<li>[{}/{}] {}</li>\n", done, total, step)
    yield tail


# ---------------------------------------------------------------------------------------------------
# Maintenance jobs (SPEC §6): their schedules and every run

JOB_LABELS = {
    "backup": gettext_lazy("Backup"),
    "prune": gettext_lazy("Prune"),
    "message_retention": gettext_lazy("Message retention"),
    "hygiene": gettext_lazy("Hygiene snapshot"),
    "erasure": gettext_lazy("Erasure (a forget a reader held back)"),
    "digest": gettext_lazy("Digest"),
    "restore": gettext_lazy("Restore"),
}
OUTCOME_LABELS = {
    JobRun.Outcome.OK: gettext_lazy("ok"),
    JobRun.Outcome.FAILED: gettext_lazy("failed"),
    JobRun.Outcome.RUNNING: gettext_lazy("running"),
}
RUNS_PER_PAGE = 50


def _label(key):
    return str(key).replace("_", " ")


def _readable(value):
    """A value of a run's result as text for a person: ``key: value`` pairs, never a Python repr."""
    if isinstance(value, dict):
        return ", ".join(f"{_label(key)}: {_readable(item)}" for key, item in value.items())
    if isinstance(value, list):
        return ", ".join(_readable(item) for item in value)
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if value is None or value == "":
        return "–"
    return str(value)


def _lines(value):
    """A result's value as the lines shown for it: one per item of a list of records (a digest's
    deliveries), one otherwise."""
    if isinstance(value, list) and value and all(isinstance(item, dict) for item in value):
        return [_readable(item) for item in value]
    return [_readable(value)]


def _run_row(run):
    counts = [(_label(key), _lines(value)) for key, value in run.counts.items()]
    took = run.finished_at - run.started_at if run.finished_at else None
    return {
        "run": run,
        "label": JOB_LABELS.get(run.job, run.job),
        "outcome": OUTCOME_LABELS[run.outcome],
        "counts": counts,
        "took": took,
    }


@require_GET
@login_required
def jobs_page(request):
    job = request.GET.get("job", "")
    runs = JobRun.objects.order_by("-started_at", "-id")
    if job in JOB_LABELS:
        runs = runs.filter(job=job)
    page = Paginator(runs, RUNS_PER_PAGE).get_page(request.GET.get("page"))
    context = {
        "schedules": [
            {"status": row, "label": JOB_LABELS[row.job], "outcome": OUTCOME_LABELS.get(row.last_outcome)}
            for row in schedules.status()
        ],
        "job_choices": list(JOB_LABELS.items()),
        "job": job,
        "page": page,
        "runs": [_run_row(run) for run in page],
    }
    template = "governance/jobs.html#table" if request.htmx else "governance/jobs.html"
    return render(request, template, context)


@require_POST
@login_required
def set_schedule(request):
    job = request.POST.get("job", "")
    try:
        cron = schedules.set_cron(job, request.POST.get("cron", ""), actor=actors.owner(request.user))
    except LifecycleError as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request,
            _("%(job)s now runs on the schedule %(cron)s.")
            % {
                "job": JOB_LABELS[job],
                "cron": cron,
            },
        )
    return redirect("governance:jobs")


# ---------------------------------------------------------------------------------------------------
# Import (SPEC §10): a file uploaded, previewed as a dry run with what would be imported, skipped and
# refused by line, then imported. The upload is held in between (``governance.uploads``).


def _import(path, *, format, file_name, user, no_user, approve, who, dry_run):
    """Bestie's own document through ``transfer.import_document`` (all or nothing), another tool's file
    through ``transfer.import_foreign`` (each memory as a proposal)."""
    if format == "bestie":
        with open(path, encoding="utf-8", newline="") as source:
            return transfer.import_document(source, actor=who, dry_run=dry_run)
    with open(path, "rb") as source:
        return transfer.import_foreign(
            source,
            format=format,
            file_name=file_name,
            actor=who,
            dry_run=dry_run,
            approve=approve,
            user="" if no_user else (user.strip() or None),
        )


def _import_context(form, **extra):
    return {"form": form, "max_mb": uploads.MAX_BYTES // (1024 * 1024), "shown": IMPORT_ITEMS_SHOWN, **extra}


# A preview lists this many memories of each kind (imported, skipped, refused); the counts are whole.
IMPORT_ITEMS_SHOWN = 200


@require_http_methods(["GET", "POST"])
@login_required
def import_page(request):
    """Upload and preview: the dry run of the file, which changes nothing."""
    if request.method == "GET":
        uploads.sweep()
        return render(request, "governance/import.html", _import_context(ImportForm()))
    form = ImportForm(request.POST, request.FILES)
    if not form.is_valid():
        return render(request, "governance/import.html", _import_context(form), status=400)
    data, uploaded = form.cleaned_data, form.cleaned_data["file"]
    foreign = data["format"] != "bestie"
    if not foreign and (data["user"].strip() or data["no_user"] or data["approve"]):
        form.add_error(None, _("User and approval are for other tools' files: Bestie's own export keeps its own."))
        return render(request, "governance/import.html", _import_context(form), status=400)
    try:
        token = uploads.hold(uploaded)
    except LifecycleError as error:
        form.add_error("file", str(error))
        return render(request, "governance/import.html", _import_context(form), status=400)
    options = {
        "format": data["format"],
        "file_name": uploaded.name,
        "user": data["user"],
        "no_user": data["no_user"],
        "approve": data["approve"],
    }
    try:
        preview = _import(uploads.path_of(token), **options, who=actors.owner(request.user), dry_run=True)
    except LifecycleError as error:
        uploads.release(token)
        form.add_error(None, str(error))
        return render(request, "governance/import.html", _import_context(form), status=400)
    held = HeldImportForm(initial={"upload": token, **options})
    return render(
        request,
        "governance/import.html",
        _import_context(ImportForm(initial=options), preview=preview, foreign=foreign, held=held, options=options),
    )


@require_POST
@login_required
def import_apply(request):
    """Import a previewed upload, then let it go."""
    form = HeldImportForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("This import is not one the console previewed: upload the file again."))
        return redirect("governance:import")
    data = form.cleaned_data
    token = data.pop("upload")
    if request.POST.get("cancel"):
        uploads.release(token)
        messages.info(request, _("Nothing was imported."))
        return redirect("governance:import")
    try:
        result = _import(uploads.path_of(token), **data, who=actors.owner(request.user), dry_run=False)
    except LifecycleError as error:
        messages.error(request, str(error))
        return redirect("governance:import")
    uploads.release(token)
    if data["format"] == "bestie":
        messages.success(
            request,
            _("Imported %(memories)s memories and %(history)s history events from %(name)s.")
            % {"memories": result.memories, "history": result.history, "name": data["file_name"]},
        )
        return redirect("review:memory-list")
    messages.success(
        request,
        _(
            "Imported %(imported)s memories from %(name)s (%(pending)s waiting for your review, %(approved)s "
            "approved); %(skipped)s skipped, %(refused)s refused."
        )
        % {
            "imported": len(result.imported),
            "name": data["file_name"],
            "pending": result.pending,
            "approved": result.approved,
            "skipped": len(result.skipped),
            "refused": len(result.refused),
        },
    )
    return redirect("review:pending" if result.pending else "review:memory-list")
