"""The verbs of ``bestie memory`` (the ``memory`` management command).

Each module registers its verbs on the command's sub-parsers and handles them by calling the domain
functions (``memories.lifecycle``, ``memories.reports``, ``memories.lifecycle.policies`` …) and printing the
answer, as text for a person or as JSON with ``--json``. No rule about memories lives here.
"""

ACTOR = "owner:cli"
