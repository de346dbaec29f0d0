"""Maintenance verbs (SPEC §6): prune, digest, backup, restore and the digest's channels and schedule."""

from django.db import transaction
from django.utils import timezone

from bestie_site.commandline import ACTOR, output
from bestie_site.commandline.arguments import add_actions, add_json, add_verb
from governance import backups, channels, digest, prune, schedules
from governance.models import DigestChannel
from memories.lifecycle import Refused
from memories.times import iso


def _when(value):
    return timezone.localtime(value).strftime("%Y-%m-%d %H:%M") if value else "-"


def register(verbs):
    parser = add_verb(verbs, "prune", prune_verb, "erase expired memories and those superseded over 180 days ago")
    parser.add_argument("--dry-run", action="store_true", help="say what would be erased and erase nothing")
    parser.add_argument("--yes", action="store_true", help="confirm (needed with delete policy ask)")

    add_verb(verbs, "digest", send_digest, "send the digest now to the installed channels, or print it")

    parser = add_verb(verbs, "backup", backup, "copy the store into a dated, integrity-checked backup file")
    parser.add_argument("--dest", metavar="DIR", help="the backup directory (default BESTIE_BACKUP_DIR)")

    parser = add_verb(verbs, "restore", restore, "replace the store with a backup file (checked first)")
    parser.add_argument("file", metavar="FILE")
    parser.add_argument("--yes", action="store_true", help="do it; without --yes only say what would happen")

    parser = add_verb(verbs, "maintenance", None, "the digest's channels and schedule, and the jobs' last runs")
    actions = add_actions(parser, required=True)
    parser = add_verb(actions, "install", install, "send the digest to these channels on a schedule")
    parser.add_argument(
        "--channel",
        action="append",
        required=True,
        metavar="KIND:TARGET",
        help="email:ADDRESS, telegram:CHAT_ID, zalo:USER_ID or webhook:URL; repeat for several",
    )
    parser.add_argument(
        "--schedule",
        metavar="CRON",
        help=f"when, as cron; without it the schedule stays as it is ({schedules.DEFAULT_DIGEST_CRON!r}, "
        "Mondays 09:00, until changed)",
    )
    add_json(add_verb(actions, "status", status, "channels, schedules, next and last runs, last outcomes"))
    parser = add_verb(actions, "remove", remove, "stop sending the digest to these channels (all without --channel)")
    parser.add_argument("--channel", action="append", default=[], metavar="KIND:TARGET")


def prune_verb(command, options):
    plan = prune.plan()
    total = plan.would_delete
    if options["dry_run"]:
        command.stdout.write(
            f"would erase {total} memories ({plan.expired} expired, {plan.superseded} superseded over "
            f"{prune.SUPERSEDED_KEEP_DAYS} days ago); delete policy {plan.policy}; nothing erased"
        )
        return
    result = prune.prune(confirmed=options["yes"])
    if result.awaiting_confirmation:
        command.stdout.write(
            f"{total} memories await erasing ({plan.expired} expired, {plan.superseded} superseded); the delete "
            "policy is ask: run `bestie memory prune --yes` to erase them"
        )
        return
    if result.would_delete:
        raise Refused(
            f"the delete policy is deny: {total} memories would be erased; nothing was. "
            "Change it with `bestie memory policy delete ask|allow`"
        )
    command.stdout.write(
        command.style.SUCCESS(
            f"erased {result.deleted} memories ({result.expired} expired, {result.superseded} superseded, and the "
            f"older versions they replaced) in {result.batches} batch(es)"
        )
    )


def send_digest(command, options):
    if not DigestChannel.objects.exists():
        command.stdout.write(digest.preview().text)
        command.stderr.write(
            "no channels installed (bestie memory maintenance install --channel …): printed it instead"
        )
        return
    result = digest.send_now()
    for delivery in result.deliveries:
        if delivery.ok:
            line = f"{delivery.channel}: sent"
        elif delivery.attempts:
            line = f"{delivery.channel}: FAILED after {delivery.attempts} attempts: {delivery.error}"
        else:
            line = f"{delivery.channel}: FAILED, not tried: {delivery.error}"
        command.stdout.write(command.style.SUCCESS(line) if delivery.ok else command.style.ERROR(line))
    if not result.sent:
        raise Refused(f"the digest was not sent: {result.reason}")


def backup(command, options):
    result = backups.backup(options["dest"])
    rotated = f"; rotated out {', '.join(result.rotated_out)}" if result.rotated_out else ""
    command.stdout.write(
        command.style.SUCCESS(
            f"backed up to {result.path} ({result.size_bytes // 1024} KiB, integrity ok, "
            f"{result.seconds:.1f} s){rotated}"
        )
    )


def restore(command, options):
    plan = backups.restore_plan(options["file"])
    if plan.problems:
        raise backups.BackupError(
            f"{plan.source} failed its integrity check ({'; '.join(plan.problems[:5])}); nothing was restored"
        )
    if not options["yes"]:
        command.stdout.write(
            f"would replace the content of {plan.database} with {plan.source} ({plan.source_bytes // 1024} KiB, "
            "integrity ok), after backing up the current store; run again with --yes to do it"
        )
        return
    result = backups.restore(options["file"])
    command.stdout.write(
        command.style.SUCCESS(
            f"restored {result.database} from {result.source}; the store as it was is in {result.safety_backup}"
        )
    )


def install(command, options):
    """Add channels; only a given ``--schedule`` changes when the digest goes out."""
    given = options["schedule"]
    cron = None if given is None else schedules.clean_cron(given)
    with transaction.atomic():
        added = channels.install(options["channel"], actor=ACTOR)
        if cron is None:
            cron = schedules.cron_of("digest")
        else:
            schedules.set_digest_cron(cron, actor=ACTOR)
    names = ", ".join(str(channel) for channel in added) or "no new channel (all were installed already)"
    command.stdout.write(command.style.SUCCESS(f"digest: added {names}; schedule {cron!r}"))


def remove(command, options):
    removed = channels.remove(options["channel"], actor=ACTOR)
    command.stdout.write(f"removed {removed} channel(s); {DigestChannel.objects.count()} left")


def status(command, options):
    installed = [str(channel) for channel in DigestChannel.objects.all()]
    rows = schedules.status()
    if options["json"]:
        output.write_json(
            command,
            {
                "channels": installed,
                "jobs": [
                    {
                        "schedule": row.schedule,
                        "function": row.func,
                        "cron": row.cron,
                        "next_run": iso(row.next_run),
                        "last_run": iso(row.last_started_at),
                        "last_outcome": row.last_outcome,
                        "last_error": row.last_error,
                    }
                    for row in rows
                ],
            },
        )
        return
    command.stdout.write(
        f"digest channels: {', '.join(installed) or 'none (bestie memory maintenance install --channel …)'}"
    )
    for row in rows:
        last = f"last {_when(row.last_started_at)} {row.last_outcome}" if row.last_started_at else "never run"
        error = f": {row.last_error}" if row.last_error else ""
        command.stdout.write(
            f"{row.schedule:<26} {row.cron or '(no schedule)':<12} next {_when(row.next_run)}  {last}{error}"
        )
