"""``bestie memory context QUERY``: what would be injected for a request, and why (SPEC §4, §7)."""

from bestie_site.commandline import output
from bestie_site.commandline.arguments import add_json, add_query, add_verb, positive_int
from memories import retrieval


def register(verbs):
    parser = add_verb(
        verbs, "context", context, "what Bestie would see for QUERY, each memory's score and the near-misses"
    )
    add_query(parser)
    parser.add_argument("--user", default="", help="the user asking (governed retrieval keeps their memories)")
    parser.add_argument("--channel", default="", help="the conversation's channel, like telegram:123")
    parser.add_argument("--project", default="", help="the current project")
    parser.add_argument("--budget", type=positive_int, metavar="N", help="working budget in tokens for this request")
    parser.add_argument("--limit", type=positive_int, metavar="K", help="at most K working memories")
    add_json(parser)


def _signals(item):
    return " ".join(f"{name} {value:.4f}" for name, value in item.signals.items())


def _item_line(item):
    pinned = " pinned" if item.pinned else ""
    return f"#{item.id}  {item.layer}{pinned}  score {item.score:.4f}  {item.text}\n    {_signals(item)}"


def context(command, options):
    # A preview: looking at what would be injected does not count as using those memories.
    result = retrieval.build_context(
        " ".join(options["query"]),
        user=options["user"],
        channel=options["channel"],
        project=options["project"],
        budget_tokens=options["budget"],
        limit=options["limit"],
        record_access=False,
    )
    if options["json"]:
        output.write_json(command, retrieval.as_json(result))
        return
    write = command.stdout.write
    if result.paused:
        write(command.style.WARNING("memory is PAUSED: nothing is injected (`bestie memory resume`)"))
        return
    budgets = result.budgets
    write(
        f"governance {result.governance}; {result.tokens} tokens "
        f"(budgets: core {budgets['core']}, working {budgets['working']})"
    )
    write(result.prompt or "(nothing to inject)")
    write("")
    write("injected:" if result.items else "injected: none")
    for item in result.items:
        write(_item_line(item))
    write("near-misses:" if result.near_misses else "near-misses: none")
    for item in result.near_misses:
        write(f"{_item_line(item)}\n    left out: {item.reason}")
