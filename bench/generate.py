"""Build a realistic synthetic store for benchmarks: Vietnamese and English memories in every layer,
scope and status, with supersede chains, expiries, audit history and conversation messages.

    .venv/bin/python bench/generate.py --size 100000 --db var/bench-100k.sqlite3
    .venv/bin/python bench/generate.py --size 100000 --database-url postgres://postgres@127.0.0.1:5432/bench

The same --seed gives the same store. An existing database is emptied first.
"""

import argparse
import os
import random
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CITIES = ["Hà Nội", "Đà Nẵng", "Huế", "Sài Gòn", "Hội An", "Nha Trang", "Berlin", "Tokyo", "Lisbon", "Đà Lạt"]
FOODS = ["phở bò", "bún chả", "cà phê sữa đá", "bánh mì", "cơm tấm", "sushi", "ramen", "pizza", "bún bò Huế"]
TOOLS = ["pnpm", "npm", "yarn", "Docker", "PostgreSQL", "SQLite", "Django", "React", "Vite", "Terraform", "uv"]
PROJECTS = ["bestie", "website", "thesis", "shop", "homelab", "garden", "wedding", "tax-2026", "mobile-app"]
PEOPLE = ["Lan", "Minh", "Hùng", "Thảo", "Anna", "Tom", "Mai", "Đức", "Sarah", "Khoa"]
DAYS = ["thứ Hai", "thứ Ba", "thứ Tư", "thứ Năm", "thứ Sáu", "Monday", "Tuesday", "Friday"]
TOPICS = ["budget", "deploy", "design", "migration", "invoice", "trip", "meeting", "release", "backup"]

TEMPLATES = [
    ("preference", "language", "User prefers replies in {lang}."),
    ("preference", "language", "Người dùng muốn trả lời bằng tiếng Việt có dấu."),
    ("preference", "food", "Người dùng thích ăn {food} ở {city}."),
    ("preference", "food", "User loves {food} from {city}."),
    ("preference", "package_manager", "User prefers {tool} over the alternatives for {project}."),
    ("communication_preference", "tone", "User prefers concise replies without small talk."),
    ("communication_preference", "tone", "Người dùng thích câu trả lời ngắn gọn, đi thẳng vào vấn đề."),
    ("communication_preference", "schedule", "Don't message {person} before 9am on {day}."),
    ("addressing", "name", "Gọi chủ nhân là anh {person}."),
    ("addressing", "name", "Address the owner as {person}."),
    ("project_context", "stack", "Project {project} uses {tool} for the {topic} work."),
    ("project_context", "stack", "Dự án {project} dùng {tool} cho phần {topic}."),
    ("project_context", "deadline", "The {topic} for {project} is due on {day}."),
    ("decision", "tooling", "Decided to move {project} from {tool} to {tool2} after the {topic} review."),
    ("decision", "tooling", "Đã quyết định chuyển {project} sang {tool} sau buổi họp {topic}."),
    ("fact", "availability", "Away from keyboard in {city} this week, replies are delayed."),
    ("fact", "availability", "Đang đi công tác ở {city} tuần này, trả lời chậm."),
    ("fact", "family", "{person} is the owner's sister and lives in {city}."),
    ("fact", "family", "{person} là bạn thân của chủ nhân, sống ở {city}."),
    ("inside_joke", "joke", "The '{food} incident' in {city} is a running joke with {person}."),
]
LANGS = ["Vietnamese", "English", "Vietnamese with diacritics", "English unless asked otherwise"]
SOURCES = ["telegram message", "zalo chat", "cli", "web page fetched in task", "file notes.md", "email"]
SOURCE_KINDS = ["user_message"] * 6 + ["tool_output", "agent_inference", "owner", "import"]


def _text(rng):
    kind, subject, template = rng.choice(TEMPLATES)
    tool, tool2 = rng.sample(TOOLS, 2)
    text = template.format(
        lang=rng.choice(LANGS),
        food=rng.choice(FOODS),
        city=rng.choice(CITIES),
        tool=tool,
        tool2=tool2,
        project=rng.choice(PROJECTS),
        person=rng.choice(PEOPLE),
        day=rng.choice(DAYS),
        topic=rng.choice(TOPICS),
    )
    return kind, subject, text


