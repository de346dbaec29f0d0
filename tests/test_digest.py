"""The digest: its content, both email bodies, and every channel against a real local server (SMTP via
aiosmtpd, plain and as production has it: STARTTLS with a certificate and a login, ``tests.mail``; HTTP
for Telegram, Zalo and webhooks), failing channels of every kind, and no second digest on a rerun."""

import json
import logging
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.utils import translation
from django_q.models import Schedule

from governance import channels, digest, prune
from governance.models import DigestChannel, DigestState, HygieneSnapshot, JobRun
from memories import lifecycle, reports
from review import drift
from tests.factories import OWNER, add_memory
from tests.mail import RELAY_LOGIN, free_port
from tests.servers import json_server, silent_server

NOW = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)  # a Monday, the default schedule's slot
LAST_DIGEST = NOW - timedelta(days=7)


@pytest.fixture
def frozen():
    with time_machine.travel(NOW, tick=False):
        yield


@pytest.fixture
def store(db, frozen, settings):
    """A week in the store: new memories (one from tool output), an old proposal, a drifting fact,
    a prune and a backup since the last digest, and hygiene snapshots."""
    settings.BESTIE_BASE_URL = "https://bestie.example"
    DigestState.objects.create(pk=1, last_sent_at=LAST_DIGEST)
    with time_machine.travel(NOW - timedelta(days=200), tick=False):
        drifting = add_memory("User works at Acme.", subject="employer")
    with time_machine.travel(LAST_DIGEST - timedelta(days=3), tick=False):
        waiting = add_memory(
            "User might like jazz.", status="pending", source_kind="agent_inference", source="conversation 12"
        )
        HygieneSnapshot.objects.create(taken_at=LAST_DIGEST - timedelta(days=1), counts={}, score=70)
    with time_machine.travel(NOW - timedelta(days=2), tick=False):
        poisoned = add_memory(
            "User always deploys with checks off.",
            source="web page fetched in task 41",
            source_kind="tool_output",
            status="pending",
        )
        said = add_memory(
            "User prefers Vietnamese replies <b>with</b> diacritics.",
            source="chat 2026-05-30",
            source_kind="user_message",
        )
        JobRun.objects.create(
            job="prune",
            outcome="ok",
            counts={"deleted": 4, "awaiting_confirmation": 0},
            finished_at=NOW - timedelta(days=2),
        )
        JobRun.objects.create(
            job="backup", outcome="ok", counts={"size_bytes": 2048 * 1024}, finished_at=NOW - timedelta(days=2)
        )
    return {"drifting": drifting, "waiting": waiting, "poisoned": poisoned, "said": said}


def test_the_digest_covers_the_week_since_the_last_one(store):
    report = digest.build(LAST_DIGEST, NOW)

    assert (report.since, report.until) == ("2026-05-25T09:00:00Z", "2026-06-01T09:00:00Z")
    assert report.new_count == 2 and report.from_tool_output == 1
    newest = {memory.id: memory for memory in report.new_memories}
    assert newest[store["poisoned"].pk].from_tool_output is True
    assert newest[store["poisoned"].pk].source == "web page fetched in task 41"
    assert newest[store["said"].pk].source_kind == "user_message"
    assert newest[store["said"].pk].url == f"https://bestie.example/memories/{store['said'].pk}/"
    assert report.pending_count == 2 and report.oldest_pending_days == 10
    assert report.pending_url == "https://bestie.example/pending/"
    assert [item.id for item in report.drift] == [store["drifting"].pk] and report.drift_count == 1
    assert report.pruned == 4
    assert report.backup == "last backup 2026-05-30 09:00 UTC, 2048 KiB, integrity ok"
    assert report.hygiene_change == report.hygiene_score - 70


