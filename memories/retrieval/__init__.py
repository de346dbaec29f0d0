"""Retrieval (SPEC §4): what Bestie sees for a request, and why.

- ``context``: ``build_context``, the scored, explainable, token-budgeted memory context;
- ``relevance``: how relevant each memory is to a query (the pluggable backend);
- ``prompt``: lines, their size in tokens, and the core tier every prompt starts with.
"""

from memories.retrieval.context import (
    MAX_QUERY_LENGTH,
    Context,
    CoreProfile,
    Item,
    as_json,
    build_context,
    core_profile,
    governed,
)

__all__ = [
    "MAX_QUERY_LENGTH",
    "Context",
    "CoreProfile",
    "Item",
    "as_json",
    "build_context",
    "core_profile",
    "governed",
]
