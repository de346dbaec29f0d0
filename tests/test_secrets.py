"""The secret filter (SPEC §3): what it finds, what it lets through, and that a refused secret leaves
no trace in the store, its history, its files or the logs."""

import json
import logging
import re

import pytest
from django.db import connection

from memories import lifecycle, transfer
from memories.models import AuditEvent, Memory
from memories.screening.secrets import Finding, find_secrets, redact
from tests.cli import refused
from tests.data.secret_corpus import NOT_SECRETS, SECRETS
from tests.factories import OWNER, add_memory, database_bytes

MIN_RECALL = 0.98
MAX_FALSE_REFUSALS = 0.02


# ---------------------------------------------------------------------------------------------------
# The labelled corpus


def test_corpus_is_big_enough_and_in_both_languages():
    assert len(SECRETS) >= 150 and len(NOT_SECRETS) >= 150
    vietnamese = "ăâđêôơưáàảãạ"
    assert sum(any(c in vietnamese for c in text.lower()) for _, text in SECRETS) >= 30
    assert sum(any(c in vietnamese for c in text.lower()) for text in NOT_SECRETS) >= 30


def test_corpus_recall_and_false_refusals():
    missed = [text for _, text in SECRETS if not find_secrets(text)]
    false_refusals = [text for text in NOT_SECRETS if find_secrets(text)]
    recall = 1 - len(missed) / len(SECRETS)
    false_rate = len(false_refusals) / len(NOT_SECRETS)
    precision = (len(SECRETS) - len(missed)) / (len(SECRETS) - len(missed) + len(false_refusals))
    print(
        f"\nsecret filter: recall {recall:.1%} ({len(SECRETS) - len(missed)}/{len(SECRETS)} secrets refused), "
        f"false refusals {false_rate:.1%} ({len(false_refusals)}/{len(NOT_SECRETS)}), precision {precision:.1%}"
    )
    assert recall >= MIN_RECALL, missed
    assert false_rate <= MAX_FALSE_REFUSALS, false_refusals


def _vietnamese(text):
    return any(c in "ăâđêôơưáàảãạấầẩẫậắằẳẵặéèẻẽẹếềểễệíìỉĩịóòỏõọốồổỗộớờởỡợúùủũụứừửữựýỳỷỹỵ" for c in text.lower())


def _blind_figures(module):
    missed = [text for _, text in module.SECRETS if not find_secrets(text)]
    refused = [text for _, text in module.LOOKALIKES if find_secrets(text)]
    recall = 1 - len(missed) / len(module.SECRETS)
    false_rate = len(refused) / len(module.LOOKALIKES)
    print(
        f"\n{module.__name__}: recall {recall:.1%} ({len(module.SECRETS) - len(missed)}/{len(module.SECRETS)}), "
        f"false refusals {false_rate:.1%} ({len(refused)}/{len(module.LOOKALIKES)})"
    )
    return recall, false_rate, missed, refused


def test_blind_set_a_after_learning_from_it():
    """Written blind from a description of the categories and run once (72/90 secrets refused, 4/90
    look-alikes refused) before the filter learned from it."""
    from tests.data import secret_blind_a

    recall, false_rate, missed, refused = _blind_figures(secret_blind_a)
    assert recall >= MIN_RECALL, missed
    assert false_rate <= MAX_FALSE_REFUSALS, refused


def test_blind_set_c_after_learning_from_it():
    """Written blind after the filter had learned from set A, and run once (54/70 secrets refused, 11/70
    look-alikes refused: documentation's test values, fingerprints, ciphertext, ids) before it learned
    from this one too."""
    from tests.data import secret_blind_c

    recall, false_rate, missed, refused = _blind_figures(secret_blind_c)
    assert recall >= MIN_RECALL, missed
    assert false_rate <= MAX_FALSE_REFUSALS, refused


def test_blind_set_d_after_learning_from_it():
    """Written blind after the filter had learned from sets A and C, and run once (48/60 secrets refused,
    4/60 look-alikes refused: a MAC address, a WireGuard public key, an IMEI, a routing number) before it
    learned from this one too. Still missed: a passphrase of plain words given with no name at all."""
    from tests.data import secret_blind_d

    recall, false_rate, missed, refused = _blind_figures(secret_blind_d)
    assert recall >= MIN_RECALL, missed
    assert false_rate <= MAX_FALSE_REFUSALS, refused


