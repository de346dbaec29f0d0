"""Store hygiene: ``hygiene [status]``, ``hygiene doctor [--fix]``, ``hygiene trend``, ``hygiene --apply``."""

import argparse

from bestie_site.commandline import output
from bestie_site.commandline.arguments import (
    add_actions,
    add_json,
    add_verb,
    days,
)
from governance import hygiene as store_hygiene
from memories.times import iso


def register(verbs):
    parser = add_verb(
        verbs,
        "hygiene",
        status,
        "the store's hygiene score (0-100) with its parts; --apply makes the safe fixes and prunes the backlog",
    )
    parser.add_argument("--apply", action="store_true", help="safe fixes, prune the expired backlog, take a snapshot")
    parser.add_argument("--yes", action="store_true", help="confirm --apply when the delete policy is ask")
    add_json(parser)
    actions = add_actions(parser, required=False)
    add_json(add_verb(actions, "status", status, "the score and its parts (the default)"), argparse.SUPPRESS)
    doctor = add_verb(actions, "doctor", doctor_verb, "what the safe fixes would do; --fix makes them")
    doctor.add_argument(
        "--fix",
        action="store_true",
        help="recompute missing text keys, cut broken chains, prune as the delete policy allows",
    )
    doctor.add_argument(
        "--yes", action="store_true", default=argparse.SUPPRESS, help="let --fix prune when the delete policy is ask"
    )
    add_json(doctor, argparse.SUPPRESS)
    trend = add_verb(actions, "trend", trend_verb, "the score over time, from the daily snapshots")
    trend.add_argument("--days", type=days, default=90, help="how far back (default 90)")
    add_json(trend, argparse.SUPPRESS)


def status(command, options):
    if options["apply"]:
        apply(command, options)
        return
    current = store_hygiene.score()
    if options["json"]:
        output.write_json(command, {"score": current.score, "parts": current.parts, "counts": current.counts})
        return
    write = command.stdout.write
    write(command.style.MIGRATE_HEADING(f"hygiene score {current.score}/100"))
    for name, part in current.parts.items():
        write(f"  {name:<16}{part['points']:>6.1f} of {part['weight']:>3}  ({part['value']:.0%})")


def _fixes_json(fixes):
    return {
        "text_keys": fixes.text_keys,
        "chains_cut": fixes.chains_cut,
        "pruned": fixes.prune.deleted if fixes.prune else 0,
    }


def _write_fixes(command, fixes):
    write = command.stdout.write
    write(f"text keys filled: {fixes.text_keys}")
    write(
        f"broken chain links cut: {len(fixes.chains_cut)}"
        + (f" ({', '.join(f'#{i}' for i in fixes.chains_cut)})" if fixes.chains_cut else "")
    )
    if fixes.prune is None:
        write("expired backlog: none")
    elif fixes.prune.deleted:
        write(f"expired backlog: pruned {fixes.prune.deleted} memories")
    else:
        write(
            command.style.WARNING(
                f"expired backlog: {fixes.prune.would_delete} kept (delete policy {fixes.prune.policy}; "
                "`bestie memory prune --yes` or `hygiene --apply --yes` when it is ask)"
            )
        )


def apply(command, options):
    fixes = store_hygiene.apply(confirmed=options["yes"])
    if options["json"]:
        output.write_json(command, _fixes_json(fixes))
        return
    _write_fixes(command, fixes)
    command.stdout.write(command.style.SUCCESS(f"hygiene score now {store_hygiene.score().score}/100"))


def doctor_verb(command, options):
    if options["fix"]:
        fixes = store_hygiene.fix(confirmed=options.get("yes", False))
        if options["json"]:
            output.write_json(command, _fixes_json(fixes))
            return
        _write_fixes(command, fixes)
        return
    plan = store_hygiene.plan()
    if options["json"]:
        output.write_json(command, plan.__dict__)
        return
    write = command.stdout.write
    write(f"missing text keys to fill: {plan.text_keys}")
    write(f"broken supersede chains to cut: {len(plan.broken_chains)}")
    write(f"expired rows to prune: {plan.expired_backlog} (delete policy {plan.delete_policy})")
    write("run `bestie memory hygiene doctor --fix` to make these fixes; `bestie memory analyze` shows the rest")


def trend_verb(command, options):
    points = store_hygiene.trend(options["days"])
    if options["json"]:
        output.write_json(command, [{"taken_at": iso(at), "score": score} for at, score in points])
        return
    if not points:
        command.stdout.write("no snapshots yet (the daily hygiene job takes them; `hygiene --apply` takes one)")
        return
    for at, score in points:
        command.stdout.write(f"{output.day(at)}  {score:>3}  {'#' * (score // 2)}")
