"""The governance pages of the owner's console: settings (policies, pause, tokens), the doctor with its
merges and cleanup, the maintenance jobs (schedules and run history), the digest's channels, backups,
and import."""

from datetime import datetime
from pathlib import Path
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db import connection, transaction
from django.http import FileResponse, Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.template.defaultfilters import filesizeformat
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.dateparse import parse_datetime
from django.utils.formats import localize
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from governance import backups, channels, checkup, consolidation, hygiene, jobs, schedules, uploads
from governance.forms import ChannelForm, HeldImportForm, ImportForm, PoliciesForm, TokenForm
from governance.models import DigestChannel, JobRun
from memories import agent_tokens, transfer
from memories.lifecycle import MAX_ID, LifecycleError, actors, policies
from memories.models import Memory, MemorySettings, Policy, state_label, words_of
from memories.rows import among
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
# Doctor, merges and cleanup (SPEC §5). The report, the hygiene score and the cleanup plan are the newest
# checkup's (``governance.checkup``): the pages read it, a page of findings at a time, and Recompute
# queues the doctor job for the cluster; the page follows the run (``?queued=`` the time it was queued)
# and shows the new checkup when it is there. Applying a plan is a job too, with its own progress page.

FINDINGS_PER_PAGE = 25
# A duplicate group or a contradiction is several memories: fewer of them make a page.
GROUPS_PER_PAGE = 10
# Texts shown of one duplicate group (a large store has groups of hundreds); the merge review has them all.
MEMBERS_SHOWN = 5
ACTIONS_PER_PAGE = 25
# Ids listed for one cleanup action; its count is whole.
IDS_SHOWN = 12
GROUP_SECTIONS = ("duplicates", "conflicts")
MEMORY_SECTIONS = {
    "stale": gettext_lazy("Stale"),
    "noise": gettext_lazy("Low-value noise"),
    "missing_metadata": gettext_lazy("Missing metadata"),
    "broken_chains": gettext_lazy("Broken supersede chains"),
}
MEMORY_SECTIONS_EMPTY = {
    "stale": gettext_lazy("Nothing stale."),
    "noise": gettext_lazy("No noise."),
    "missing_metadata": gettext_lazy("No memory is missing metadata."),
    "broken_chains": gettext_lazy("No broken chains."),
}
SECTIONS = (*GROUP_SECTIONS, *MEMORY_SECTIONS)
# What a running doctor or cleanup job is doing, by the step its progress names.
STEP_LABELS = {
    "duplicates": gettext_lazy("looking for duplicates and contradictions"),
    "stale": gettext_lazy("looking for stale memories"),
    "noise": gettext_lazy("looking for noise"),
    "core": gettext_lazy("weighing the core tier"),
    "missing_metadata": gettext_lazy("looking for missing metadata"),
    "broken_chains": gettext_lazy("checking supersede chains"),
    "score": gettext_lazy("scoring hygiene"),
    "plan": gettext_lazy("planning the cleanup"),
    "merge": gettext_lazy("merging duplicates"),
    "mark_stale": gettext_lazy("marking stale"),
    "archive": gettext_lazy("archiving"),
    "soft_delete": gettext_lazy("soft-deleting noise"),
    "hard_delete": gettext_lazy("hard-deleting"),
}


def _doctor_job(queued_at):
    """The doctor job's run a page follows: the one queued from it, or else one going on now."""
    if queued_at is None and (run := jobs.running("doctor")):
        queued_at = run.started_at
    state = _job_state("doctor", queued_at) if queued_at else {"run": None, "waiting": False, "queued_at": None}
    return _with_progress(state)


def _with_progress(state):
    run = state["run"]
    state["step"] = STEP_LABELS.get(run.step, run.step) if run else ""
    state["failed"] = run is not None and run.outcome == JobRun.Outcome.FAILED
    return state


def _status(request, view, context):
    """The answer to a page's poll of its job: the status while the run goes on or when it failed, the
    page itself once it is done."""
    job = context["job"]
    if job["waiting"] or job["failed"]:
        return render(request, f"{context['template']}#status", context)
    return HttpResponseClientRedirect(reverse(view))


@require_POST
@login_required
def recompute(request):
    """Queue the doctor job, unless one is going on already, and follow it on the page it was asked
    from."""
    view = "governance:cleanup" if request.POST.get("next") == "cleanup" else "governance:doctor"
    run = jobs.running("doctor")
    return _queued(view, run.started_at if run else jobs.run_soon("governance.checkup.compute"))


def _page_number(request, section):
    return request.GET.get("page") if request.GET.get("section") == section else 1