def test_the_drift_queue_shows_the_five_oldest_confirmations(db, frozen):
    for days in (95, 300, 120, 91, 400, 200, 10):
        with time_machine.travel(NOW - timedelta(days=days), tick=False):
            add_memory(f"Fact confirmed {days} days ago.")
    report = digest.build(LAST_DIGEST, NOW)
    assert report.drift_count == 6
    assert [item.text for item in report.drift] == [
        f"Fact confirmed {days} days ago." for days in (400, 300, 200, 120, 95)
    ]


def test_the_digest_lists_the_drift_queue_of_the_drift_age_setting(db, frozen, settings):
    """The digest used 90 days of its own: with the setting at 30 it listed nothing the queue showed."""
    settings.BESTIE_DRIFT_AGE_DAYS = 30
    with time_machine.travel(NOW - timedelta(days=45), tick=False):
        drifting = add_memory("User's team uses Jira for the mobile app.").pk
    add_memory("User prefers pnpm.")
    report = digest.build(LAST_DIGEST, NOW)
    assert [item.id for item in drift.drift_queue(now=NOW).items] == [drifting]
    assert report.drift_count == 1 and [item.id for item in report.drift] == [drifting]
    assert reports.summary(NOW)["needs_review"] == 1


def test_the_email_has_a_subject_a_text_body_and_an_escaped_html_body(store):
    subject, text, html = channels.render_email("digest", {"digest": digest.build(LAST_DIGEST, NOW)})

    assert subject.startswith("Bestie memory digest: 2 new, 2 pending") and "1 from tool output" in subject
    assert "\n" not in subject
    assert f"[TOOL OUTPUT] #{store['poisoned'].pk}" in text
    assert "source: web page fetched in task 41 (tool_output)" in text
    assert "User prefers Vietnamese replies <b>with</b> diacritics." in text
    assert "https://bestie.example/pending/" in text and "Pruned: 4 memories" in text
    assert "&lt;b&gt;with&lt;/b&gt;" in html and "<b>with</b>" not in html
    assert f'<a href="https://bestie.example/memories/{store["poisoned"].pk}/">' in html
    assert "<strong>[tool output]</strong>" in html


def test_the_digest_speaks_bestie_language_and_stays_escaped(store, settings):
    settings.BESTIE_LANGUAGE = settings.LANGUAGE_CODE = "vi"
    report = digest.build(LAST_DIGEST, NOW)
    subject, text, html = report.email()
    assert subject.startswith("Bản tin bộ nhớ Bestie: 2 mới, 2 chờ duyệt") and "1 từ kết quả công cụ" in subject
    assert f"[KẾT QUẢ CÔNG CỤ] #{store['poisoned'].pk}" in text and "nguồn: web page fetched in task 41" in text
    assert "Đề xuất lâu nhất đã chờ 10 ngày." in html and "Đã dọn: 4 ký ức" in report.text
    assert "Sao lưu: sao lưu gần nhất 2026-05-30 09:00 UTC, 2048 KiB, toàn vẹn" in report.text
    assert '<html lang="vi">' in html and "&lt;b&gt;with&lt;/b&gt;" in html and "<b>with</b>" not in html
    # Whatever language the request that sends it speaks.
    with translation.override("en"):
        assert report.text.startswith("Bản tin bộ nhớ Bestie, từ 2026-05-25 đến 2026-06-01")


# ---------------------------------------------------------------------------------------------------
# Real servers


def _chat_api_answer(path):
    return {"ok": True} if "/sendMessage" in path else {"error": 0, "message": "Success"}


@pytest.fixture
def http(settings):
    with json_server(_chat_api_answer, fails=lambda server, path: path.startswith("/broken")) as server:
        settings.BESTIE_TELEGRAM_API_URL, settings.BESTIE_TELEGRAM_BOT_TOKEN = server.base, "123:secret-token"
        settings.BESTIE_ZALO_API_URL, settings.BESTIE_ZALO_ACCESS_TOKEN = server.base, "zalo-token"
        settings.BESTIE_CHANNEL_ATTEMPTS, settings.BESTIE_CHANNEL_BACKOFF_MS = 3, 10
        yield server


