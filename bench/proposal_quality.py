"""Contradictions the write path flags when they are proposed, on the blind bilingual meaning sets.

    .venv/bin/python bench/proposal_quality.py [--held-out | --held-out-2 | … | --held-out-12] [--policy allow]
    BESTIE_EMBEDDINGS=local .venv/bin/python bench/proposal_quality.py …   # with meaning

The set's memories are written to a fresh SQLite store, approved. Then, for each labelled pair of groups
that cannot both be true, and for each look-alike pair, in both directions: the memories of one group are
hidden, the first of them is proposed again by an agent (write policy ``ask``, or ``--policy allow``, as
its user, kind and subject), the job cluster's check after the write runs when embeddings are on, and the memories the
pending queue lists as what it may replace (``possible_updates``) are read. Then the proposal goes and
the hidden memories come back.

Under ``allow`` a proposal is caught only when it ends up queued, flagged: approved, it lists nothing.

Then each memory of the set is hidden alone and proposed again: the write path should answer
``duplicate`` (or, with embeddings on, merge it after the write) with a memory of its group (the same
fact, in other words or the other language), and must never with a memory of another group, which would
drop the proposal for a fact it does not hold.

Scores, over proposals of a contradiction or a look-alike:
- caught: a contradiction's proposal listing a memory of the other group as one it may replace;
- missed: the others;
- false: a proposal listing a memory of a group the set does not say it contradicts (look-alikes
  included), counted once per proposal.
And over the proposals of each memory again:
- repeats caught: answered ``duplicate`` with a memory of its group, of those whose group has another;
- false duplicates: answered ``duplicate`` with a memory of another group.
"""

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.meaning_quality import add_part_options, load_set, write_store  # noqa: E402


def trials(module):
    """``(proposed group, other group, contradicts)`` for each labelled pair, both ways."""
    for first, second in module.CONTRADICTIONS:
        yield first, second, True
        yield second, first, True
    for first, second in getattr(module, "LOOKALIKES", []):
        yield first, second, False
        yield second, first, False


def run(module, policy="ask", show=False):
    from django.utils import timezone

    from memories.language import embeddings
    from memories.lifecycle import policies, proposals
    from memories.models import Memory

    group_of, members, rows_of = {}, {}, {}
    for memory_id, (_key, user, kind, subject, text, group) in write_store(module.MEMORIES).items():
        group_of[memory_id] = group
        members.setdefault(group, []).append(memory_id)
        rows_of[memory_id] = (user, kind, subject, text)
    policies.set_write_policy(policy, actor="owner:bench")
    against = {}
    for first, second in module.CONTRADICTIONS:
        against.setdefault(first, set()).add(second)
        against.setdefault(second, set()).add(first)
    caught = missed = false = lookalike_false = 0
    for proposed, other, contradicts in trials(module):
        hidden = members[proposed]
        # A bench's own bookkeeping, not a deletion: the hidden memories come back as they were.
        Memory.objects.filter(pk__in=hidden).update(deleted_at=timezone.now())
        try:
            answer = _propose_again(rows_of[hidden[0]])
            if embeddings.enabled():
                proposals.embed_and_check()
            memory = Memory.objects.get(pk=answer.id) if answer.id else None
            listed = proposals.possible_updates([memory]).get(memory.pk, []) if memory else []
            groups = {group_of.get(replaced.pk) for replaced in listed}
            if contradicts:
                if other in groups:
                    caught += 1
                else:
                    missed += 1
            elif other in groups:
                lookalike_false += 1
            if groups - against.get(proposed, set()):
                false += 1
                if show:
                    wrongly = [replaced.text for replaced in listed if group_of.get(replaced.pk) != other]
                    print(f"false possible update: {rows_of[hidden[0]][3]} -> {wrongly}")
            if memory is not None and memory.pk not in group_of:
                Memory.objects.filter(pk=memory.pk).delete()
        finally:
            Memory.objects.filter(pk__in=hidden).update(deleted_at=None)
    repeats, repeats_caught, false_duplicates = _repeats(module, group_of, members, rows_of, show)
    return {
        "proposals": caught + missed + 2 * len(getattr(module, "LOOKALIKES", [])),
        "contradictions_caught": caught,
        "contradictions_missed": missed,
        "false_possible_updates": false,
        "lookalikes_flagged": lookalike_false,
        "repeats_caught": f"{repeats_caught}/{repeats}",
        "false_duplicates": false_duplicates,
    }


def _propose_again(row):
    """A memory of the set (``(user, kind, subject, text)``) proposed by an agent, as the user said it."""
    from memories.lifecycle import proposals

    user, kind, subject, text = row
    return proposals.propose(
        text=text,
        kind=kind,
        subject=subject,
        user=user,
        source="meaning set",
        source_kind="user_message",
        agent="bench",
    )


def _repeats(module, group_of, members, rows_of, show=False):
    """Each memory hidden alone and proposed again (and, with embeddings on, checked by meaning after the
    write): ``(repeats, caught, false duplicates)``; ``show`` prints each false duplicate."""
    from django.utils import timezone

    from memories.language import embeddings
    from memories.lifecycle import proposals
    from memories.models import Memory

    repeats = caught = false = 0
    for memory_id, group in group_of.items():
        Memory.objects.filter(pk=memory_id).update(deleted_at=timezone.now())
        try:
            answer = _propose_again(rows_of[memory_id])
            repeated = len(members[group]) > 1
            repeats += repeated
            twin = answer.id if answer.status == proposals.DUPLICATE else None
            if twin is None and answer.id is not None and embeddings.enabled():
                proposals.embed_and_check()
                twin = Memory.objects.get(pk=answer.id).superseded_by_id
            if twin is not None:
                if group_of.get(twin) == group:
                    caught += repeated
                else:
                    false += 1
                    if show:
                        print(f"false duplicate: {rows_of[memory_id][3]} -> {rows_of.get(twin, ('', '', '', twin))[3]}")
            if answer.id is not None and answer.status != proposals.DUPLICATE:
                Memory.objects.filter(pk=answer.id).delete()
        finally:
            Memory.objects.filter(pk=memory_id).update(deleted_at=None)
    return repeats, caught, false


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_part_options(parser)
    parser.add_argument("--policy", choices=("ask", "allow"), default="ask", help="the write policy (default ask)")
    parser.add_argument("--show", action="store_true", help="print each false possible update and duplicate")
    options = parser.parse_args()
    os.environ["BESTIE_DB_PATH"] = str(Path(tempfile.mkdtemp()) / "proposals.sqlite3")
    os.environ.pop("DATABASE_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bestie_site.settings")
    import django

    django.setup()
    module = load_set(options)
    result = run(module, options.policy, options.show)
    print(f"{module.__name__} ({options.policy}): " + ", ".join(f"{name} {value}" for name, value in result.items()))


if __name__ == "__main__":
    main()