def _findings(request, report):
    """Each section of findings, a page of it: its count, the page and its memories as they are now."""
    pages = {
        name: Paginator(
            getattr(report, name), GROUPS_PER_PAGE if name in GROUP_SECTIONS else FINDINGS_PER_PAGE
        ).get_page(_page_number(request, name))
        for name in SECTIONS
    }
    # Whole rows only for what is shown; of the rest of a group, whether each member is still live.
    members = sorted({i for name in GROUP_SECTIONS for group in pages[name] for i in group})
    live = set(Memory.objects.live().filter(pk__in=among(members)).values_list("pk", flat=True)) if members else set()
    shown = {i for group in pages["duplicates"] for i in group[:MEMBERS_SHOWN]}
    shown.update(i for group in pages["conflicts"] for i in group)
    shown.update(i for name in MEMORY_SECTIONS for i in pages[name])
    rows = Memory.objects.in_bulk(shown)
    sections = {}
    for name in GROUP_SECTIONS:
        groups = []
        for group in pages[name]:
            live_ids = [i for i in group if i in live]
            listed = group[:MEMBERS_SHOWN] if name == "duplicates" else group
            groups.append(
                {
                    "number": pages[name].start_index() + len(groups),
                    "members": [rows[i] for i in listed if i in rows],
                    "more": len(group) - len(listed),
                    "live_ids": live_ids,
                    "live": [rows[i] for i in live_ids if i in rows],
                    # A group merged or resolved since the report has nothing left to act on.
                    "open": len(live_ids) > 1,
                }
            )
        sections[name] = {"name": name, "count": len(getattr(report, name)), "page": pages[name], "groups": groups}
    for conflict in sections["conflicts"]["groups"]:
        conflict["suggested"] = consolidation.newest(conflict["live"]).pk if conflict["live"] else None
    for name, title in MEMORY_SECTIONS.items():
        sections[name] = {
            "name": name,
            "title": title,
            "empty": MEMORY_SECTIONS_EMPTY[name],
            "count": len(getattr(report, name)),
            "page": pages[name],
            "rows": [
                {"id": i, "memory": rows.get(i), "state": state_label(rows[i].state()) if i in rows else ""}
                for i in pages[name]
            ],
        }
    return sections


@require_GET
@login_required
def doctor_page(request):
    job = _doctor_job(_queued_at(request))
    latest = checkup.latest(plan=False)
    context = {"job": job, "checkup": latest, "next": "doctor", "template": "governance/doctor.html"}
    if request.htmx and request.htmx.target == "status":
        return _status(request, "governance:doctor", context)
    if latest is not None:
        sections = _findings(request, latest.report)
        section = request.GET.get("section")
        if request.htmx and section in sections:
            partial = section if section in GROUP_SECTIONS else "memories"
            return render(request, f"governance/doctor.html#{partial}", {**context, "section": sections[section]})
        context["sections"] = sections
        context["memory_sections"] = [sections[name] for name in MEMORY_SECTIONS]
    # The chart is built from numbers and dates only: nothing in it comes from a memory's text.
    context["chart"] = mark_safe(hygiene.chart(hygiene.trend()))
    if latest is not None:
        context["parts"] = [
            (name, hygiene.PART_LABELS.get(name, name), part) for name, part in latest.score["parts"].items()
        ]
    return render(request, "governance/doctor.html", context)


def _ids(values):
    try:
        return [int(value) for value in values]
    except ValueError:
        raise LifecycleError(_("Memory ids must be whole numbers.")) from None


def _merge_ids(data):
    """``(ids, group)``: the memories a merge is about, named by their ids (``ids``) or, as the doctor page
    links a group of any size, by a duplicate group of a report (``checkup`` and ``group``, given back
    as ``{"checkup", "number"}`` for the form to post)."""
    if "group" not in data:
        return _ids(data.getlist("ids")), None
    try:
        checkup_id, number = int(data.get("checkup", "")), int(data["group"])
    except ValueError:
        checkup_id = number = 0
    if not (0 < checkup_id <= MAX_ID and 0 < number <= MAX_ID):
        raise LifecycleError(_("A duplicate group is named by its report and its number."))
    return checkup.duplicate_group(checkup_id, number), {"checkup": checkup_id, "number": number}


@require_http_methods(["GET", "POST"])
@login_required
def merge_page(request):
    """The members of a duplicate group side by side, and the merged text for the owner to edit."""
    data = request.POST if request.method == "POST" else request.GET
    try:
        ids, group = _merge_ids(data)
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
        "group": group,
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


