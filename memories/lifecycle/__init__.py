"""The one write path for memories: every entry point (CLI, console, admin, API, jobs) changes memories here.

Each function validates its input before touching anything, applies the owner's policies, makes its
change in one transaction and records an audit event with the actor and the old and new values. A
refused or impossible operation raises ``LifecycleError`` whose message says exactly what was wrong, and
changes nothing.

- ``validation``: the checks every write makes first, and the errors;
- ``policies``: the owner's switches, and the guards of every write and every deletion;
- ``history``: what an audit event holds, and the one way events are written;
- ``actors``: how the history names who made a change;
- ``writes``: adding, changing, restoring and deciding on memories;
- ``chains``: what a memory replaced and what replaced it;
- ``forgetting``: hard deletes that leave only a hash of each text;
- ``proposals``: what an agent proposes, and what the store makes of it (imported as a module).
"""

from memories.lifecycle.chains import predecessors, successors
from memories.lifecycle.erasure import checkpoint_wal, finish_erasure, finish_pending_erasure
from memories.lifecycle.forgetting import (
    Forgotten,
    clear,
    clear_plan,
    erase,
    forget,
)
from memories.lifecycle.history import (
    AUDITED_FIELDS,
    audit_event,
    record,
    record_many,
    snapshot,
    text_sha256,
)
from memories.lifecycle.policies import (
    WriteSwitches,
    check_delete_allowed,
    check_writes_allowed,
    delete_refusal,
    write_switches,
)
from memories.lifecycle.validation import (
    KIND_PATTERN,
    MAX_ID,
    MAX_LABEL_LENGTH,
    MAX_TEXT_LENGTH,
    MAX_TTL,
    InvalidValue,
    LifecycleError,
    NotFound,
    Refused,
    clean_characters,
    clean_choice,
    clean_confidence,
    clean_expiry,
    clean_id,
    clean_ids,
    clean_kind,
    clean_label,
    clean_placement,
    clean_text,
    no_memory,
    one_of,
    parse_ttl,
    refuse_secrets,
    too_long,
)
from memories.lifecycle.writes import (
    NewMemory,
    add,
    approve,
    confirm,
    count_use,
    edit,
    fill_text_keys,
    get_memory,
    mark_stale,
    move,
    move_layer,
    pin,
    prepare,
    reject,
    reject_all,
    relabel,
    restore,
    set_expiry,
    soft_delete,
    store,
    store_many,
    supersede,
    unpin,
)

__all__ = [
    "AUDITED_FIELDS",
    "KIND_PATTERN",
    "MAX_ID",
    "MAX_LABEL_LENGTH",
    "MAX_TEXT_LENGTH",
    "MAX_TTL",
    "Forgotten",
    "InvalidValue",
    "LifecycleError",
    "NewMemory",
    "NotFound",
    "Refused",
    "WriteSwitches",
    "add",
    "approve",
    "audit_event",
    "check_delete_allowed",
    "check_writes_allowed",
    "checkpoint_wal",
    "count_use",
    "fill_text_keys",
    "clean_choice",
    "clean_confidence",
    "clean_expiry",
    "clean_characters",
    "clean_id",
    "clean_ids",
    "clean_kind",
    "clean_label",
    "clean_placement",
    "clean_text",
    "clear",
    "clear_plan",
    "confirm",
    "delete_refusal",
    "edit",
    "erase",
    "finish_erasure",
    "finish_pending_erasure",
    "forget",
    "get_memory",
    "mark_stale",
    "move",
    "move_layer",
    "no_memory",
    "one_of",
    "parse_ttl",
    "pin",
    "predecessors",
    "prepare",
    "record",
    "record_many",
    "refuse_secrets",
    "reject",
    "reject_all",
    "relabel",
    "restore",
    "set_expiry",
    "snapshot",
    "soft_delete",
    "store",
    "store_many",
    "successors",
    "supersede",
    "text_sha256",
    "too_long",
    "unpin",
    "write_switches",
]