def _setup(args):
    if args.database_url:
        os.environ["DATABASE_URL"] = args.database_url
    else:
        os.environ.pop("DATABASE_URL", None)
        os.environ["BESTIE_DB_PATH"] = str(Path(args.db).resolve())
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bestie_site.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def fresh_store(db, database_url=None):
    """An empty, migrated store for a bench run: the SQLite file ``db`` made anew (with its WAL), or the
    PostgreSQL database ``database_url`` emptied; Django set up on it."""
    if database_url:
        os.environ["DATABASE_URL"] = database_url
    else:
        for suffix in ("", "-wal", "-shm"):
            Path(db + suffix).unlink(missing_ok=True)
        os.environ["BESTIE_DB_PATH"] = str(Path(db).resolve())
        os.environ.pop("DATABASE_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bestie_site.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    if database_url:
        call_command("flush", interactive=False, verbosity=0)


def generate(size, seed=1, messages=None, batch=5000):
    """Fill the (emptied) store with ``size`` memories; returns the counts written."""
    from django.db import connection, transaction

    from governance import prune
    from memories.language.meaning import text_key
    from memories.models import AuditEvent, Memory, Message

    rng = random.Random(seed)
    now = datetime.now(UTC)
    messages = size // 2 if messages is None else messages
    with transaction.atomic():
        Memory.objects.all()._raw_delete(Memory.objects.db)
        AuditEvent.objects.all()._raw_delete(AuditEvent.objects.db)
        Message.objects.all()._raw_delete(Message.objects.db)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ALTER SEQUENCE memory_id_seq RESTART WITH 1")
            cursor.execute("ALTER SEQUENCE memory_history_id_seq RESTART WITH 1")
    else:
        with connection.cursor() as cursor:
            cursor.execute("DELETE FROM sqlite_sequence WHERE name IN ('memory', 'memory_history')")

    for start in range(0, messages, batch):
        rows = []
        for _ in range(start, min(start + batch, messages)):
            _, _, text = _text(rng)
            rows.append(
                Message(
                    role=rng.choice(["user", "user", "assistant", "tool"]),
                    text=text,
                    user="owner",
                    channel=rng.choice(["telegram:1001", "zalo:2002", "cli"]),
                    project=rng.choice(PROJECTS),
                    created_at=now - timedelta(minutes=rng.randint(0, 400 * 24 * 60)),
                )
            )
        with transaction.atomic():
            Message.objects.bulk_create(rows, batch_size=1000)

    next_id = 1
    for start in range(0, size, batch):
        memories, history = [], []
        for i in range(start, min(start + batch, size)):
            kind, subject, text = _text(rng)
            created = now - timedelta(minutes=rng.randint(0, 500 * 24 * 60))
            roll = rng.random()
            status = "approved" if roll < 0.80 else "pending" if roll < 0.92 else "rejected"
            layer_roll = rng.random()
            layer = "core" if layer_roll < 0.03 else "working" if layer_roll < 0.75 else "archive"
            scope = rng.choice(["core", "core", "project", "session"])
            expires = None
            if rng.random() < 0.12:
                expires = created + timedelta(days=rng.choice([1, 7, 14, 30, 90]))
            accessed = rng.random() < 0.6
            text = f"{text} #{i}" if rng.random() < 0.5 else text
            memory = Memory(
                id=next_id,
                text=text,
                text_key=text_key(text),
                kind=kind,
                subject=subject,
                scope=scope,
                user=rng.choice(["owner", "owner", "owner", "lan", "minh"]),
                channel=rng.choice(["telegram:1001", "zalo:2002", "cli", ""]),
                project=rng.choice(PROJECTS) if scope == "project" else "",
                layer=layer,
                status=status,
                pinned=layer == "core" and rng.random() < 0.3,
                stale=rng.random() < 0.04,
                expires_at=expires,
                confidence=round(rng.uniform(0.3, 1.0), 2),
                source=rng.choice(SOURCES),
                source_kind=rng.choice(SOURCE_KINDS),
                flags=["tool_output"] if rng.random() < 0.03 else [],
                created_at=created,
                confirmed_at=created + timedelta(days=rng.randint(0, 30)),
                last_accessed_at=now - timedelta(days=rng.randint(0, 300)) if accessed else None,
                access_count=rng.randint(1, 200) if accessed else 0,
                deleted_at=now - timedelta(days=1) if rng.random() < 0.01 else None,
            )
            # About 5% replace an earlier approved memory of the same batch: supersede chains.
            if status == "approved" and memories and rng.random() < 0.05:
                older = rng.choice(memories)
                if older.superseded_by_id is None and older.status == "approved":
                    older.superseded_by_id = next_id
            memories.append(memory)
            history.append(
                AuditEvent(
                    memory_id=next_id,
                    event="add" if status != "pending" else "propose",
                    actor="agent:bestie",
                    at=created,
                    new={"text": memory.text, "kind": kind},
                )
            )
            next_id += 1
        with transaction.atomic():
            Memory.objects.bulk_create(memories, batch_size=1000)
            AuditEvent.objects.bulk_create(history, batch_size=1000)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT setval('memory_id_seq', (SELECT max(id) FROM memory))")
            cursor.execute("SELECT setval('memory_history_id_seq', (SELECT max(id) FROM memory_history))")
            cursor.execute("ANALYZE")
    else:
        # The statistics an owner's store gets (after each prune), not a full ANALYZE: see
        # ``refresh_planner_statistics`` for why its samples would make every lookup slower.
        prune.refresh_planner_statistics()
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return {"memories": size, "messages": messages}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db", default=str(ROOT / "var" / "bench.sqlite3"), help="SQLite file to (re)fill")
    parser.add_argument("--database-url", help="a postgres:// URL instead of the SQLite file")
    args = parser.parse_args()
    _setup(args)
    started = time.perf_counter()
    counts = generate(args.size, args.seed)
    print(f"generated {counts} in {time.perf_counter() - started:.1f}s", file=sys.stderr)


if __name__ == "__main__":
    main()