@require_http_methods(["GET", "POST"])
@login_required
def cleanup_page(request):
    """The newest checkup's cleanup plan, every action with its reason, a page at a time; the confirm step
    asks the job cluster to apply exactly this plan and opens the page following its progress."""
    if request.method == "POST":
        confirmed = request.POST.get("yes") == "on"
        fingerprint = request.POST.get("fingerprint", "")
        try:
            checkup.check_apply(confirmed=confirmed, fingerprint=fingerprint)
        except LifecycleError as error:
            messages.error(request, str(error))
            return redirect("governance:cleanup")
        queued_at = jobs.run_soon(
            "governance.cleanup.apply_job",
            actor=actors.owner(request.user),
            confirmed=confirmed,
            fingerprint=fingerprint,
            language=translation.get_language(),
        )
        return _queued("governance:cleanup-progress", queued_at)
    latest = checkup.latest(report=False)
    context = {
        "job": _doctor_job(_queued_at(request)),
        "checkup": latest,
        "next": "cleanup",
        "template": "governance/cleanup.html",
        "shown": IDS_SHOWN,
    }
    if request.htmx and request.htmx.target == "status":
        return _status(request, "governance:cleanup", context)
    if latest is not None:
        context["plan"] = latest.plan
        context["page"] = Paginator(latest.plan["actions"], ACTIONS_PER_PAGE).get_page(request.GET.get("page"))
    template = "governance/cleanup.html#plan" if request.htmx and latest else "governance/cleanup.html"
    return render(request, template, context)


def _applied_summary(counts):
    return _(
        "Cleanup done: merged %(merged)s groups, marked %(stale)s stale, archived %(archived)s, "
        "soft-deleted %(soft)s, hard-deleted %(hard)s."
    ) % {
        "merged": counts["merged"],
        "stale": counts["marked_stale"],
        "archived": counts["archived"],
        "soft": counts["soft_deleted"],
        "hard": counts["hard_deleted"],
    }


@require_GET
@login_required
def cleanup_progress(request):
    """How the applying of a plan goes: waiting for the cluster, the action it is on, then what it did
    or why it was refused."""
    queued_at = _queued_at(request)
    if queued_at is None:
        return redirect("governance:cleanup")
    job = _with_progress(_job_state("cleanup", queued_at))
    run = job["run"]
    summary = _applied_summary(run.counts) if run and run.outcome == JobRun.Outcome.OK else ""
    context = {"job": job, "summary": summary}
    template = "governance/cleanup_progress.html#progress" if request.htmx else "governance/cleanup_progress.html"
    return render(request, template, context)


# ---------------------------------------------------------------------------------------------------
# Maintenance jobs (SPEC §6): their schedules and every run

