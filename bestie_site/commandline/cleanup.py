"""Cleanup and rebalance: a plan with ``--dry-run`` (the default), carried out with ``--apply [--yes]``."""

from bestie_site.commandline import ACTOR, output
from bestie_site.commandline.arguments import add_json, add_limit, add_verb
from governance import cleanup, rebalance

LABELS = {
    "merge": "merge",
    "mark_stale": "mark stale",
    "archive": "archive",
    "soft_delete": "soft-delete",
    "hard_delete": "hard-delete",
}


def _add_plan_options(parser):
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--dry-run", action="store_true", help="show the plan and change nothing (the default)")
    mode.add_argument("--apply", action="store_true", help="carry out the plan")
    parser.add_argument("--yes", action="store_true", help="confirm --apply when the delete policy is ask")
    add_limit(parser, 10)
    add_json(parser)


def register(verbs):
    _add_plan_options(
        add_verb(
            verbs,
            "cleanup",
            cleanup_verb,
            "consolidate, mark stale, archive, soft-delete, hard-delete as the delete policy allows: a plan first",
        )
    )
    _add_plan_options(
        add_verb(
            verbs,
            "rebalance",
            rebalance_verb,
            "move memories between layers (unused working to archive, core over budget to working): a plan first",
        )
    )


def _ids(ids, limit):
    more = f" … and {len(ids) - limit} more" if len(ids) > limit else ""
    return ", ".join(f"#{i}" for i in ids[:limit]) + more


def cleanup_verb(command, options):
    write = command.stdout.write
    if options["apply"]:

        def progress(step, done, total):
            if not options["json"]:
                write(f"[{done}/{total}] {LABELS[step]}")

        applied = cleanup.apply(actor=ACTOR, confirmed=options["yes"], progress=progress)
        if options["json"]:
            output.write_json(command, applied.__dict__)
            return
        write(
            command.style.SUCCESS(
                f"merged {len(applied.merged)} groups, marked {applied.marked_stale} stale, "
                f"archived {applied.archived}, soft-deleted {applied.soft_deleted}, hard-deleted {applied.hard_deleted}"
            )
        )
        return
    current = cleanup.plan()
    if options["json"]:
        output.write_json(command, current.as_dict())
        return
    if not current.actions:
        write("nothing to clean up")
        return
    for action in current.actions:
        write(command.style.MIGRATE_HEADING(f"{LABELS[action.step]} {len(action.ids)}: {action.reason}"))
        write(f"  {_ids(action.ids, options['limit'])}")
        if action.text:
            write(f"  merged text: {action.text}")
    write(
        f"delete policy {current.delete_policy}: "
        + {
            "deny": "--apply is refused",
            "ask": "apply with --apply --yes",
            "allow": "apply with --apply",
        }[current.delete_policy]
    )


def rebalance_verb(command, options):
    write = command.stdout.write
    if options["apply"]:
        moved = rebalance.apply(actor=ACTOR, confirmed=options["yes"])
        if options["json"]:
            output.write_json(command, moved)
            return
        write(
            command.style.SUCCESS("moved " + (", ".join(f"{n} to {layer}" for layer, n in moved.items()) or "nothing"))
        )
        return
    current = rebalance.plan()
    if options["json"]:
        output.write_json(command, current.as_dict())
        return
    if not current.moves:
        write("nothing to move")
        return
    for move in current.moves:
        write(command.style.MIGRATE_HEADING(f"to {move.to_layer} {len(move.ids)}: {move.reason}"))
        write(f"  {_ids(move.ids, options['limit'])}")
