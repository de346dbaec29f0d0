"""Other tools' files, built the way each tool's own code writes them.

- mem0 (mem0ai/mem0, ``mem0/memory/main.py``): ``Memory.get_all()`` returns ``{"results": [...]}`` (the
  v1.0 API, a bare list); each item is ``MemoryItem(id, memory, hash, created_at, updated_at)
  .model_dump(exclude={"score"})`` plus ``user_id``/``agent_id``/``run_id``/``actor_id``/``role`` from the
  payload and ``metadata`` (the payload's other keys) when there are any. ``hash`` is the MD5 of the
  text, ``created_at`` ``datetime.now(timezone.utc).isoformat()`` (older releases: US/Pacific).
- mem0's ``history.db`` (``mem0/memory/storage.py``): the ``history`` table's CREATE statement as
  ``SQLiteManager`` runs it; ``add_history`` rows as ``_create_memory`` (ADD), ``_update_memory`` (UPDATE,
  with the memory's created_at and a new updated_at) and ``_delete_memory`` (DELETE: no new_memory, no
  times, is_deleted 1) write them.
- OpenMemory (``openmemory/api/app/routers/backup.py``, ``POST /api/v1/backup/export``): a zip of
  ``memories.json`` (``_export_sqlite``: user, apps, categories, memories, memory_categories,
  status_history, access_controls, export_meta, indented by 2) and ``memories.jsonl.gz``.
"""

import gzip
import hashlib
import io
import json
import sqlite3
import uuid
import zipfile

MEM0_IDS = [
    "892db2ae-06d9-49e5-8b3e-585ef9b85b8e",
    "0f6a0b13-6c4e-4b8e-9a62-1f1d7d1f7c39",
    "2c4b7a51-5c0e-4a77-8f0c-7f5b1c2d9e10",
]


def mem0_item(memory_id, text, created_at, *, user_id="alice", updated_at=None, metadata=None, **payload):
    item = {
        "id": memory_id,
        "memory": text,
        "hash": hashlib.md5(text.encode()).hexdigest(),
        "metadata": metadata,
        "created_at": created_at,
        "updated_at": updated_at,
        "user_id": user_id,
    }
    item.update(payload)
    return item


def mem0_get_all(texts, *, wrapped=True):
    """The JSON a script dumps from ``m.get_all(user_id="alice")``."""
    items = [
        mem0_item(
            MEM0_IDS[i] if i < len(MEM0_IDS) else str(uuid.UUID(int=i + 1)),
            text,
            f"2024-07-{20 + i % 9:02d}T01:30:42.123456-07:00",
            metadata={"food": "pizza"} if i == 1 else None,
            agent_id="travel-agent" if i == 2 else None,
        )
        for i, text in enumerate(texts)
    ]
    for item in items:
        if item["agent_id"] is None:
            del item["agent_id"]
    return json.dumps({"results": items} if wrapped else items, indent=2)


HISTORY_TABLE = """
CREATE TABLE IF NOT EXISTS history (
    id           TEXT PRIMARY KEY,
    memory_id    TEXT,
    old_memory   TEXT,
    new_memory   TEXT,
    event        TEXT,
    created_at   DATETIME,
    updated_at   DATETIME,
    is_deleted   INTEGER,
    actor_id     TEXT,
    role         TEXT
)
"""
MESSAGES_TABLE = """
CREATE TABLE IF NOT EXISTS messages (
    id TEXT PRIMARY KEY, session_scope TEXT, role TEXT, content TEXT, name TEXT, created_at DATETIME
)
"""


def mem0_history_db(path, events):
    """``events``: ``(event, memory_id, old, new, created_at, updated_at)`` in the order mem0 wrote them."""
    connection = sqlite3.connect(path)
    connection.execute(HISTORY_TABLE)
    connection.execute(MESSAGES_TABLE)
    for event, memory_id, old, new, created_at, updated_at in events:
        connection.execute(
            "INSERT INTO history (id, memory_id, old_memory, new_memory, event, created_at, updated_at,"
            " is_deleted, actor_id, role) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                str(uuid.uuid4()),
                memory_id,
                old,
                new,
                event,
                created_at,
                updated_at,
                int(event == "DELETE"),
                None,
                "user",
            ),
        )
    connection.commit()
    connection.close()
    return path.read_bytes()


OPENMEMORY_USER = "8d7e3f1a-2b4c-4d5e-9f60-718293a4b5c6"
OPENMEMORY_APP = "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d"


def openmemory_memory(memory_id, content, state="active", *, created_at="2025-05-01T08:00:00+00:00", deleted_at=None):
    return {
        "id": memory_id,
        "user_id": OPENMEMORY_USER,
        "app_id": OPENMEMORY_APP,
        "content": content,
        "metadata": {},
        "state": state,
        "created_at": created_at,
        "updated_at": created_at,
        "archived_at": "2025-06-01T08:00:00+00:00" if state == "archived" else None,
        "deleted_at": deleted_at,
        "category_ids": [],
    }


def openmemory_zip(memories, *, user_id="default_user", members=("memories.json", "memories.jsonl.gz")):
    payload = {
        "user": {
            "id": OPENMEMORY_USER,
            "user_id": user_id,
            "name": None,
            "email": None,
            "metadata": {},
            "created_at": "2025-04-30T08:00:00+00:00",
            "updated_at": "2025-04-30T08:00:00+00:00",
        },
        "apps": [
            {
                "id": OPENMEMORY_APP,
                "owner_id": OPENMEMORY_USER,
                "name": "cursor",
                "description": None,
                "metadata": {},
                "is_active": True,
                "created_at": "2025-04-30T08:00:00+00:00",
                "updated_at": "2025-04-30T08:00:00+00:00",
            }
        ],
        "categories": [],
        "memories": memories,
        "memory_categories": [],
        "status_history": [],
        "access_controls": [],
        "export_meta": {
            "app_id_filter": None,
            "from_date": None,
            "to_date": None,
            "version": "1",
            "generated_at": "2025-07-01T08:00:00+00:00",
        },
    }
    lines = io.BytesIO()
    with gzip.GzipFile(fileobj=lines, mode="wb") as gz:
        for m in memories:
            record = {
                "id": m["id"],
                "content": m["content"],
                "metadata": m["metadata"],
                "created_at": m["created_at"],
                "updated_at": m["updated_at"],
                "state": m["state"],
                "app": "cursor",
                "categories": [],
            }
            gz.write((json.dumps(record) + "\n").encode("utf-8"))
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        if "memories.json" in members:
            zf.writestr("memories.json", json.dumps(payload, indent=2))
        if "memories.jsonl.gz" in members:
            zf.writestr("memories.jsonl.gz", lines.getvalue())
    return archive.getvalue()