JOB_LABELS = {
    "doctor": gettext_lazy("Doctor report"),
    "cleanup": gettext_lazy("Cleanup"),
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
# The fields of the jobs' results (``PruneResult``, ``BackupResult``, ``DigestResult``…) as the history
# names them; a field not named here reads as its words.
RESULT_LABELS = {
    "policy": gettext_lazy("delete policy"),
    "expired": gettext_lazy("expired"),
    "superseded": gettext_lazy("superseded"),
    "deleted": gettext_lazy("deleted"),
    "awaiting_confirmation": gettext_lazy("awaiting your confirmation"),
    "would_delete": gettext_lazy("would be deleted"),
    "batches": gettext_lazy("batches"),
    "longest_batch_seconds": gettext_lazy("longest batch (seconds)"),
    "path": gettext_lazy("file"),
    "size_bytes": gettext_lazy("size"),
    "seconds": gettext_lazy("seconds"),
    "rotated_out": gettext_lazy("rotated out"),
    "sent": gettext_lazy("sent"),
    "reason": gettext_lazy("reason"),
    "since": gettext_lazy("since"),
    "new_count": gettext_lazy("new memories"),
    "deliveries": gettext_lazy("deliveries"),
    "channel": gettext_lazy("channel"),
    "ok": gettext_lazy("delivered"),
    "attempts": gettext_lazy("attempts"),
    "error": gettext_lazy("error"),
    "snapshot_id": gettext_lazy("snapshot"),
    "score": gettext_lazy("score"),
    "counts": gettext_lazy("memories"),
    "total": gettext_lazy("total"),
    "live": gettext_lazy("live"),
    "pending": gettext_lazy("pending"),
    "rejected": gettext_lazy("rejected"),
    "stale": gettext_lazy("stale"),
    "pinned": gettext_lazy("pinned"),
    "retention_days": gettext_lazy("kept for (days)"),
    "done": gettext_lazy("done"),
    "source": gettext_lazy("from"),
    "database": gettext_lazy("database"),
    "safety_backup": gettext_lazy("safety backup"),
}


def _label(key):
    return RESULT_LABELS.get(key) or words_of(str(key))


def _readable(value, key=""):
    """A value of a run's result as text for a person: ``key: value`` pairs, never a Python repr; a size
    in bytes, a time and a policy in words."""
    if isinstance(value, dict):
        return ", ".join(f"{_label(name)}: {_readable(item, name)}" for name, item in value.items())
    if isinstance(value, list):
        return ", ".join(_readable(item, key) for item in value)
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if value is None or value == "":
        return "–"
    if key == "size_bytes":
        return filesizeformat(value)
    if key == "policy":
        return Policy(value).label if value in Policy.values else value
    if key == "reason":
        # The digest's reasons are its own sentences, marked for translation there.
        return _(value)
    if key == "since" and (moment := parse_datetime(str(value))):
        return timezone.localtime(moment).strftime("%Y-%m-%d %H:%M")
    return localize(value)


def _lines(value, key):
    """A result's value as the lines shown for it: one per item of a list of records (a digest's
    deliveries), one otherwise."""
    if isinstance(value, list) and value and all(isinstance(item, dict) for item in value):
        return [_readable(item) for item in value]
    return [_readable(value, key)]


def _run_row(run):
    counts = [(_label(key), _lines(value, key)) for key, value in run.counts.items()]
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
# The digest's channels and backups (SPEC §6). The digest now and a backup now are queued for the job
# cluster, as their schedules run them; the page waits for the run (``?queued=`` the time it was queued)
# and shows what it did. A channel's test and a restore happen in the request.


def _queued_at(request):
    """When the run the page waits for was queued, from ``?queued=``; None for anything else."""
    try:
        moment = datetime.fromisoformat(request.GET.get("queued", ""))
    except ValueError:
        return None
    return moment if timezone.is_aware(moment) else None


def _queued(view, queued_at):
    return redirect(f"{reverse(view)}?{urlencode({'queued': queued_at.isoformat()})}")


def _job_state(job, queued_at):
    """The run of ``job`` a page shows: the one queued from it (waiting while the cluster has not
    started or finished it), or else the last one that ended (a backup holds its own run as running)."""
    if queued_at:
        run = jobs.first_run_since(job, queued_at)
        waiting = run is None or run.outcome == JobRun.Outcome.RUNNING
    else:
        run, waiting = JobRun.objects.filter(job=job).exclude(outcome=JobRun.Outcome.RUNNING).first(), False
    return {"run": run, "waiting": waiting, "queued_at": queued_at}


def _digest_state(queued_at):
    state = _job_state("digest", queued_at)
    counts = state["run"].counts if state["run"] else {}
    # The reasons are the digest's own sentences, marked for translation there.
    state["reason"] = _(counts["reason"]) if counts.get("reason") else ""
    state["deliveries"] = counts.get("deliveries", [])
    state["delivered"] = sum(1 for delivery in state["deliveries"] if delivery.get("ok"))
    return state


def _channels_context(form=None, queued_at=None):
    return {
        "channels": [
            {"channel": channel, "problem": channels.setup_problem(channel.kind)}
            for channel in DigestChannel.objects.all()
        ],
        "form": form or ChannelForm(),
        "digest": _digest_state(queued_at),
        "digest_cron": next((row.cron for row in schedules.status() if row.job == "digest"), None),
    }


def _channel(channel_id):
    if channel_id > MAX_ID:
        raise Http404
    return get_object_or_404(DigestChannel, pk=channel_id)


def _form_error(form, error):
    """A refusal of the channel's kind or target, beside that field (which it names already)."""
    field = "kind" if getattr(error, "field", "") == "kind" else "target"
    form.add_error(field, str(error).removeprefix(f"{field}: "))


@require_GET
@login_required
def channels_page(request):
    context = _channels_context(queued_at=_queued_at(request))
    template = "governance/channels.html#digest" if request.htmx else "governance/channels.html"
    return render(request, template, context)


@require_POST
@login_required
def channel_add(request):
    form = ChannelForm(request.POST)
    if form.is_valid():
        try:
            channel = channels.add(
                form.cleaned_data["kind"], form.cleaned_data["target"], actor=actors.owner(request.user)
            )
        except LifecycleError as error:
            _form_error(form, error)
        else:
            messages.success(request, _("The digest now goes to %(channel)s too.") % {"channel": channel})
            return redirect("governance:channels")
    return render(request, "governance/channels.html", _channels_context(form), status=400)


@require_http_methods(["GET", "POST"])
@login_required
def channel_edit(request, channel_id):
    channel = _channel(channel_id)
    if request.method == "GET":
        form = ChannelForm(initial={"kind": channel.kind, "target": channel.target})
        return render(request, "governance/channel_edit.html", {"channel": channel, "form": form})
    form = ChannelForm(request.POST)
    if form.is_valid():
        try:
            changed = channels.change(
                channel.pk, form.cleaned_data["kind"], form.cleaned_data["target"], actor=actors.owner(request.user)
            )
        except LifecycleError as error:
            _form_error(form, error)
        else:
            messages.success(request, _("The channel is now %(channel)s.") % {"channel": changed})
            return redirect("governance:channels")
    return render(request, "governance/channel_edit.html", {"channel": channel, "form": form}, status=400)


@require_http_methods(["GET", "POST"])
@login_required
def channel_remove(request, channel_id):
    """Stop sending the digest to a channel, after a page that names it."""
    channel = _channel(channel_id)
    if request.method == "GET" or request.POST.get("confirm") != "yes":
        return render(request, "governance/channel_remove_confirm.html", {"channel": channel})
    try:
        channels.remove([str(channel)], actor=actors.owner(request.user))
    except LifecycleError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("The digest no longer goes to %(channel)s.") % {"channel": channel})
    return redirect("governance:channels")