def test_held_out_blind_set_never_used_to_change_the_filter():
    """Held out for good: written blind, measured, never looked into. Its bounds are what the filter did on
    it (first run 66/80 secrets and 4/80 look-alikes refused; after learning from sets A and C 73/80 and
    3/80; after D 75/80 and 2/80), less a margin."""
    from tests.data import secret_blind_held_out

    recall, false_rate, _, _ = _blind_figures(secret_blind_held_out)
    assert recall >= 0.9
    assert false_rate <= 0.04
    for language in (True, False):
        secrets = [text for _, text in secret_blind_held_out.SECRETS if _vietnamese(text) == language]
        assert sum(bool(find_secrets(text)) for text in secrets) >= 0.8 * len(secrets)


@pytest.mark.parametrize(("kind", "text"), SECRETS, ids=[f"{i}-{kind}" for i, (kind, _) in enumerate(SECRETS)])
def test_each_corpus_secret_is_found_as_its_kind_and_never_repeated(kind, text):
    findings = find_secrets(text)
    assert findings and findings[0].kind == kind
    redacted = redact(text)
    assert f"[redacted {kind}]" in redacted
    for finding in findings:
        secret = text[finding.start : finding.end]
        assert secret not in redacted
        assert secret not in finding.reason
        assert finding.kind in finding.reason or finding.kind.lower() in finding.reason


# ---------------------------------------------------------------------------------------------------
# Each kind, with its span


@pytest.mark.parametrize(
    ("text", "redacted"),
    [
        ("My password is hunter2", "My password is [redacted password]"),
        ("mật khẩu là Abc@12345, nhớ nhé", "mật khẩu là [redacted password], nhớ nhé"),
        ("mk: meoconxinh", "mk: [redacted password]"),
        ("pass wifi 88889999", "pass wifi [redacted password]"),
        ("mã PIN thẻ là 4821.", "mã PIN thẻ là [redacted PIN]."),
        ("Card PIN: 0729", "Card PIN: [redacted PIN]"),
        ("key sk-proj-FAKEabcdefghijklmnop1234567890", "key [redacted API key]"),
        ("AKIAFAKEQ7XZ2EXAMPLE is the id", "[redacted API key] is the id"),
        ("token ghp_FAKEabcdefghijklmnopqrstuvwxyz123456 for CI", "token [redacted access token] for CI"),
        ("bot 123456789:AAFAKEabcdefghijklmnopqrstuvwxyz12345", "bot [redacted access token]"),
        (
            "DB postgres://app:S3cret@db.test/app today",
            "DB [redacted connection string] today",
        ),
        (
            "a eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJGQUtFIn0.ZmFrZXNpZ25hdHVyZUZBS0U b",
            "a [redacted JWT] b",
        ),
        ("Visa 4111 1111 1111 1111, exp 12/28", "Visa [redacted card number]"),
        ("thẻ 4111 1111 1111 1111 hết hạn 12/28 CVV 123 nhé", "thẻ [redacted card number] nhé"),
        ("card 5555.5555.5555.4444 cvc: 987, for the hotel", "card [redacted card number], for the hotel"),
        (
            "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: minh@pc\nPublic-Lines: 2\n"
            "AAAAC3NzaC1lZDI1NTE5AAAAIO\nPrivate-Lines: 1\nAAAAIEhsb3dvcmxk\nPrivate-MAC: 5a1b2c3d4e5f6071 ok",
            "[redacted private key] ok",
        ),
        ("IBAN GB82 WEST 1234 5698 7654 32 (rent)", "IBAN [redacted IBAN] (rent)"),
        ("STK Vietcombank 0071000123456", "STK Vietcombank [redacted bank account number]"),
        ("mã OTP là 482913", "mã OTP là [redacted one-time code]"),
        (
            "-----BEGIN PRIVATE KEY----- MIIFAKE -----END PRIVATE KEY----- done",
            "[redacted private key] done",
        ),
        (
            "seed: ribbon tunnel vessel acquire fossil grape humble mercy orbit salad thumb wisdom.",
            "seed: [redacted seed phrase].",
        ),
    ],
)
def test_redact_replaces_exactly_the_secret(text, redacted):
    assert redact(text) == redacted


def test_several_secrets_in_one_text_are_each_redacted():
    text = "mk: Abc@1234 và mã OTP 482913, thẻ 4111 1111 1111 1111"
    assert [f.kind for f in find_secrets(text)] == ["password", "one-time code", "card number"]
    assert redact(text) == "mk: [redacted password] và mã OTP [redacted one-time code], thẻ [redacted card number]"


def test_a_finding_is_a_small_frozen_record_with_a_readable_reason():
    (finding,) = find_secrets("My password is hunter2")
    assert finding == Finding(kind="password", start=15, end=22, reason="looks like a password")
    with pytest.raises(AttributeError):
        finding.kind = "other"
    assert [f.reason for f in find_secrets("Visa 4111 1111 1111 1111")] == ["looks like a card number"]


