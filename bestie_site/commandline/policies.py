"""The owner's switches: pause, resume, the write and delete policies and the governance policy."""

from bestie_site.commandline import ACTOR, output
from bestie_site.commandline.arguments import add_actions, add_json, add_verb
from memories.lifecycle import policies
from memories.models import Governance, MemorySettings, Policy

GOVERNANCE = {
    Governance.GOVERNED: "retrieval sees the current user's core memories and those of the current project or "
    "session, above the confidence floor",
    Governance.FULL: "retrieval sees every live working memory of the user",
}


def register(verbs):
    add_verb(verbs, "pause", pause, "stop writing and injecting memories (listing and search keep working)")
    add_verb(verbs, "resume", resume, "write and inject memories again")

    parser = add_verb(verbs, "policy", show_policy, "show the write and delete policies, or set one")
    add_json(parser)
    actions = add_actions(parser, required=False)
    for name, handler, help in (
        ("write", set_write_policy, "allow: store at once; ask: queue for your approval; deny: refuse"),
        ("delete", set_delete_policy, "for every deletion: allow, ask (you confirm: --yes or naming it) or deny"),
    ):
        parser = add_verb(actions, name, handler, help)
        parser.add_argument("value", choices=Policy.values, metavar="|".join(Policy.values))

    parser = add_verb(verbs, "governance", None, "how widely retrieval reaches")
    actions = add_actions(parser, required=True)
    add_json(add_verb(actions, "status", governance_status, "show the governance policy"))
    parser = add_verb(actions, "policy", set_governance_policy, "governed (the default) or full")
    parser.add_argument("value", choices=Governance.values, metavar="|".join(Governance.values))


def pause(command, options):
    policies.pause(actor=ACTOR)
    command.stdout.write(
        command.style.WARNING(
            "memory paused: nothing is written or injected until `bestie memory resume`; listing and search still work"
        )
    )


def resume(command, options):
    policies.resume(actor=ACTOR)
    command.stdout.write(command.style.SUCCESS("memory resumed: writing and injecting again"))


def _policies(memory_settings):
    return {"write_policy": memory_settings.write_policy, "delete_policy": memory_settings.delete_policy}


def show_policy(command, options):
    current = _policies(MemorySettings.load())
    if options["json"]:
        output.write_json(command, current)
    else:
        command.stdout.write(f"write policy   {current['write_policy']}")
        command.stdout.write(f"delete policy  {current['delete_policy']}")


def _change(name, before, after):
    return f"{name}: {after}" + (f" (was {before})" if before != after else " (unchanged)")


def _set(command, options, field, setter):
    before = getattr(MemorySettings.load(), field)
    after = getattr(setter(options["value"], actor=ACTOR), field)
    command.stdout.write(command.style.SUCCESS(_change(field.replace("_", " "), before, after)))


def set_write_policy(command, options):
    _set(command, options, "write_policy", policies.set_write_policy)


def set_delete_policy(command, options):
    _set(command, options, "delete_policy", policies.set_delete_policy)


def governance_status(command, options):
    memory_settings = MemorySettings.load()
    report = {"governance_policy": memory_settings.governance_policy, "paused": memory_settings.paused}
    if options["json"]:
        output.write_json(command, report)
        return
    policy = report["governance_policy"]
    command.stdout.write(f"governance policy: {policy}: {GOVERNANCE[policy]}")
    if report["paused"]:
        command.stdout.write(command.style.WARNING("memory is paused: nothing is injected at all"))


def set_governance_policy(command, options):
    before = MemorySettings.load().governance_policy
    after = policies.set_governance_policy(options["value"], actor=ACTOR).governance_policy
    change = _change("governance policy", before, after)
    command.stdout.write(command.style.SUCCESS(f"{change}: {GOVERNANCE[after]}"))
