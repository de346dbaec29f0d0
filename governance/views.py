"""The settings page of the owner's console: policies and pause, through ``governance.policies``."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from governance import policies
from governance.forms import PoliciesForm, TokenForm
from memories import agents
from memories.lifecycle import LifecycleError
from memories.models import MemorySettings
from review.views import actor


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
        "tokens": agents.list_tokens(),
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
    who = actor(request)
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
        policies.pause(actor=actor(request))
        messages.success(request, _("Memory is paused: nothing is written or injected until you resume."))
    else:
        policies.resume(actor=actor(request))
        messages.success(request, _("Memory is running again: writing and injecting resumed."))
    return redirect("governance:settings")


@require_POST
@login_required
def create_token(request):
    """A new agent token. Its plaintext is in this one response and nowhere else: not in a message,
    the session or a redirect."""
    form = TokenForm(request.POST)
    if form.is_valid():
        name = form.cleaned_data["name"]
        try:
            plaintext = agents.create_token(name, actor=actor(request))
        except LifecycleError as error:
            form.add_error("name", str(error))
        else:
            context = settings_context(new_token={"name": name, "plaintext": plaintext})
            response = render(request, "governance/settings.html", context)
            response["Cache-Control"] = "no-store"
            return response
    return render(request, "governance/settings.html", settings_context(token_form=form))


@require_POST
@login_required
def revoke_token(request):
    name = request.POST.get("name", "")
    try:
        agents.revoke_token(name, actor=actor(request))
    except LifecycleError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("Token %(name)s revoked: it no longer opens the API.") % {"name": name})
    return redirect("governance:settings")
