"""Verbs on memories: list, search, add, inspect and the lifecycle changes (edit, pin, unpin, move,
supersede, confirm, expire, forget, clear)."""

from django.utils import timezone

from bestie_site.commandline import ACTOR, output
from bestie_site.commandline.arguments import add_json, add_limit, add_query, add_verb, moment, ttl
from memories import lifecycle, transfer
from memories.models import AuditEvent, Layer, Memory, MemoryQuerySet, Message, Scope, SourceKind, Status
from memories.retrieval.finding import find

# What ``--status`` accepts: the owner's decision on a memory and the states ``Memory.state`` derives.
STATES = MemoryQuerySet.STATES


def register(verbs):
    parser = add_verb(verbs, "list", list_memories, "every memory, archive included, in id order")
    parser.add_argument("--scope", choices=Scope.values)
    parser.add_argument("--layer", choices=Layer.values)
    parser.add_argument(
        "--status",
        choices=STATES,
        help="a decision (pending, approved, rejected) or a state (live, stale, superseded, expired, deleted)",
    )
    parser.add_argument("--kind", help="only memories of this kind, like preference")
    add_limit(parser, None)
    add_json(parser)

    parser = add_verb(verbs, "search", search, "memories holding every word of QUERY (else most of it), best first")
    add_query(parser)
    parser.add_argument("--status", choices=STATES, help="only memories with this decision or state")
    add_limit(parser, 20)
    add_json(parser)

    parser = add_verb(verbs, "add", add, "store a memory of your own, approved at once")
    parser.add_argument("kind", metavar="KIND", help="a slug: preference, project_context, decision, fact, …")
    parser.add_argument("text", metavar="TEXT", help="the memory, one clear sentence")
    parser.add_argument("--subject", help="short key of what it is about, like language")
    parser.add_argument("--scope", choices=Scope.values, help="where it applies (default core)")
    parser.add_argument("--project", help="the project it belongs to (needed with --scope project)")
    parser.add_argument("--channel", help="the channel it applies to, like telegram:123")
    parser.add_argument("--user", help="the user it is about")
    parser.add_argument("--layer", choices=Layer.values, help="its tier (default working)")
    parser.add_argument("--ttl", type=ttl, help="forget it by itself after this long: 30m, 12h, 7d, 2w")
    parser.add_argument("--pin", action="store_true", help="always keep it (use rarely)")
    parser.add_argument("--confidence", help="how sure it is, 0 to 1 (default 1)")
    parser.add_argument("--source", default="cli", help="where it came from (default cli)")

    parser = add_verb(verbs, "inspect", inspect, "every field of a memory, its supersede chain and its history")
    parser.add_argument("id", metavar="ID")
    add_json(parser)

    parser = add_verb(verbs, "edit", edit, "reword a memory (counts as confirming it)")
    parser.add_argument("id", metavar="ID")
    parser.add_argument("text", metavar="TEXT")

    for name, handler, help in (
        ("pin", pin, "always keep a memory: never cleaned up, merged or demoted"),
        ("unpin", unpin, "let a pinned memory be cleaned up like the others again"),
        ("confirm", confirm, "mark a memory as checked and still true (and no longer stale)"),
    ):
        add_verb(verbs, name, handler, help).add_argument("id", metavar="ID")

    parser = add_verb(verbs, "move", move, "change where a memory applies or which tier it sits in")
    parser.add_argument("id", metavar="ID")
    parser.add_argument("--scope", choices=Scope.values)
    parser.add_argument("--layer", choices=Layer.values)
    parser.add_argument("--project")

    parser = add_verb(verbs, "supersede", supersede, "NEW replaces OLD: OLD is hidden for good")
    parser.add_argument("old", metavar="OLD")
    parser.add_argument("new", metavar="NEW")

    parser = add_verb(verbs, "expire", expire, "give a memory an end, or take it away")
    parser.add_argument("id", metavar="ID")
    when = parser.add_mutually_exclusive_group(required=True)
    when.add_argument("--ttl", type=ttl, help="this long from now: 30m, 12h, 7d, 2w")
    when.add_argument("--at", type=moment, help="at this time, like 2026-12-01T09:00:00Z")
    when.add_argument("--never", action="store_true", help="never expire")

    parser = add_verb(
        verbs,
        "forget",
        forget,
        "erase a memory for good, with the older versions it replaced; only a hash stays in the history",
    )
    parser.add_argument("id", metavar="ID")
    parser.add_argument(
        "--restore-previous",
        action="store_true",
        help="make the memories it replaced current again instead of erasing them",
    )

    parser = add_verb(verbs, "clear", clear, "erase every memory and the whole history (shows the plan without --yes)")
    parser.add_argument("--yes", action="store_true", help="really erase everything")


