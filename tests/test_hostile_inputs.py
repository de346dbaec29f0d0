"""No input gives a 500 or a traceback (SPEC §3): what a hostile agent sends the API, a hostile page sends
the console and a careless script gives the command line is answered with a clear error and changes
nothing. Schemathesis covers the API from its description (``test_api_fuzz``); these are the cases found
by hand, and a sweep of every console form and every command-line verb."""

import argparse
import io
import json
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.core.management import load_command_class

from memories import agent_tokens, lifecycle, transfer
from memories.models import AgentToken, AuditEvent, DeletionRequest, Memory, MemorySettings, Message, TokenScope
from tests.console import propose
from tests.factories import OWNER, add_memory, child_env

pytestmark = pytest.mark.django_db

BIG = str(2**64)


def store():
    """Everything an input could change."""
    return [
        list(model.objects.order_by("pk").values())
        for model in (Memory, AuditEvent, Message, DeletionRequest, MemorySettings)
    ] + [list(AgentToken.objects.order_by("pk").values("name", "scopes", "users", "expires_at", "revoked_at"))]


# ---------------------------------------------------------------------------------------------------
# Characters that are not text


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("User likes\x00 tea.", "User likes tea."),
        ("User likes \u202etea\u202c.", "User likes tea."),
        ("User li\u200bkes tea\ufeff.", "User likes tea."),
        ("\u200d User likes tea. \u200c", "User likes tea."),
        ("Gia đình 👨\u200d👩\u200d👧 thích phở.", "Gia đình 👨\u200d👩\u200d👧 thích phở."),
    ],
)
def test_control_bidirectional_and_invisible_characters_are_removed(text, kept):
    assert lifecycle.clean_text(text) == kept


@pytest.mark.parametrize("text", ["\u200b\u200b", "\u200d\u200c", "\x00", "\u202e \u2066", " \ufeff "])
def test_a_text_of_only_invisible_characters_is_empty(text):
    with pytest.raises(lifecycle.InvalidValue, match="must not be empty"):
        lifecycle.clean_text(text)


def test_a_lone_surrogate_is_refused_as_not_text():
    with pytest.raises(lifecycle.InvalidValue, match="holds U\\+D800, half of a UTF-16 pair"):
        lifecycle.clean_text("bad \ud800 text")


def test_a_secret_split_by_an_invisible_character_is_still_refused():
    with pytest.raises(lifecycle.Refused, match="password"):
        add_memory("mật khẩu wifi là Hoa\u200bSen@2026")


# ---------------------------------------------------------------------------------------------------
# The agent API

PROPOSAL = {"text": "User prefers pnpm.", "kind": "preference", "source": "msg 1", "source_kind": "user_message"}


def proposal(**fields):
    return json.dumps({**PROPOSAL, **fields})


API_CASES = [
    # Lone surrogates in any text field
    ("post", "/memories", '{"text": "bad \\ud800", "kind": "fact", "source": "m", "source_kind": "owner"}', 422),
    ("post", "/memories", proposal(source="m\udfff"), 422),
    ("post", "/memories", proposal(user="\ud800"), 422),
    ("post", "/memories", proposal(subject="\ud800"), 422),
    ("post", "/messages", json.dumps({"role": "user", "text": "hi \ud800"}), 422),
    ("post", "/messages", json.dumps({"role": "user", "text": "hi", "channel": "\ud800"}), 422),
    ("post", "/context", json.dumps({"query": "hi \ud800"}), 422),
    ("post", "/context", json.dumps({"query": "hi", "user": "\ud800"}), 422),
    # Text of nothing visible
    ("post", "/memories", proposal(text="\u200b\u200b"), 422),
    ("post", "/messages", json.dumps({"role": "user", "text": "\x00"}), 422),
    # Numbers too large, of the wrong type, at the calendar's edges
    ("post", "/memories", proposal(ttl_seconds=10**18), 422),
    ("post", "/memories", proposal(ttl_seconds=1e18), 422),
    ("post", "/memories", proposal(ttl_seconds="5"), 422),
    ("post", "/memories", proposal(ttl_seconds=True), 422),
    ("post", "/memories", proposal(confidence="1"), 422),
    ("post", "/memories", proposal(expires_at="9999-12-31T23:59:59-23:59"), 422),
    ("post", "/memories", proposal(expires_at="0001-01-01T00:00:00+23:59"), 422),
    ("post", "/memories", proposal(expires_at=0), 422),
    ("post", "/memories", proposal(message_id=2**63), 422),
    ("post", "/memories", '{"text": "x", "kind": "f", "source": "m", "source_kind": "owner", "confidence": NaN}', 422),
    ("post", "/context", json.dumps({"query": "hi", "budget_tokens": 10**18}), 422),
    ("post", "/context", json.dumps({"query": "hi", "limit": 2**63}), 422),
    ("get", "/memories?offset=9223372036854775808", None, 422),
    ("get", f"/memories?offset={BIG}", None, 422),
    ("get", "/memories?q=%00&limit=5", None, 200),
    ("delete", f"/memories/{BIG}", None, 422),
    ("delete", "/memories/{id}?reason=%00%ED%A0%80", None, 202),
    # Bodies that are not a JSON object
    ("post", "/memories", "{", 400),
    ("post", "/memories", "[" * 100_000 + "]" * 100_000, 400),
    ("post", "/memories", "[1, 2]", 422),
    ("post", "/memories", "null", 422),
]


