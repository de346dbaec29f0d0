"""Reports on the store: status, tiers and summary."""

from django.conf import settings

from bestie_site.commandline import output
from bestie_site.commandline.arguments import add_json, add_verb
from memories import reports

COUNTS = ("live", "pending", "rejected", "superseded", "expired", "deleted", "stale", "pinned")


def register(verbs):
    add_json(add_verb(verbs, "status", status, "policies, pause, counts and the database in use"))
    add_json(add_verb(verbs, "tiers", tiers, "live memories per layer and the core tier against its budget"))
    add_json(add_verb(verbs, "summary", summary, "what the store holds: counts by kind, scope, layer and status"))


def _counts(counts):
    return f"{counts['total']} in all: " + ", ".join(f"{counts[name]} {name}" for name in COUNTS)


def _size(size):
    for unit in ("bytes", "KiB", "MiB"):
        if size < 1024:
            return f"{size:.0f} {unit}"
        size /= 1024
    return f"{size:.1f} GiB"


def status(command, options):
    report = reports.status()
    if options["json"]:
        output.write_json(command, report)
        return
    write = command.stdout.write
    if report["paused"]:
        write(command.style.WARNING("memory is PAUSED: nothing is written or injected (`bestie memory resume`)"))
    else:
        write(command.style.SUCCESS("memory is on"))
    if report["erasure_pending_since"]:
        write(
            command.style.WARNING(
                f"an erasure is PENDING since {report['erasure_pending_since']}: another process holds a read open, so "
                "what was forgotten is still in the WAL file; it is finished as soon as that process lets go"
            )
        )
    write(f"write policy       {report['write_policy']}")
    write(f"delete policy      {report['delete_policy']}")
    write(f"governance policy  {report['governance_policy']}")
    write(f"token budgets      core {report['core_budget_tokens']}, working {report['working_budget_tokens']}")
    write(f"memories           {_counts(report['memories'])}")
    database = report["database"]
    if database["engine"] == "sqlite":
        write(
            f"database           SQLite {database['path']} "
            f"({_size(database['size_bytes'])}, journal {database['journal_mode']})"
        )
    else:
        write(f"database           {database['engine']} {database['name']}")


def tiers(command, options):
    report = reports.tiers()
    if options["json"]:
        output.write_json(command, report)
        return
    write = command.stdout.write
    write(f"{'layer':<10}{'live':>8}{'injectable':>12}")
    for layer, counts in report["layers"].items():
        write(f"{layer:<10}{counts['live']:>8}{counts['injectable']:>12}")
    core = report["core"]
    line = f"core tier: {core['tokens']} of {core['budget_tokens']} tokens, {core['pinned']} pinned"
    write(command.style.WARNING(f"{line}; OVER BUDGET") if core["over_budget"] else line)


def summary(command, options):
    report = reports.summary()
    if options["json"]:
        output.write_json(command, report)
        return
    write = command.stdout.write
    write(f"memories: {_counts(report['counts'])}")
    for title, key in (
        ("live by kind", "live_by_kind"),
        ("live by scope", "live_by_scope"),
        ("live by layer", "live_by_layer"),
        ("by status", "by_status"),
    ):
        groups = report[key]
        write(f"{title}: " + (", ".join(f"{name} {n}" for name, n in groups.items()) or "none"))
    write(f"oldest pending proposal: {output.day(report['oldest_pending_at'])}")
    write(f"oldest confirmation of a live memory: {output.day(report['oldest_confirmed_at'])}")
    write(f"live memories not confirmed for {settings.BESTIE_DRIFT_AGE_DAYS} days: {report['needs_review']}")
