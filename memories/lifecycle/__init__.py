"""The one write path for memories: every entry point (CLI, console, API, jobs) changes memories here.

Each function validates its input before touching anything, applies the owner's policies, makes its
change in one transaction and records an audit event with the actor and the old and new values. A
refused or impossible operation raises ``LifecycleError`` whose message says exactly what was wrong, and
changes nothing.

- ``validation``: the checks every write makes first, and the errors;
- ``history``: what an audit event holds;
- ``writes``: adding, changing and deciding on memories;
- ``forgetting``: hard deletes that leave only a hash of each text.
"""

from memories.lifecycle.forgetting import (
    Forgotten,
    checkpoint_wal,
    clear,
    clear_plan,
    erase,
    forget,
    predecessors,
)
from memories.lifecycle.history import (
    AUDITED_FIELDS,
    audit_event,
    record,
    snapshot,
    text_sha256,
)
from memories.lifecycle.validation import (
    KIND_PATTERN,
    MAX_LABEL_LENGTH,
    MAX_TEXT_LENGTH,
    InvalidValue,
    LifecycleError,
    NotFound,
    Refused,
    clean_choice,
    clean_confidence,
    clean_expiry,
    clean_ids,
    clean_kind,
    clean_label,
    clean_placement,
    clean_text,
    delete_denied,
    no_memory,
    one_of,
    refuse_secrets,
    too_long,
)
from memories.lifecycle.writes import (
    NewMemory,
    WriteSwitches,
    add,
    approve,
    check_writes_allowed,
    confirm,
    edit,
    get_memory,
    mark_stale,
    move,
    move_layer,
    pin,
    prepare,
    reject,
    reject_all,
    relabel,
    set_expiry,
    soft_delete,
    store,
    supersede,
    unpin,
    write_switches,
)

__all__ = [
    "AUDITED_FIELDS", "KIND_PATTERN", "MAX_LABEL_LENGTH", "MAX_TEXT_LENGTH", "Forgotten", "InvalidValue",
    "LifecycleError", "NewMemory", "NotFound", "Refused", "WriteSwitches", "add", "approve", "audit_event",
    "check_writes_allowed", "checkpoint_wal", "clean_choice", "clean_confidence", "clean_expiry", "clean_ids",
    "clean_kind", "clean_label", "clean_placement", "clean_text", "clear", "clear_plan", "confirm",
    "delete_denied", "edit", "erase", "forget", "get_memory", "mark_stale", "move", "move_layer", "no_memory",
    "one_of", "pin", "predecessors", "prepare", "record", "refuse_secrets", "reject", "reject_all", "relabel",
    "set_expiry", "snapshot", "soft_delete", "store", "supersede", "text_sha256", "too_long", "unpin",
    "write_switches",
]