def test_numbers_that_fail_their_checksum_are_not_cards_or_ibans():
    assert find_secrets("Visa 4111 1111 1111 1112") == []
    assert find_secrets("IBAN GB83 WEST 1234 5698 7654 32") == []


def test_no_text_no_findings():
    assert find_secrets("") == [] and redact("") == ""


# ---------------------------------------------------------------------------------------------------
# The write path refuses secrets before anything is written

SECRET = "Otter#5521"


def everything():
    return list(Memory.objects.values()), list(AuditEvent.objects.values())


def test_add_refuses_a_secret_and_stores_nothing(db):
    with pytest.raises(lifecycle.Refused) as error:
        add_memory(f"Wifi password is {SECRET}")
    assert str(error.value) == "text looks like a password: nothing was stored"
    assert everything() == ([], [])


def test_add_refuses_a_token_in_the_source(db):
    source = "https://hooks.example.test/notify?token=FAKEa1b2c3d4e5f6g7h8"
    with pytest.raises(lifecycle.Refused, match="^source looks like an access token: nothing was stored$"):
        add_memory("Owner likes webhooks for reminders", source=source)
    assert everything() == ([], [])


def test_add_still_stores_talk_about_secrets(db):
    memory = add_memory("User asked how password managers work")
    assert Memory.objects.get().text == memory.text


def test_edit_refuses_a_secret_and_changes_nothing(db):
    memory = add_memory("Wifi at home is called Bestie-Home-5G")
    before = everything()
    with pytest.raises(lifecycle.Refused) as error:
        lifecycle.edit(memory.pk, f"Wifi Bestie-Home-5G, mật khẩu {SECRET}", actor=OWNER)
    assert str(error.value) == "text looks like a password: nothing was changed"
    assert SECRET not in str(error.value)
    assert everything() == before


def _document(memory_text, history_new_text=None):
    now = "2026-11-29T10:00:00Z"
    memory = {
        "id": 1,
        "text": memory_text,
        "kind": "fact",
        "subject": "",
        "scope": "core",
        "user": "",
        "channel": "",
        "project": "",
        "layer": "working",
        "status": "approved",
        "pinned": False,
        "stale": False,
        "superseded_by": None,
        "expires_at": None,
        "confidence": 1.0,
        "source": "cli",
        "source_kind": "owner",
        "message_id": None,
        "flags": [],
        "created_at": now,
        "confirmed_at": now,
        "last_accessed_at": None,
        "access_count": 0,
        "deleted_at": None,
    }
    event = {
        "id": 1,
        "memory_id": 1,
        "event": "add",
        "actor": OWNER,
        "at": now,
        "old": None,
        "new": {"text": history_new_text or memory_text},
        "text_sha256": "",
        "note": "",
    }
    memories = json.dumps(memory, ensure_ascii=False)
    history = json.dumps(event, ensure_ascii=False)
    return (
        '{"format": "bestie-memory-export", "version": 1, "exported_at": "2026-11-29T10:00:00Z",\n'
        f'"memories": [\n{memories}\n],\n"history": [\n{history}\n]}}\n'
    )


def test_import_refuses_a_memory_with_a_secret_naming_its_line(transactional_db):
    with pytest.raises(transfer.InvalidDocument) as error:
        transfer.import_document(_document(f"The router password is {SECRET}"), actor=OWNER)
    assert str(error.value) == "line 3: memories[0] (id 1): text looks like a password: nothing was imported"
    assert everything() == ([], [])


def test_import_refuses_a_secret_kept_in_the_history(transactional_db):
    document = _document("The router password is in the vault", f"The router password is {SECRET}")
    with pytest.raises(transfer.InvalidDocument) as error:
        transfer.import_document(document, actor=OWNER)
    assert str(error.value) == "line 6: history[0] (id 1): new text looks like a password: nothing was imported"
    assert everything() == ([], [])


@pytest.mark.parametrize("field", ["user", "channel", "project", "source"])
def test_a_secret_in_any_label_is_refused_and_nothing_is_stored(db, field):
    fields = {"user": "", "channel": "", "project": "x", "source": "cli", "scope": "project", field: f"pass={SECRET}"}
    with pytest.raises(lifecycle.Refused, match=f"{field} looks like a password"):
        add_memory("User prefers tea.", **fields)
    assert everything() == ([], [])


def test_a_proposal_with_a_secret_in_its_channel_is_refused(db):
    from memories.lifecycle import proposals

    answer = proposals.propose(
        text="User prefers tea.",
        kind="preference",
        source="chat",
        source_kind="user_message",
        agent="bestie",
        channel="telegram:sk-proj-4Jf8sD02kLmQwErTyUiOp9aSdFgHjKlZx",
    )
    assert answer.status == "refused" and "channel looks like an API key" in answer.reason
    assert everything() == ([], [])


