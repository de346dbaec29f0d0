"""The drift review: ``review`` lists this week's queue; ``review confirm|supersede|expire|forget ID``."""

from django.conf import settings

from bestie_site.commandline import ACTOR, output
from bestie_site.commandline.arguments import (
    add_actions,
    add_json,
    add_limit,
    add_verb,
    moment,
    ttl,
)
from memories.times import iso
from review import drift


def register(verbs):
    parser = add_verb(
        verbs,
        "review",
        queue,
        f"drift review: live memories not confirmed for {settings.BESTIE_DRIFT_AGE_DAYS} days, oldest first, "
        f"{settings.BESTIE_DRIFT_WEEKLY} a week",
    )
    add_limit(parser, None)
    add_json(parser)
    actions = add_actions(parser, required=False)
    add_verb(actions, "confirm", confirm, "still true: confirmed today").add_argument("id", metavar="ID")
    supersede = add_verb(actions, "supersede", supersede_one, "no longer true: a new memory with TEXT replaces it")
    supersede.add_argument("id", metavar="ID")
    supersede.add_argument("text", metavar="TEXT")
    expire = add_verb(actions, "expire", expire_one, "true for a while yet: give it an end")
    expire.add_argument("id", metavar="ID")
    when = expire.add_mutually_exclusive_group(required=True)
    when.add_argument("--ttl", type=ttl, help="from now, like 30d or 12w")
    when.add_argument("--at", type=moment, help="an ISO-8601 time with a time zone")
    add_verb(actions, "forget", forget_one, "not true and not worth keeping: erase it").add_argument("id", metavar="ID")


def queue(command, options):
    current = drift.drift_queue(limit=options["limit"])
    if options["json"]:
        output.write_json(
            command,
            {
                "items": [
                    {
                        "id": m.pk,
                        "subject": m.subject,
                        "text": m.text,
                        "source": m.source,
                        "confirmed_at": iso(m.confirmed_at),
                    }
                    for m in current.items
                ],
                "due": current.due,
                "reviewed_this_week": current.reviewed_this_week,
                "weekly": current.weekly,
                "age_days": current.age_days,
            },
        )
        return
    write = command.stdout.write
    write(
        f"{current.due} live memories not confirmed for {current.age_days} days; "
        f"{current.reviewed_this_week} of {current.weekly} reviewed this week"
    )
    if not current.items:
        write("nothing to review this week" if current.due else "nothing to review")
        return
    for memory in current.items:
        write(f"#{memory.pk}  confirmed {output.day(memory.confirmed_at)}  [{memory.subject or '-'}] {memory.text}")
        write(f"      source: {memory.source}")
    write("per item: bestie memory review confirm|supersede|expire|forget ID")


def confirm(command, options):
    memory = drift.confirm(options["id"], actor=ACTOR)
    command.stdout.write(command.style.SUCCESS(f"memory #{memory.pk} confirmed"))


def supersede_one(command, options):
    new = drift.supersede(options["id"], options["text"], actor=ACTOR)
    command.stdout.write(command.style.SUCCESS(f"memory #{options['id']} is superseded by memory #{new.pk}"))


def expire_one(command, options):
    memory = drift.set_expiry(options["id"], actor=ACTOR, expires_at=options["at"], ttl=options["ttl"])
    command.stdout.write(command.style.SUCCESS(f"memory #{memory.pk} expires {output.day(memory.expires_at)}"))


def forget_one(command, options):
    erased = drift.forget(options["id"], actor=ACTOR)
    command.stdout.write(command.style.SUCCESS(f"forgot {', '.join(f'#{i}' for i in erased)}"))
