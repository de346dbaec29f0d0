"""The memory doctor and consolidation: analyze, merge, resolve."""

from bestie_site.commandline import ACTOR, output
from bestie_site.commandline.arguments import add_json, add_limit, add_verb
from governance import consolidation, doctor
from memories.models import UNUSED_DAYS, Memory

# Texts printed per group; its ids are all listed.
MEMBERS_SHOWN = 5


def register(verbs):
    parser = add_verb(
        verbs,
        "analyze",
        analyze,
        "the doctor's report: duplicates, conflicts, stale, noise, core budget, missing metadata, broken chains",
    )
    parser.add_argument("--mode", choices=doctor.MODES, help="only this part of the report")
    add_limit(parser, 10)
    add_json(parser)

    parser = add_verb(
        verbs,
        "merge",
        merge,
        "merge duplicates into one new approved memory; each one is superseded by it (--draft shows the text)",
    )
    parser.add_argument("ids", nargs="+", metavar="ID")
    parser.add_argument("--text", help="the merged memory's text (default: the most specific member's)")
    parser.add_argument("--draft", action="store_true", help="only show the proposed text; change nothing")
    parser.add_argument("--include-pinned", action="store_true", help="allow merging away pinned memories")
    add_json(parser)

    parser = add_verb(verbs, "resolve", resolve, "settle a contradiction: WINNER supersedes each LOSER")
    parser.add_argument("winner", metavar="WINNER")
    parser.add_argument("losers", nargs="+", metavar="LOSER")
    parser.add_argument("--include-pinned", action="store_true", help="allow superseding pinned memories")
    add_json(parser)


def _texts(groups):
    ids = {memory_id for group in groups for memory_id in group[:MEMBERS_SHOWN]}
    return dict(Memory.objects.filter(pk__in=ids).values_list("pk", "text"))


def _write_groups(command, title, groups, limit):
    write = command.stdout.write
    write(command.style.MIGRATE_HEADING(f"{title}: {len(groups)}"))
    shown = groups[:limit]
    texts = _texts(shown)
    for group in shown:
        write("  " + ", ".join(f"#{memory_id}" for memory_id in group))
        for memory_id in group[:MEMBERS_SHOWN]:
            write(f"    #{memory_id} {texts.get(memory_id, '')}")
        if len(group) > MEMBERS_SHOWN:
            write(f"    … and {len(group) - MEMBERS_SHOWN} more")
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
            command,
            "stale",
            report.stale,
            limit,
            f" ({details['stale_unconfirmed']} not confirmed for a long time, {details['stale_unused']} unused "
            f"for {UNUSED_DAYS} days; {details['stale_expired_backlog']} expired rows not pruned yet; "
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


def merge(command, options):
    if options["draft"]:
        draft = consolidation.draft(options["ids"])
        if options["json"]:
            output.write_json(
                command, {"text": draft.text, "base_id": draft.base_id, "members": list(draft.member_ids)}
            )
            return
        command.stdout.write(f"proposed text (from memory #{draft.base_id}): {draft.text}")
        if draft.pinned_ids:
            pinned = ", ".join(f"#{i}" for i in draft.pinned_ids)
            command.stdout.write(command.style.WARNING(f"pinned: {pinned}; merging needs --include-pinned"))
        return
    merged = consolidation.merge(
        options["ids"], actor=ACTOR, text=options["text"], include_pinned=options["include_pinned"]
    )
    if options["json"]:
        output.write_json(command, {"id": merged.memory_id, "text": merged.text, "members": list(merged.member_ids)})
        return
    members = ", ".join(f"#{i}" for i in merged.member_ids)
    command.stdout.write(command.style.SUCCESS(f"merged {members} into memory #{merged.memory_id}: {merged.text}"))


def resolve(command, options):
    resolved = consolidation.resolve(
        options["winner"], options["losers"], actor=ACTOR, include_pinned=options["include_pinned"]
    )
    if options["json"]:
        output.write_json(command, {"winner": resolved.winner_id, "superseded": list(resolved.loser_ids)})
        return
    losers = ", ".join(f"#{i}" for i in resolved.loser_ids)
    command.stdout.write(command.style.SUCCESS(f"memory #{resolved.winner_id} stays; superseded {losers}"))