def list_memories(command, options):
    now = timezone.now()
    memories = Memory.objects.all()
    for field in ("scope", "layer", "kind"):
        if options[field]:
            memories = memories.filter(**{field: options[field]})
    if options["status"]:
        memories = memories.in_state(options["status"], now)
    memories = memories.order_by("id")
    if options["limit"]:
        memories = memories[: options["limit"]]
    output.write_memories(command, memories, as_json=options["json"], now=now)


def search(command, options):
    now = timezone.now()
    memories = Memory.objects.all()
    if options["status"]:
        memories = memories.in_state(options["status"], now)
    found = find(memories, " ".join(options["query"]))[: options["limit"]]
    output.write_memories(command, found, as_json=options["json"], now=now, empty="no memory matches")


def add(command, options):
    optional = ("subject", "scope", "project", "channel", "user", "layer", "ttl", "confidence")
    memory = lifecycle.add(
        kind=options["kind"],
        text=options["text"],
        source=options["source"],
        source_kind=SourceKind.OWNER,
        status=Status.APPROVED,
        pinned=options["pin"],
        actor=ACTOR,
        **{name: options[name] for name in optional if options[name] is not None},
    )
    command.stdout.write(command.style.SUCCESS(f"added memory #{memory.pk}"))


# ---------------------------------------------------------------------------------------------------
# inspect (``pending inspect`` shows the same)


def details(memory, now):
    """Everything ``inspect`` shows, as its JSON object."""
    history = AuditEvent.objects.filter(memory_id=memory.pk).order_by("id")
    message = (
        memory.message_id
        and Message.objects.filter(pk=memory.message_id).values_list(*output.MESSAGE_FIELDS, named=True).first()
    )
    return {
        **transfer.memory_dict([getattr(memory, attribute) for attribute in output.MEMORY_ATTRIBUTES]),
        "state": memory.state(now),
        "supersedes": lifecycle.predecessors([memory.pk]),
        "superseded_by_chain": lifecycle.successors(memory),
        "message": output.message_json(message) if message else None,
        "history": [
            transfer.history_dict(row) for row in history.values_list(*transfer.HISTORY_FIELDS.values()).iterator()
        ],
    }


