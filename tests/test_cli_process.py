"""``bestie memory`` as the owner runs it: a separate process on the real database file (or PostgreSQL)."""

import json
import subprocess
import sys
from pathlib import Path

from memories.models import Memory
from tests.factories import add_memory, child_env

ROOT = Path(__file__).resolve().parent.parent


def bestie(*args):
    """Run ``bestie memory ARGS``: the console script once the project is installed, else manage.py."""
    script = Path(sys.executable).with_name("bestie")
    program = [str(script)] if script.exists() else [sys.executable, str(ROOT / "manage.py")]
    return subprocess.run(
        [*program, "memory", *args],
        env=child_env(),
        cwd=ROOT,
        capture_output=True,
        encoding="utf-8",
        timeout=120,
    )


def test_the_command_line_reads_and_changes_the_database(transactional_db):
    kept = add_memory("Người dùng thích câu trả lời ngắn gọn.")
    done = bestie("status", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["memories"]["live"] == 1

    done = bestie("pin", str(kept.pk))
    assert (done.returncode, done.stdout) == (0, f"pinned memory #{kept.pk}\n"), done.stderr
    assert Memory.objects.get(pk=kept.pk).pinned

    done = bestie("search", "cau tra loi", "--json")
    assert [m["text"] for m in json.loads(done.stdout)] == ["Người dùng thích câu trả lời ngắn gọn."]


def test_errors_go_to_stderr_with_a_non_zero_exit(transactional_db):
    done = bestie("inspect", "999999")
    assert (done.returncode, done.stdout) == (1, "")
    assert "no memory with id 999999" in done.stderr

    done = bestie("list", "--scope", "galaxy")
    assert (done.returncode, done.stdout) == (2, "")
    assert "argument --scope: invalid choice: 'galaxy'" in done.stderr