def _test_result(channel, delivery):
    """How a test went, in words: (message level, sentence). A test the mail server only printed is
    not one that was sent."""
    if not delivery.ok:
        return messages.ERROR, _("The test to %(channel)s failed: %(error)s") % {
            "channel": channel,
            "error": delivery.error,
        }
    problem = channels.setup_problem(channel.kind)
    if problem:
        return messages.WARNING, _("The test to %(channel)s was not sent: %(problem)s.") % {
            "channel": channel,
            "problem": problem,
        }
    return messages.SUCCESS, _("Test sent to %(channel)s: check that it arrived.") % {"channel": channel}


@require_POST
@login_required
def channel_test(request, channel_id):
    channel = _channel(channel_id)
    level, text = _test_result(channel, channels.send_test(channel))
    if request.htmx:
        tag = messages.DEFAULT_TAGS[level]
        return render(request, "governance/channels.html#test-result", {"tag": tag, "text": text})
    messages.add_message(request, level, text)
    return redirect("governance:channels")


@require_POST
@login_required
def digest_now(request):
    return _queued("governance:channels", jobs.run_soon("governance.digest.send_now"))


def _backups_context(queued_at=None):
    sqlite = connection.vendor == "sqlite"
    return {
        "sqlite": sqlite,
        "files": backups.listing() if sqlite else [],
        "folder": backups.backup_dir(),
        "keep": settings.BESTIE_BACKUP_KEEP,
        "backup": _job_state("backup", queued_at),
    }


@require_GET
@login_required
def backups_page(request):
    context = _backups_context(_queued_at(request))
    template = "governance/backups.html#backups" if request.htmx else "governance/backups.html"
    return render(request, template, context)


@require_POST
@login_required
def backup_now(request):
    return _queued("governance:backups", jobs.run_soon("governance.backups.backup"))


def _backup(name):
    try:
        return backups.named(name)
    except LifecycleError:
        raise Http404 from None


@require_GET
@login_required
def backup_download(request, name):
    path = _backup(name)
    return FileResponse(path.open("rb"), as_attachment=True, filename=path.name, content_type="application/vnd.sqlite3")


@require_http_methods(["GET", "POST"])
@login_required
def backup_restore(request, name):
    """Replace the store with a backup, after a page that shows what it is and what restoring does; the
    same ``backups.restore`` as ``bestie memory restore``, in the request: queued in the database, a
    restore would sit in the safety backup it makes."""
    path = _backup(name)
    try:
        plan = backups.restore_plan(path)
    except LifecycleError as error:
        messages.error(request, str(error))
        return redirect("governance:backups")
    if request.method == "GET" or request.POST.get("confirm") != "yes" or plan.problems:
        return render(request, "governance/backup_restore_confirm.html", {"plan": plan, "name": path.name})
    try:
        result = backups.restore(path)
    except LifecycleError as error:
        messages.error(request, str(error))
        return redirect("governance:backups")
    # The sessions are the backup's now: this one is saved again under a new key, so the response does
    # not try to update a row the restored table lacks. The login holds if the backup knows the owner.
    request.session.cycle_key()
    messages.success(
        request,
        _("Restored the store from %(name)s. The store as it was just before is the backup %(safety)s.")
        % {"name": path.name, "safety": Path(result.safety_backup).name},
    )
    return redirect("governance:backups")


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