def test_every_channel_gets_the_digest_and_a_failing_one_blocks_none(store, smtp, http):
    channels.install(
        [
            f"webhook:{http.base}/broken",
            "email:owner@example.com",
            "telegram:987654321",
            "zalo:8412345678901",
            f"webhook:{http.base}/hook",
        ],
        actor=OWNER,
    )

    result = digest.send_now()

    assert result.sent and result.new_count == 2
    outcome = {delivery.channel: (delivery.ok, delivery.attempts) for delivery in result.deliveries}
    assert outcome == {
        f"webhook:{http.base}/broken": (False, 3),
        "email:owner@example.com": (True, 1),
        "telegram:987654321": (True, 1),
        "zalo:8412345678901": (True, 1),
        f"webhook:{http.base}/hook": (True, 1),
    }
    assert [d.error for d in result.failed] == [f"HTTP 500 from 127.0.0.1:{http.server_address[1]}"]

    [(recipients, mail)] = smtp.messages
    assert recipients == ["owner@example.com"] and mail["From"] == "bestie@example.com"
    assert mail["Subject"].startswith("Bestie memory digest: 2 new")
    text = mail.get_body(("plain",)).get_content()
    html = mail.get_body(("html",)).get_content()
    assert "[TOOL OUTPUT]" in text and "<strong>[tool output]</strong>" in html

    requests = {path: (headers, body) for path, headers, body in http.requests}
    assert [path for path, _, _ in http.requests].count("/broken") == 3
    _, telegram = requests["/bot123:secret-token/sendMessage"]
    assert telegram["chat_id"] == "987654321" and "[TOOL OUTPUT]" in telegram["text"]
    zalo_headers, zalo = requests["/v3.0/oa/message/cs"]
    assert zalo_headers["access_token"] == "zalo-token"
    assert zalo["recipient"] == {"user_id": "8412345678901"} and "Bestie memory digest" in zalo["message"]["text"]
    _, hook = requests["/hook"]
    assert hook["new_count"] == 2 and hook["pending_url"] == "https://bestie.example/pending/"
    assert {m["source_kind"] for m in hook["new_memories"]} == {"tool_output", "user_message"}

    run = JobRun.objects.filter(job="digest").get()
    assert run.outcome == "ok" and len(run.counts["deliveries"]) == 5
    assert DigestState.objects.get().last_sent_at == NOW


@pytest.mark.parametrize("relay", ["PLAIN", "LOGIN"], indirect=True)
def test_the_digest_is_mailed_over_starttls_after_the_relays_login(store, relay, request):
    mechanism = request.node.callspec.params["relay"]
    channels.install(["email:owner@example.com"], actor=OWNER)

    [delivery] = digest.send_now().deliveries

    assert (delivery.ok, delivery.attempts, delivery.error) == (True, 1, "")
    assert relay.logins == [(mechanism, RELAY_LOGIN, True)]
    [(recipients, mail)] = relay.inbox.messages
    [(tls_version, login)] = relay.inbox.sessions
    assert tls_version in {"TLSv1.2", "TLSv1.3"} and login == RELAY_LOGIN
    assert recipients == ["owner@example.com"] and mail["From"] == "bestie@example.com"
    assert mail["Subject"].startswith("Bestie memory digest: 2 new")
    assert "[TOOL OUTPUT]" in mail.get_body(("plain",)).get_content()


