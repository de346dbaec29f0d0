"""Supersede chains (SPEC §2): what a memory replaced, and what replaced it."""

from memories.models import Memory


def predecessors(memory_ids):
    """Every memory that was (directly or through a chain) superseded by one of ``memory_ids``."""
    found, frontier = [], list(memory_ids)
    while frontier:
        frontier = list(Memory.objects.filter(superseded_by__in=frontier).values_list("pk", flat=True))
        found.extend(frontier)
    return found


def successors(memory):
    """The ids of the memories that replaced ``memory``, nearest first, up to the current one (a loop, which
    only a broken store has, is followed once round)."""
    chain, next_id = [], memory.superseded_by_id
    while next_id and next_id not in chain and next_id != memory.pk:
        chain.append(next_id)
        next_id = Memory.objects.filter(pk=next_id).values_list("superseded_by_id", flat=True).first()
    return chain