def test_a_message_is_kept_with_its_secrets_redacted_in_every_field(db):
    from memories.lifecycle import proposals
    from memories.models import Message

    message = proposals.record_message(
        role="user",
        agent="bestie",
        text="thẻ 4111 1111 1111 1111 hết hạn 12/28 CVV 123",
        channel=f"pass={SECRET}",
    )
    stored = Message.objects.get(pk=message.pk)
    assert stored.text == "thẻ [redacted card number]" and SECRET not in stored.channel


@pytest.mark.parametrize(
    "where, change, error",
    [
        ("memory", {"user": f"pass={SECRET}"}, "memories[0] (id 1): user looks like a password"),
        ("event", {"actor": f"owner:pass={SECRET}"}, "history[0] (id 1): actor looks like a password"),
        ("event", {"old": {"note": {"said": f"pass={SECRET}"}}}, "old note.said looks like a password"),
    ],
)
def test_import_refuses_a_secret_in_any_field_it_brings(transactional_db, where, change, error):
    document = json.loads(_document("User prefers tea."))
    document["memories" if where == "memory" else "history"][0].update(change)
    with pytest.raises(transfer.InvalidDocument, match=re.escape(error)):
        transfer.import_document(json.dumps(document), actor=OWNER)
    assert everything() == ([], [])


def test_import_takes_talk_about_secrets(transactional_db):
    result = transfer.import_document(_document("The router password is in the vault"), actor=OWNER)
    assert result.memories == 1 and Memory.objects.get().text == "The router password is in the vault"


# ---------------------------------------------------------------------------------------------------
# No trace: files, WAL, logs


def raw_bytes():
    """The database file and its WAL, as a reader of the disk would see them."""
    return database_bytes()


@pytest.mark.sqlite
@pytest.mark.django_db(transaction=True)
def test_a_refused_secret_is_not_in_the_database_file_or_its_wal():
    secret = "Quokka#Zephyr-7741"
    memory = add_memory("The router sits in the hallway")
    for text in (f"mật khẩu router là {secret}", f"The router password is {secret}"):
        with pytest.raises(lifecycle.Refused):
            add_memory(text)
        with pytest.raises(lifecycle.Refused):
            lifecycle.edit(memory.pk, text, actor=OWNER)
    with pytest.raises(lifecycle.Refused):
        add_memory("Router notes", source=f"https://router.example.test/?password={secret}")
    assert b"hallway" in raw_bytes()
    assert secret.encode() not in raw_bytes()


@pytest.mark.django_db
def test_a_refused_secret_is_not_logged(caplog):
    secret = "Quokka#Zephyr-7741"
    caplog.set_level(logging.DEBUG)
    caplog.set_level(logging.DEBUG, logger="django")
    connection.force_debug_cursor = True
    try:
        memory = add_memory("The router sits in the hallway")
        with pytest.raises(lifecycle.Refused):
            add_memory(f"The router password is {secret}")
        with pytest.raises(lifecycle.Refused):
            lifecycle.edit(memory.pk, f"mk router: {secret}", actor=OWNER)
    finally:
        connection.force_debug_cursor = False
    assert "hallway" in caplog.text  # the SQL log is on: a stored secret would show here
    assert secret not in caplog.text


def test_the_command_line_refuses_a_secret_and_says_why(db):
    message = refused("add", "fact", "mật khẩu wifi nhà mình là 12345678")
    assert message == "text looks like a password: nothing was stored"
    memory = add_memory("Wifi at home is called Bestie-Home-5G")
    message = refused("edit", str(memory.pk), "mk wifi: Bestie@2026")
    assert message == "text looks like a password: nothing was changed"


@pytest.mark.parametrize(
    "text",
    [
        "password: ${DB_PASSWORD}",
        "set the password to <your password>",
        "DATABASE_URL=postgres://app:PASSWORD@db/app",
        "mật khẩu: ********",
        "pass: YOUR_PASSWORD",
    ],
)
def test_placeholders_where_a_secret_would_go_are_not_secrets(text):
    assert find_secrets(text) == []


def test_relabel_refuses_a_secret_as_the_subject(db):
    memory = add_memory("Wifi at home is called Bestie-Home-5G", subject="wifi")
    before = everything()
    with pytest.raises(lifecycle.Refused, match="^subject looks like a password: nothing was changed$"):
        lifecycle.relabel(memory.pk, subject=f"wifi pass {SECRET}", actor=OWNER)
    assert everything() == before


def test_a_list_of_numbers_is_not_read_as_a_card():
    assert find_secrets("Scores this week: 4 111 11 1111 1111 1 and 7 12 40") == []
    assert [f.kind for f in find_secrets("Card 4111 1111 1111 1111 2026")] == ["card number"]