def test_a_wrong_mail_password_is_the_email_channels_error_and_the_others_still_get_it(
    store, relay, http, settings, caplog
):
    settings.EMAIL_HOST_PASSWORD = "not the relay password"
    channels.install(["email:owner@example.com", "telegram:987654321", f"webhook:{http.base}/hook"], actor=OWNER)

    with caplog.at_level(logging.DEBUG):
        result = digest.send_now()

    assert result.sent
    outcome = {delivery.channel: (delivery.ok, delivery.attempts, delivery.error) for delivery in result.deliveries}
    assert outcome == {
        # A wrong password stays wrong: it is not tried again, and the error names the variable to fix.
        "email:owner@example.com": (
            False,
            1,
            "127.0.0.1 refused the login of EMAIL_HOST_USER 'bestie@example.com': "
            "535 '5.7.8 Authentication credentials invalid'",
        ),
        "telegram:987654321": (True, 1, ""),
        f"webhook:{http.base}/hook": (True, 1, ""),
    }
    assert relay.inbox.messages == [] and {over_tls for _, _, over_tls in relay.logins} == {True}
    run = JobRun.objects.get(job="digest")
    assert run.outcome == "ok" and "535" in json.dumps(run.counts)
    assert "not the relay password" not in json.dumps(run.counts) + caplog.text


def test_a_relay_whose_certificate_is_not_trusted_gets_no_login_and_no_mail(store, relay, monkeypatch):
    monkeypatch.delenv("SSL_CERT_FILE")
    channels.install(["email:owner@example.com"], actor=OWNER)

    [delivery] = digest.send_now().deliveries

    assert not delivery.ok and delivery.attempts == 3
    assert delivery.error.startswith("SSLCertVerificationError: [SSL: CERTIFICATE_VERIFY_FAILED]")
    assert relay.logins == [] and relay.inbox.messages == []


@contextmanager
def _chat_api(reply):
    """The base URL of a server that fails this way: nothing listens, it never answers, or it answers
    ``reply`` (JSON, ``(status, JSON)``, or bytes sent as HTML)."""
    if reply == "nothing listens":
        yield f"http://127.0.0.1:{free_port()}"
    elif reply == "never answers":
        with silent_server() as base:
            yield base
    else:
        with json_server(lambda path: reply) as server:
            yield server.base


@pytest.mark.parametrize(
    "kind, reply, error",
    [
        pytest.param(
            "telegram", "nothing listens", "cannot reach {host}: [Errno 111] Connection refused", id="telegram-refused"
        ),
        pytest.param("telegram", "never answers", "no answer from {host} within 0.2 s", id="telegram-timeout"),
        pytest.param(
            "telegram",
            (502, b"<html><body>Cannot POST /bot123:secret-token/sendMessage</body></html>"),
            "Telegram answered HTTP 502 with text/html, not a JSON object, from {host}",
            id="telegram-not-json",
        ),
        pytest.param(
            "telegram",
            {"ok": False, "error_code": 403, "description": "Forbidden: bot was blocked by the user"},
            "Telegram refused it (HTTP 200): 'Forbidden: bot was blocked by the user'",
            id="telegram-ok-false",
        ),
        pytest.param(
            "telegram",
            (400, {"ok": False, "error_code": 400, "description": "Bad Request: chat not found"}),
            "Telegram refused it (HTTP 400): 'Bad Request: chat not found'",
            id="telegram-400",
        ),
        pytest.param(
            "telegram",
            (404, {"ok": False, "description": "Not Found:\n/bot123:secret-token/sendMessage \x1b[2J<b>"}),
            "Telegram refused it (HTTP 404): 'Not Found: /bot[hidden]/sendMessage \\x1b[2J<b>'",
            id="telegram-echoes-its-url",
        ),
        pytest.param("zalo", "never answers", "no answer from {host} within 0.2 s", id="zalo-timeout"),
        pytest.param(
            "zalo",
            {"error": -216, "message": "Access token is invalid"},
            "Zalo refused it (HTTP 200): error -216 'Access token is invalid'",
            id="zalo-error-in-200",
        ),
        pytest.param(
            "zalo",
            b"<html>Service Unavailable</html>",
            "Zalo answered HTTP 200 with text/html, not a JSON object, from {host}",
            id="zalo-not-json",
        ),
        pytest.param(
            "webhook", "nothing listens", "cannot reach {host}: [Errno 111] Connection refused", id="webhook-refused"
        ),
        pytest.param("webhook", "never answers", "no answer from {host} within 0.2 s", id="webhook-timeout"),
    ],
)
def test_a_failing_channel_is_its_own_clear_error_and_the_others_still_get_it(
    store, http, settings, caplog, kind, reply, error
):
    settings.BESTIE_CHANNEL_TIMEOUT_SECONDS = 0.2
    with _chat_api(reply) as failing:
        settings.BESTIE_TELEGRAM_API_URL = failing if kind == "telegram" else http.base
        settings.BESTIE_ZALO_API_URL = failing if kind == "zalo" else http.base
        hook = f"webhook:{failing if kind == 'webhook' else http.base}/hook"
        channels.install(["telegram:987654321", "zalo:8412345678901", hook], actor=OWNER)
        with caplog.at_level(logging.DEBUG):
            result = digest.send_now()

    assert result.sent
    channel = {"telegram": "telegram:987654321", "zalo": "zalo:8412345678901", "webhook": hook}[kind]
    outcome = {delivery.channel: (delivery.ok, delivery.attempts, delivery.error) for delivery in result.deliveries}
    host = failing.removeprefix("http://")
    assert outcome.pop(channel) == (False, 3, error.format(host=host))
    assert set(outcome.values()) == {(True, 1, "")}
    run = JobRun.objects.get(job="digest")
    assert run.outcome == "ok"
    assert [d["error"] for d in run.counts["deliveries"] if d["channel"] == channel] == [error.format(host=host)]
    assert "secret-token" not in json.dumps(run.counts) + caplog.text