@pytest.fixture
def agent(client, transactional_db):
    token = agent_tokens.create_token("hostile", actor=OWNER, scopes=list(TokenScope.values))
    client.raise_request_exception = False

    def call(method, path, raw, content_type="application/json"):
        kwargs = {"content_type": content_type, "data": raw} if raw is not None else {}
        response = getattr(client, method)(f"/api/v1{path}", **kwargs, HTTP_AUTHORIZATION=f"Bearer {token}")
        return response.status_code, response

    return call


@pytest.mark.parametrize(("method", "path", "raw", "status"), API_CASES)
def test_a_hostile_request_gets_a_json_error_and_changes_nothing(agent, method, path, raw, status):
    memory = add_memory("User prefers tea.")
    before = store()
    code, response = agent(method, path.replace("{id}", str(memory.pk)), raw)
    assert code == status, response.content[:300]
    assert response["Content-Type"] == "application/json; charset=utf-8"
    if status >= 400:
        assert response.json()["detail"]
        assert store() == before


def test_a_body_not_sent_as_json_is_415(agent):
    before = store()
    code, response = agent("post", "/memories", json.dumps(PROPOSAL), content_type="text/plain")
    assert code == 415 and "application/json" in response.json()["detail"]
    assert store() == before


def test_a_body_over_the_upload_limit_is_a_json_413(agent, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1_000_000
    before = store()
    code, response = agent("post", "/memories", proposal(text="x" * 10_000_000))
    assert code == 413 and response.json() == {"detail": "the body is too large"}
    assert store() == before


def test_the_openapi_description_documents_every_error(agent):
    _, response = agent("get", "/openapi.json", None)
    paths = response.json()["paths"]
    for path, operations in paths.items():
        for method, operation in operations.items():
            documented = set(operation["responses"])
            assert {"401", "422"} <= documented, (method, path)
            if "requestBody" in operation:
                assert {"400", "413", "415"} <= documented, (method, path)
    ttl = response.json()["components"]["schemas"]["ProposalIn"]["properties"]["ttl_seconds"]
    assert any(option.get("type") == "integer" and "maximum" in option for option in ttl["anyOf"])


# ---------------------------------------------------------------------------------------------------
# The console

CONSOLE_HOSTILE = ["1e20", BIG, "-1", "abc", "\x00", "99999999999d"]


class _Forms(HTMLParser):
    """The forms of a page: where each goes, how, and its fields with their values."""

    def __init__(self):
        super().__init__()
        self.forms, self._open = [], None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self._open = {"action": attrs.get("action") or "", "method": attrs.get("method", "get").lower()}
            self._open["fields"] = {}
            self.forms.append(self._open)
        elif tag in ("input", "select", "textarea", "button") and self._open is not None and attrs.get("name"):
            self._open["fields"].setdefault(attrs["name"], attrs.get("value") or "")

    def handle_endtag(self, tag):
        if tag == "form":
            self._open = None


def _console_store():
    memory = add_memory("Owner's doctor is Dr. An.", subject="doctor", kind="fact")
    add_memory("Owner's doctor is Dr. Binh.", subject="doctor", kind="fact")
    add_memory("User prefers pnpm over npm.")
    add_memory("User prefers pnpm over npm!", source="another chat")
    pending = propose()
    request = DeletionRequest.objects.create(memory=memory, agent="bestie", reason="outdated")
    return memory, pending, request


def test_every_console_form_answers_hostile_values_without_a_server_error(console):
    console.raise_request_exception = False
    memory, pending, _ = _console_store()
    pages = [
        "/",
        "/pending/",
        "/memories/",
        f"/memories/{memory.pk}/",
        f"/pending/{pending.pk}/edit/",
        "/review/",
        "/settings/",
        "/doctor/",
        "/jobs/",
        "/channels/",
        "/backups/",
    ]
    # Every page's forms first: fuzzing one form (approving, forgetting) changes what the next page shows.
    found = []
    for page in pages:
        response = console.get(page)
        assert response.status_code == 200, page
        forms = _Forms()
        forms.feed(response.content.decode())
        found.extend((page, form) for form in forms.forms)
    failures, seen = [], set()
    for page, form in found:
        action = form["action"] or page
        key = (form["method"], action, tuple(form["fields"]))
        if key in seen or action in ("/logout/", "/i18n/setlang/"):
            continue
        seen.add(key)
        for name in [*[n for n in form["fields"] if n != "csrfmiddlewaretoken"], "page", "ids"]:
            for value in CONSOLE_HOSTILE:
                answer = getattr(console, form["method"])(action, {**form["fields"], name: value})
                if answer.status_code >= 500:
                    failures.append((form["method"], action, name, value))
    for page in pages:
        for name in ("page", "q", "status", "kind", "job"):
            for value in CONSOLE_HOSTILE:
                if console.get(page, {name: value}).status_code >= 500:
                    failures.append(("get", page, name, value))
    assert len(seen) > 12  # the sweep reached the forms, not a login page
    assert not failures


def test_console_ids_past_64_bits_and_huge_ttls_are_clear_errors_that_change_nothing(console):
    console.raise_request_exception = False
    memory, pending, _ = _console_store()
    cases = [
        ("get", "/pending/", {"page": "1" + "0" * 30}),
        ("get", "/memories/", {"page": BIG}),
        ("post", "/pending/decide/", {"ids": [BIG], "action": "approve"}),
        ("post", "/memories/bulk/", {"ids": [BIG], "action": "forget", "confirm": "yes"}),
        ("post", "/memories/bulk/", {"ids": [str(memory.pk)], "action": "pin", "next": "abc"}),
        ("post", "/pending/deletions/", {"ids": [BIG], "action": "approve"}),
        ("post", f"/pending/{BIG}/approve/", {}),
        ("post", f"/pending/{BIG}/approve-core/", {}),
        ("post", f"/core/{BIG}/promote/", {}),
        ("post", f"/core/{BIG}/demote/", {}),
        ("post", "/pending/decide/", {"ids": [BIG], "action": "approve", "confirm": "yes"}),
        ("post", f"/pending/{pending.pk}/approve-update/", {"replaces": [BIG]}),
        ("get", "/doctor/merge/", {"ids": [BIG, str(memory.pk)]}),
        ("post", "/doctor/merge/", {"ids": [BIG, str(memory.pk)], "text": "x"}),
        ("post", "/doctor/resolve/", {"ids": [BIG, str(memory.pk)], "winner": BIG}),
        ("post", f"/review/{BIG}/", {"action": "expire", "ttl": "7d"}),
        ("post", f"/review/{memory.pk}/", {"action": "expire", "ttl": "99999999999d"}),
        ("post", f"/review/{memory.pk}/", {"action": "expire", "ttl": "9" * 50 + "d"}),
        (
            "post",
            f"/pending/{pending.pk}/edit/",
            {"text": "x", "kind": "fact", "scope": "core", "layer": "working", "ttl": "99999999999d"},
        ),
        ("post", "/settings/tokens/", {"name": "x", "scopes": ["read"], "expires": "99999999999d"}),
    ]
    before = store()
    for method, path, data in cases:
        response = getattr(console, method)(path, data)
        assert response.status_code < 500, (method, path, data)
    assert store() == before


# ---------------------------------------------------------------------------------------------------
# The command line

CLI_HOSTILE = [BIG, "-1", "1e20", "x\udcff", "9999-12-31T23:59:59-23:59", "0001-01-01T00:00:00+23:59", "99999999999d"]


def _verbs(parser, path=()):
    """Every verb of a command, with its sub-verbs: (words, parser)."""
    groups = [action for action in parser._actions if isinstance(action, argparse._SubParsersAction)]
    if not groups:
        yield path, parser
        return
    for name, sub in groups[0].choices.items():
        yield from _verbs(sub, (*path, name))
    if not groups[0].required:
        yield path, parser


def _invocations(path, parser):
    """The verb with plain arguments, then with each argument and each option's value made hostile."""
    positionals = [a for a in parser._actions if not a.option_strings and not isinstance(a, argparse._SubParsersAction)]
    options = [a for a in parser._actions if a.option_strings and a.nargs != 0 and a.dest != "help"]
    plain = [next(iter(a.choices)) if a.choices else "1" for a in positionals if a.nargs != "?"]
    yield [*path, *plain]
    for index in range(len(plain)):
        for value in CLI_HOSTILE:
            yield [*path, *plain[:index], value, *plain[index + 1 :]]
    for option in options:
        for value in CLI_HOSTILE:
            yield [*path, *plain, option.option_strings[-1], value]


@pytest.mark.django_db(transaction=True)
def test_no_command_line_verb_answers_hostile_arguments_with_a_traceback(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # --output and --dest write where they are told
    failures, count = [], 0
    for name in ("memory", "token"):
        command = load_command_class("bestie_site", name)
        for path, parser in _verbs(command.create_parser("bestie", name)):
            for args in _invocations(path, parser):
                MemorySettings.load()
                MemorySettings.objects.update(paused=False, write_policy="ask", delete_policy="ask")
                if not Memory.objects.exists():
                    add_memory("User prefers tea.")
                count += 1
                run = type(command)(stdout=io.StringIO(), stderr=io.StringIO())
                try:
                    run.run_from_argv(["bestie", name, *args])
                except SystemExit:  # CommandError (exit 1) and usage errors (exit 2) end here
                    pass
                except Exception as error:  # what a user would see as a traceback
                    failures.append((name, args, f"{type(error).__name__}: {error}"))
    print(f"\n{count} hostile command lines, {len(failures)} tracebacks")
    assert count > 500
    assert not failures


def _bestie(*args):
    """The console script as a user runs it, arguments as bytes (not necessarily UTF-8)."""
    return subprocess.run(
        [str(Path(sys.executable).with_name("bestie")), *args], env=child_env(), capture_output=True, timeout=60
    )


@pytest.mark.django_db(transaction=True)
def test_arguments_that_are_not_utf8_are_refused_by_name(tmp_path):
    add_memory("User prefers tea.")
    before = store()
    for args in ([b"add", b"fact", b"bad \xff text"], [b"search", b"\xff\xfe"], [b"list", b"--kind", b"\xc3"]):
        run = _bestie("memory", *args)
        assert run.returncode == 1 and b"Traceback" not in run.stderr, run.stderr
        assert b"is not valid UTF-8 text" in run.stderr and re.search(rb"\\udc(ff|c3)", run.stderr), run.stderr
    assert store() == before


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("document", "message"),
    [
        ("[" * 100_000 + "]" * 100_000, b"nests arrays or objects too deeply"),
        ('{"memories": ' + "[" * 100_000 + "]" * 100_000 + "}", b"nests arrays or objects too deeply"),
        (b"\xff\xfe not text", b"byte 0: the file is not UTF-8 text"),
        ("surrogate", b"holds U+D800, half of a UTF-16 pair"),
        ("nul", b"holds a NUL character"),
    ],
)
def test_importing_a_hostile_file_is_a_clear_error_that_changes_nothing(tmp_path, document, message):
    add_memory("User prefers tea.")
    exported = io.StringIO()
    transfer.write_export(exported)
    if document in ("surrogate", "nul"):
        parsed = json.loads(exported.getvalue())
        parsed["memories"][0].update(id=999, text="bad \ud800" if document == "surrogate" else "bad \x00")
        parsed["history"] = []
        document = json.dumps(parsed)
    path = tmp_path / "hostile.json"
    path.write_bytes(document if isinstance(document, bytes) else document.encode())
    before = store()
    run = _bestie("memory", "import", str(path))
    assert run.returncode == 1 and b"Traceback" not in run.stderr, run.stderr
    assert message in run.stderr
    assert store() == before


def test_the_terminal_never_gets_a_lone_surrogate():
    from bestie_site.commandline.output import terminal_safe

    assert terminal_safe("x\udcff") == "x\\udcff"
    assert re.fullmatch(r"[ -~]*", terminal_safe("a\x1b\udcff\u202e"))


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("format", ["mem0", "openmemory", "chatgpt", "jsonl", "csv"])
def test_importing_a_hostile_file_from_another_tool_is_a_clear_error_that_changes_nothing(tmp_path, format):
    add_memory("User prefers tea.")
    path = tmp_path / "hostile"
    # Not UTF-8, the start of a zip and of an SQLite file, then nesting no parser should recurse into.
    path.write_bytes(b"PK\x03\x04\xff\xfeSQLite format 3\x00" + b"[" * 100_000)
    before = store()
    # manage.py of this checkout: the console script of a shared virtualenv may run another checkout's code.
    manage = Path(__file__).resolve().parent.parent / "manage.py"
    run = subprocess.run(
        [sys.executable, str(manage), "memory", "import", "--from", format, str(path), "--approve"],
        env=child_env(),
        capture_output=True,
        timeout=60,
    )
    assert run.returncode == 1 and b"Traceback" not in run.stderr, run.stderr
    assert store() == before
