"""The memory doctor: analyze."""

from bestie_site.commandline import output
from bestie_site.commandline.arguments import add_json, add_limit, add_verb
from governance import doctor
from memories.models import Memory


def register(verbs):
    parser = add_verb(
        verbs, "analyze", analyze,
        "the doctor's report: duplicates, conflicts, stale, noise, core budget, missing metadata, broken chains",
    )
    parser.add_argument("--mode", choices=doctor.MODES, help="only this part of the report")
    add_limit(parser, 10)
    add_json(parser)


def _texts(groups):
    ids = {memory_id for group in groups for memory_id in group}
    return dict(Memory.objects.filter(pk__in=ids).values_list("pk", "text"))


def _write_groups(command, title, groups, limit):
    write = command.stdout.write
    write(command.style.MIGRATE_HEADING(f"{title}: {len(groups)}"))
    shown = groups[:limit]
    texts = _texts(shown)
    for group in shown:
        write("  " + ", ".join(f"#{memory_id}" for memory_id in group))
        for memory_id in group:
            write(f"    #{memory_id} {texts.get(memory_id, '')}")
    if len(groups) > limit:
        write(f"  … and {len(groups) - limit} more (--limit, --json)")


def _write_ids(command, title, ids, limit, note=""):
    write = command.stdout.write
    write(command.style.MIGRATE_HEADING(f"{title}: {len(ids)}{note}"))
    if ids:
        more = f" … and {len(ids) - limit} more" if len(ids) > limit else ""
        write("  " + ", ".join(f"#{memory_id}" for memory_id in ids[:limit]) + more)


def analyze(command, options):
    mode, limit = options["mode"], options["limit"]
    report = doctor.analyze(mode)
    if options["json"]:
        output.write_json(command, report.as_dict(mode))
        return
    details = report.details
    if mode in (None, "duplicates"):
        _write_groups(command, "duplicate groups", report.duplicates, limit)
    if mode in (None, "conflicts"):
        _write_groups(command, "conflicts", report.conflicts, limit)
    if mode in (None, "stale"):
        _write_ids(
            command, "stale", report.stale, limit,
            f" ({details['stale_unconfirmed']} not confirmed for a long time, {details['stale_unused']} unused "
            f"for {doctor.UNUSED_DAYS} days; {details['stale_expired_backlog']} expired rows not pruned yet; "
            f"{details['stale_all_rows']} rows, {details['stale_live_rows']} live)",
        )
    if mode is None:
        reasons = ", ".join(f"{n} {reason}" for reason, n in details["noise_reasons"].items())
        _write_ids(command, "noise", report.noise, limit, f" ({reasons})" if reasons else "")
        core = report.core
        line = (
            f"core tier: {core['memories']} memories, {core['tokens']} of {core['budget_tokens']} tokens, "
            f"{len(core['pinned'])} pinned"
        )
        if core["over_budget"]:
            command.stdout.write(command.style.WARNING(f"{line}; OVER BUDGET by {len(core['overflow'])} memories"))
            _write_ids(command, "left out of the core budget", core["overflow"], limit)
        else:
            command.stdout.write(command.style.MIGRATE_HEADING(line))
        _write_ids(command, "missing metadata", report.missing_metadata, limit)
        _write_ids(command, "broken supersede chains", report.broken_chains, limit)