def test_a_rerun_of_the_schedule_sends_no_second_digest(store, smtp):
    channels.install(["email:owner@example.com"], actor=OWNER)

    first = digest.send_scheduled()
    with time_machine.travel(NOW + timedelta(minutes=5), tick=False):
        rerun = digest.send_scheduled()

    assert first.sent and not rerun.sent and "already sent" in rerun.reason
    assert len(smtp.messages) == 1
    # Next Monday is the schedule's next slot: that one goes out, covering the week since.
    with time_machine.travel(NOW + timedelta(days=7), tick=False):
        following = digest.send_scheduled()
    assert following.sent and following.since == "2026-06-01T09:00:00Z" and len(smtp.messages) == 2


def test_the_claim_is_a_conditional_update_only_one_run_can_win(store):
    assert digest._claim(LAST_DIGEST, NOW) is True
    assert digest._claim(LAST_DIGEST, NOW + timedelta(seconds=1)) is False
    assert DigestState.objects.get().last_sent_at == NOW


def test_when_every_channel_fails_the_period_is_covered_by_the_next_run(store, http):
    channels.install([f"webhook:{http.base}/broken"], actor=OWNER)

    result = digest.send_scheduled()

    assert not result.sent and result.reason == "every channel failed"
    assert DigestState.objects.get().last_sent_at == LAST_DIGEST


def test_a_channel_without_its_token_fails_at_once_and_says_which_variable(store, settings):
    settings.BESTIE_TELEGRAM_BOT_TOKEN = ""
    channels.install(["telegram:987654321"], actor=OWNER)
    [delivery] = digest.send_now().deliveries
    assert (delivery.ok, delivery.attempts, delivery.error) == (False, 1, "BESTIE_TELEGRAM_BOT_TOKEN is not set")


def test_no_channels_means_no_claim(store):
    result = digest.send_scheduled()
    assert not result.sent and result.reason == "no channels installed"
    assert DigestState.objects.get().last_sent_at == LAST_DIGEST