def _value(name, value):
    if value is None or value == "" or value == []:
        return "-"
    if name.endswith("_at"):
        return output.day(value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(map(str, value))
    return str(value)


def _change(event):
    """What an audit event changed, in a few words; a creation shows no values (the fields say them)."""
    if event["text_sha256"]:
        return f"text sha256 {event['text_sha256'][:12]}…"
    old, new = event["old"], event["new"]
    if not old or not new:
        return ""
    return "; ".join(f"{name}: {_value(name, old.get(name))} -> {_value(name, new.get(name))}" for name in new)


def write_details(command, info, now):
    write = command.stdout.write
    write(command.style.MIGRATE_HEADING(f"memory #{info['id']}  {info['state']}"))
    for name, value in info.items():
        if name in transfer.MEMORY_FIELDS and name != "id":
            write(f"  {name:<17}{_value(name, value)}")
    related = Memory.objects.in_bulk(info["supersedes"] + info["superseded_by_chain"])
    for title, ids in (("supersedes", info["supersedes"]), ("superseded by", info["superseded_by_chain"])):
        write(f"{title}:" if ids else f"{title}: nothing")
        for memory_id in ids:
            write(f"  #{memory_id}  {related[memory_id].state(now)}  {related[memory_id].text}")
    if message := info["message"]:
        write("source message:")
        write(f"  #{message['id']}  {output.day(message['created_at'])}  {message['role']}  {message['text']}")
    write("history:")
    for event in info["history"]:
        line = f"  {output.day(event['at'])}  {event['event']:<10} {event['actor']}"
        extra = "  ".join(part for part in (_change(event), event["note"]) if part)
        write(f"{line}  {extra}" if extra else line)


def inspect(command, options):
    now = timezone.now()
    memory = lifecycle.get_memory(options["id"])
    info = details(memory, now)
    if options["json"]:
        output.write_json(command, info)
    else:
        write_details(command, info, now)


# ---------------------------------------------------------------------------------------------------
# Changing one memory


def edit(command, options):
    memory = lifecycle.edit(options["id"], options["text"], actor=ACTOR)
    command.stdout.write(command.style.SUCCESS(f"edited memory #{memory.pk}"))


def pin(command, options):
    memory = lifecycle.pin(options["id"], actor=ACTOR)
    command.stdout.write(command.style.SUCCESS(f"pinned memory #{memory.pk}"))


def unpin(command, options):
    memory = lifecycle.unpin(options["id"], actor=ACTOR)
    command.stdout.write(command.style.SUCCESS(f"unpinned memory #{memory.pk}"))


def confirm(command, options):
    memory = lifecycle.confirm(options["id"], actor=ACTOR)
    command.stdout.write(command.style.SUCCESS(f"confirmed memory #{memory.pk}"))


def move(command, options):
    memory = lifecycle.move(
        options["id"], actor=ACTOR, scope=options["scope"], layer=options["layer"], project=options["project"]
    )
    command.stdout.write(command.style.SUCCESS(f"moved memory #{memory.pk} to {output.placement(memory)}"))


def supersede(command, options):
    old = lifecycle.supersede(options["old"], options["new"], actor=ACTOR)
    command.stdout.write(command.style.SUCCESS(f"memory #{old.pk} is superseded by memory #{old.superseded_by_id}"))


def expire(command, options):
    memory = lifecycle.set_expiry(options["id"], actor=ACTOR, expires_at=options["at"], ttl=options["ttl"])
    if memory.expires_at:
        when = f"expires {output.day(memory.expires_at)}"
    else:
        when = "no longer expires"
    command.stdout.write(command.style.SUCCESS(f"memory #{memory.pk} {when}"))


def forget(command, options):
    # Naming the memory to forget is the owner's confirmation.
    forgotten = lifecycle.forget(
        options["id"], actor=ACTOR, confirmed=True, restore_previous=options["restore_previous"]
    )
    first, *older = forgotten.erased
    command.stdout.write(command.style.SUCCESS(f"forgot memory #{first}"))
    if older:
        command.stdout.write(f"also forgot the older versions it had replaced: {', '.join(f'#{i}' for i in older)}")
    if forgotten.restored:
        restored = ", ".join(f"#{i}" for i in forgotten.restored)
        command.stdout.write(f"the memories it had replaced are current again: {restored}")


def clear(command, options):
    if not options["yes"]:
        plan = lifecycle.clear_plan()
        command.stdout.write(
            command.style.WARNING(
                f"clear would erase all {plan['memories']} memories, {plan['messages']} messages and "
                f"{plan['history']} history events, for good. "
                "Nothing was changed; run `bestie memory clear --yes` to do it."
            )
        )
        return
    count = lifecycle.clear(actor=ACTOR, confirmed=True)
    command.stdout.write(command.style.SUCCESS(f"erased {count} memories, every message and the whole history"))