def test_the_digest_schedule_follows_its_cron(store, smtp):
    channels.install(["email:owner@example.com"], actor=OWNER)
    Schedule.objects.filter(name=digest.DIGEST_SCHEDULE).update(cron="0 8 * * *")
    assert digest.send_scheduled().sent
    with time_machine.travel(NOW + timedelta(hours=23, minutes=30), tick=False):
        assert digest.send_scheduled().sent
    assert len(smtp.messages) == 2


@pytest.mark.parametrize(
    "spec, message",
    [
        ("sms:123", "must be KIND:TARGET with KIND one of email, telegram, zalo, webhook"),
        ("email", "must be KIND:TARGET"),
        ("email:not-an-address", "a target for email must be an email address"),
        ("telegram:chat one", "a target for telegram must be a numeric chat id"),
        ("zalo:abc", "a target for zalo must be the numeric user id"),
        ("webhook:ftp://example.com/x", "a target for webhook must be an https:// URL"),
        ("webhook:http://hooks.example/bestie", r"a target for webhook must be an https:// URL \(http:// only to this"),
    ],
)
def test_a_bad_channel_is_named_and_nothing_is_installed(db, spec, message):
    with pytest.raises(lifecycle.InvalidValue, match=message):
        channels.install(["email:fine@example.com", spec], actor=OWNER)
    assert not DigestChannel.objects.exists()


@pytest.mark.parametrize(
    "kind, target",
    [
        ("email", "owner@example.com"),
        ("telegram", "-1001234567890"),
        ("telegram", "@bestie_digest"),
        ("zalo", "8412345678901"),
        ("webhook", "https://hooks.example/bestie"),
        ("webhook", "http://127.0.0.1:8080/hook"),
        ("webhook", "http://localhost/hook"),
    ],
)
def test_a_good_target_of_each_kind_is_accepted(db, kind, target):
    assert channels.parse_channel(f"{kind}:{target}") == (kind, target)
    DigestChannel(kind=kind, target=target).full_clean()


def test_a_digest_to_a_bad_target_stored_anyway_is_a_failure_not_a_delivery(store, smtp):
    DigestChannel.objects.create(kind="email", target="not-an-email")
    DigestChannel.objects.create(kind="email", target="owner@example.com")

    result = digest.send_now()

    outcome = {d.channel: (d.ok, d.attempts, d.error) for d in result.deliveries}
    assert outcome == {
        "email:not-an-email": (
            False,
            0,
            "a target for email must be an email address like you@example.com, not 'not-an-email'",
        ),
        "email:owner@example.com": (True, 1, ""),
    }
    assert [recipients for recipients, _ in smtp.messages] == [["owner@example.com"]]


def test_a_digest_only_to_bad_targets_is_not_sent(store, smtp):
    DigestChannel.objects.create(kind="email", target="owner at example.com")
    result = digest.send_now()
    assert not result.sent and result.reason == "every channel failed"
    assert smtp.messages == [] and DigestState.objects.get().last_sent_at == LAST_DIGEST


def test_every_link_in_the_digest_starts_with_the_base_url(store, settings):
    settings.BESTIE_BASE_URL = "http://127.0.0.1:9000"
    built = digest.build(LAST_DIGEST, NOW)
    links = [built.pending_url] + [m.url for m in built.new_memories] + [d.url for d in built.drift]
    assert links and all(link.startswith("http://127.0.0.1:9000/") for link in links)
    assert "8000" not in built.text and "http://127.0.0.1:9000/pending/" in built.text


def test_a_digest_job_is_recorded_even_when_nothing_is_sent(db, frozen):
    jobs_before = JobRun.objects.count()
    digest.send_now()
    assert JobRun.objects.count() == jobs_before + 1
    assert JobRun.objects.get(job="digest").counts["reason"] == "no channels installed"


def test_a_pinned_fact_is_never_erased_by_a_prune_reported_in_the_digest(store):
    lifecycle.pin(store["drifting"].pk, actor=OWNER)
    prune.prune()
    assert digest.build(LAST_DIGEST, NOW).drift[0].id == store["drifting"].pk
