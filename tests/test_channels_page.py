"""The channels page: the digest's channels listed, added, changed and removed, each target checked for
its kind; a test message through each channel's real sender (a local SMTP server with STARTTLS and a
login, a local HTTP server for Telegram and webhooks); and the digest now, through the job cluster."""

import pytest
from django.test import Client
from django_q.conf import Conf
from django_q.models import OrmQ

from governance.models import DigestChannel, JobRun
from memories.models import AuditEvent
from tests.console import HTMX, text_of
from tests.mail import RELAY_LOGIN, free_port
from tests.servers import json_server

pytestmark = pytest.mark.django_db


def installed():
    return [str(channel) for channel in DigestChannel.objects.all()]


@pytest.fixture
def cluster(monkeypatch):
    """The job cluster, standing in: a queued job runs at once, in the request that queues it."""
    monkeypatch.setattr(Conf, "SYNC", True)


@pytest.fixture
def chat_api(settings):
    """Telegram's Bot API and a webhook receiver on 127.0.0.1, taking everything."""
    with json_server(lambda path: {"ok": True}) as server:
        settings.BESTIE_TELEGRAM_API_URL, settings.BESTIE_TELEGRAM_BOT_TOKEN = server.base, "123:secret-token"
        settings.BESTIE_CHANNEL_ATTEMPTS, settings.BESTIE_CHANNEL_BACKOFF_MS = 3, 10
        yield server


def test_the_page_lists_the_channels_and_what_keeps_one_from_sending(console, settings):
    settings.BESTIE_TELEGRAM_BOT_TOKEN = ""
    email = DigestChannel.objects.create(kind="email", target="owner@example.com")
    telegram = DigestChannel.objects.create(kind="telegram", target="123456789")

    page = text_of(console.get("/channels/"))

    assert "owner@example.com" in page and "123456789" in page
    assert page.count("BESTIE_TELEGRAM_BOT_TOKEN is not set: nothing can be sent to Telegram") == 1
    for channel in (email, telegram):
        assert f'action="/channels/{channel.pk}/test/"' in page
        assert f'href="/channels/{channel.pk}/edit/"' in page and f'href="/channels/{channel.pk}/remove/"' in page


@pytest.mark.parametrize(
    "kind, target",
    [
        ("email", "owner@example.com"),
        ("telegram", "-1001234567890"),
        ("telegram", "@bestie_digest"),
        ("zalo", "8412345678901"),
        ("webhook", "https://hooks.example/bestie"),
    ],
)
def test_a_channel_of_each_kind_is_added(console, kind, target):
    response = console.post("/channels/add/", {"kind": kind, "target": f" {target} "})

    assert response["Location"] == "/channels/"
    assert installed() == [f"{kind}:{target}"]
    assert f"The digest now goes to {kind}:{target} too." in text_of(console.get("/channels/"))


@pytest.mark.parametrize(
    "kind, target, error",
    [
        ("email", "owner at example.com", "a target for email must be an email address like you@example.com"),
        ("telegram", "my chat", "a target for telegram must be a numeric chat id like 123456789"),
        ("zalo", "abc", "a target for zalo must be the numeric user id the Official Account sees"),
        ("webhook", "ftp://hooks.example/x", "a target for webhook must be an https:// URL, not"),
        ("webhook", "http://hooks.example/x", "an https:// URL (http:// only to this machine"),
        ("sms", "12345", "Select a valid choice. sms is not one of the available choices."),
        ("email", "", "This field is required."),
        ("email", "x" * 501, "Ensure this value has at most 500 characters"),
    ],
)
def test_a_bad_target_is_refused_with_its_reason_and_nothing_is_added(console, kind, target, error):
    DigestChannel.objects.create(kind="email", target="owner@example.com")

    response = console.post("/channels/add/", {"kind": kind, "target": target})

    assert response.status_code == 400
    assert error in text_of(response).replace("&#x27;", "'")
    assert "target: a target" not in text_of(response)  # the field's own name is not repeated before it
    assert installed() == ["email:owner@example.com"]


def test_a_channel_installed_already_is_refused(console):
    DigestChannel.objects.create(kind="email", target="owner@example.com")

    response = console.post("/channels/add/", {"kind": "email", "target": "owner@example.com"})

    assert response.status_code == 400
    assert "email:owner@example.com is installed already" in text_of(response)
    assert installed() == ["email:owner@example.com"]


def test_a_channel_is_changed_and_a_bad_change_changes_nothing(console):
    channel = DigestChannel.objects.create(kind="email", target="owner@example.com")
    DigestChannel.objects.create(kind="telegram", target="42")
    form = text_of(console.get(f"/channels/{channel.pk}/edit/"))
    assert 'value="owner@example.com"' in form and '<option value="email" selected>' in form

    refused = console.post(f"/channels/{channel.pk}/edit/", {"kind": "zalo", "target": "owner@example.com"})
    assert refused.status_code == 400 and "a target for zalo must be the numeric user id" in text_of(refused)
    taken = console.post(f"/channels/{channel.pk}/edit/", {"kind": "telegram", "target": "42"})
    assert taken.status_code == 400 and "telegram:42 is installed already" in text_of(taken)
    assert installed() == ["email:owner@example.com", "telegram:42"]

    changed = console.post(f"/channels/{channel.pk}/edit/", {"kind": "email", "target": "me@example.org"})
    assert changed["Location"] == "/channels/"
    assert installed() == ["email:me@example.org", "telegram:42"]


def test_removing_a_channel_asks_first(console):
    channel = DigestChannel.objects.create(kind="email", target="owner@example.com")
    DigestChannel.objects.create(kind="telegram", target="42")

    asked = console.get(f"/channels/{channel.pk}/remove/")
    assert "Stop sending the digest to email:owner@example.com?" in text_of(asked)
    unconfirmed = console.post(f"/channels/{channel.pk}/remove/")
    assert unconfirmed.status_code == 200 and "Yes, remove it" in text_of(unconfirmed)
    assert len(installed()) == 2

    removed = console.post(f"/channels/{channel.pk}/remove/", {"confirm": "yes"})
    assert removed["Location"] == "/channels/"
    assert installed() == ["telegram:42"]
    assert "The digest no longer goes to email:owner@example.com." in text_of(console.get("/channels/"))


def channel_history():
    return [
        (event.actor, event.old, event.new)
        for event in AuditEvent.objects.filter(event=AuditEvent.Event.POLICY, memory_id=None).order_by("id")
    ]


def test_every_change_of_where_the_digest_goes_is_in_the_history_and_a_refused_one_is_not(console):
    console.post("/channels/add/", {"kind": "webhook", "target": "https://hooks.example/services/T1/secret-key"})
    channel = DigestChannel.objects.get()
    console.post("/channels/add/", {"kind": "webhook", "target": "https://hooks.example/services/T1/secret-key"})
    console.post(f"/channels/{channel.pk}/edit/", {"kind": "email", "target": "owner@example.com"})
    console.post(f"/channels/{channel.pk}/edit/", {"kind": "zalo", "target": "owner@example.com"})
    console.post(f"/channels/{channel.pk}/remove/", {"confirm": "yes"})
    webhook, email = (
        {"digest channel": "webhook:https://hooks.example/…"},
        {"digest channel": "email:owner@example.com"},
    )
    assert channel_history() == [
        ("owner:owner", None, webhook),
        ("owner:owner", webhook, email),
        ("owner:owner", email, None),
    ]
    assert "secret-key" not in str(list(AuditEvent.objects.values()))


def test_a_channel_stored_with_a_bad_target_can_be_changed_or_removed(console):
    bad = DigestChannel.objects.create(kind="email", target="not-an-email")
    assert "not-an-email" in text_of(console.get("/channels/"))

    console.post(f"/channels/{bad.pk}/edit/", {"kind": "email", "target": "owner@example.com"})
    assert installed() == ["email:owner@example.com"]
    console.post(f"/channels/{bad.pk}/remove/", {"confirm": "yes"})
    assert installed() == []


@pytest.mark.parametrize("url", ["/channels/{id}/edit/", "/channels/{id}/remove/"])
def test_an_unknown_channel_is_not_found(console, url):
    assert console.get(url.format(id=999)).status_code == 404
    assert console.post(url.format(id=2**64), {"confirm": "yes"}).status_code == 404
    assert console.post("/channels/999/test/").status_code == 404


def test_the_channel_forms_need_the_csrf_token(owner, smtp):
    channel = DigestChannel.objects.create(kind="email", target="owner@example.com")
    client = Client(enforce_csrf_checks=True)
    client.force_login(owner)

    assert client.post("/channels/add/", {"kind": "email", "target": "other@example.com"}).status_code == 403
    assert client.post(f"/channels/{channel.pk}/edit/", {"kind": "telegram", "target": "42"}).status_code == 403
    assert client.post(f"/channels/{channel.pk}/remove/", {"confirm": "yes"}).status_code == 403
    assert client.post(f"/channels/{channel.pk}/test/", **HTMX).status_code == 403
    assert client.post("/channels/digest/").status_code == 403
    assert installed() == ["email:owner@example.com"]
    assert smtp.messages == [] and not OrmQ.objects.exists()


def test_the_channel_pages_need_the_login(client):
    channel = DigestChannel.objects.create(kind="email", target="owner@example.com")
    for url in ("/channels/", f"/channels/{channel.pk}/edit/", f"/channels/{channel.pk}/remove/"):
        assert client.get(url)["Location"].startswith("/login/?next=")
    for url in (
        "/channels/add/",
        f"/channels/{channel.pk}/remove/",
        f"/channels/{channel.pk}/test/",
        "/channels/digest/",
    ):
        assert client.post(url, {"kind": "telegram", "target": "42", "confirm": "yes"})["Location"].startswith(
            "/login/?next="
        )
    assert installed() == ["email:owner@example.com"] and not OrmQ.objects.exists()


# ---------------------------------------------------------------------------------------------------
# A test through each channel's real sender


def test_a_test_email_goes_over_starttls_after_the_relays_login(console, relay, settings):
    settings.BESTIE_BASE_URL = "https://bestie.example"
    channel = DigestChannel.objects.create(kind="email", target="owner@example.com")

    response = console.post(f"/channels/{channel.pk}/test/", **HTMX)

    assert response.status_code == 200 and "<html" not in text_of(response)
    assert "Test sent to email:owner@example.com: check that it arrived." in text_of(response)
    [(recipients, mail)] = relay.inbox.messages
    [(tls_version, login)] = relay.inbox.sessions
    assert tls_version in {"TLSv1.2", "TLSv1.3"} and login == RELAY_LOGIN
    assert recipients == ["owner@example.com"] and mail["Subject"] == "Bestie memory: a test of this channel"
    text = mail.get_body(("plain",)).get_content()
    assert "the digest can reach you through email:owner@example.com" in text
    assert "https://bestie.example/channels/" in text
    assert "email:owner@example.com" in mail.get_body(("html",)).get_content()


def test_a_test_email_in_vietnamese(console, smtp):
    channel = DigestChannel.objects.create(kind="email", target="owner@example.com")
    console.post("/i18n/setlang/", {"language": "vi"})

    response = console.post(f"/channels/{channel.pk}/test/", **HTMX)

    [(_, mail)] = smtp.messages
    assert mail["Subject"] == "Ký ức Bestie: thử kênh này"
    text = mail.get_body(("plain",)).get_content()
    assert "Đây là tin nhắn thử từ Bestie Memory: bản tin có thể tới bạn qua email:owner@example.com." in text
    assert 'lang="vi"' in mail.get_body(("html",)).get_content()
    assert "Đã gửi tin nhắn thử tới email:owner@example.com" in text_of(response)


def test_a_wrong_mail_password_is_the_tests_plain_failure(console, relay, settings):
    settings.EMAIL_HOST_PASSWORD = "not the relay password"
    channel = DigestChannel.objects.create(kind="email", target="owner@example.com")

    response = console.post(f"/channels/{channel.pk}/test/")

    assert response["Location"] == "/channels/"
    page = text_of(console.get("/channels/")).replace("&#x27;", "'")
    assert (
        "The test to email:owner@example.com failed: 127.0.0.1 refused the login of EMAIL_HOST_USER "
        "'bestie@example.com': 535" in page
    )
    assert "not the relay password" not in page and "check that it arrived" not in page
    assert relay.inbox.messages == []


def test_mail_printed_by_the_console_backend_is_not_called_sent(console, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
    channel = DigestChannel.objects.create(kind="email", target="owner@example.com")

    page = text_of(console.get("/channels/"))
    response = text_of(console.post(f"/channels/{channel.pk}/test/", **HTMX))

    assert "EMAIL_HOST is not set: mail is printed in the server&#x27;s output, not sent" in page
    assert "The test to email:owner@example.com was not sent: EMAIL_HOST is not set" in response
    assert "check that it arrived" not in response


def test_a_test_to_telegram_and_to_a_webhook_reaches_the_local_server(console, chat_api):
    telegram = DigestChannel.objects.create(kind="telegram", target="987654321")
    hook = DigestChannel.objects.create(kind="webhook", target=f"{chat_api.base}/hook")

    for channel in (telegram, hook):
        response = text_of(console.post(f"/channels/{channel.pk}/test/", **HTMX))
        assert f"Test sent to {channel}: check that it arrived." in response

    requests = {path: body for path, _, body in chat_api.requests}
    sent = requests["/bot123:secret-token/sendMessage"]
    assert sent["chat_id"] == "987654321" and "the digest can reach you through telegram:987654321" in sent["text"]
    assert requests["/hook"]["test"] is True and requests["/hook"]["channel"] == str(hook)
    assert "the digest can reach you through webhook:" in requests["/hook"]["text"]
    assert not JobRun.objects.exists()  # a test is not a digest


@pytest.mark.parametrize(
    "reply, error",
    [
        (
            (400, {"ok": False, "description": "Bad Request: chat not found"}),
            "Telegram refused it (HTTP 400): 'Bad Request: chat not found'",
        ),
        ((502, b"<html>Bad Gateway</html>"), "Telegram answered HTTP 502 with text/html, not a JSON object"),
    ],
)
def test_a_telegram_refusal_is_shown_as_the_tests_failure_tried_once(console, settings, reply, error):
    with json_server(lambda path: reply) as server:
        settings.BESTIE_TELEGRAM_API_URL, settings.BESTIE_TELEGRAM_BOT_TOKEN = server.base, "123:secret-token"
        channel = DigestChannel.objects.create(kind="telegram", target="987654321")
        response = console.post(f"/channels/{channel.pk}/test/", **HTMX)

    assert response.status_code == 200
    shown = text_of(response).replace("&#x27;", "'")
    assert f"The test to telegram:987654321 failed: {error}" in shown and "secret-token" not in shown
    assert len(server.requests) == 1


def test_a_webhook_nobody_answers_is_the_tests_failure(console):
    channel = DigestChannel.objects.create(kind="webhook", target=f"http://127.0.0.1:{free_port()}/hook")

    response = text_of(console.post(f"/channels/{channel.pk}/test/", **HTMX))

    assert f"The test to {channel} failed: cannot reach 127.0.0.1:" in response and "Connection refused" in response


# ---------------------------------------------------------------------------------------------------
# The digest now


def test_the_digest_now_is_sent_by_the_job_cluster_and_each_channel_says_how_it_went(console, cluster, smtp):
    DigestChannel.objects.create(kind="email", target="owner@example.com")
    DigestChannel.objects.create(kind="webhook", target=f"http://127.0.0.1:{free_port()}/hook")

    response = console.post("/channels/digest/")

    assert response["Location"].startswith("/channels/?queued=")
    page = text_of(console.get(response["Location"]))
    assert "Sent to 1 of 2 channels." in page
    assert "email:owner@example.com</span>:\n            sent" in page
    assert "failed after 3 attempts: cannot reach 127.0.0.1:" in page
    assert 'hx-trigger="every 2s"' not in page  # done: nothing left to wait for
    [(recipients, mail)] = smtp.messages
    assert recipients == ["owner@example.com"] and mail["Subject"].startswith("Bestie memory digest")
    assert JobRun.objects.get(job="digest").outcome == "ok"


def test_a_digest_that_reached_no_one_says_so(console, cluster, settings):
    settings.BESTIE_CHANNEL_ATTEMPTS, settings.BESTIE_CHANNEL_BACKOFF_MS = 1, 0
    DigestChannel.objects.create(kind="webhook", target=f"http://127.0.0.1:{free_port()}/hook")

    page = text_of(console.get(console.post("/channels/digest/")["Location"]))

    assert "Not sent: every channel failed." in page and "Sent to" not in page
    assert "failed after 1 attempt: cannot reach" in page


def test_the_digest_now_waits_for_the_job_cluster_and_the_page_polls_for_it(console):
    DigestChannel.objects.create(kind="email", target="owner@example.com")

    location = console.post("/channels/digest/")["Location"]

    [queued] = OrmQ.objects.all()
    assert queued.func() == "governance.digest.send_now"
    page = text_of(console.get(location))
    assert "waiting for the job cluster to send it" in page and 'hx-trigger="every 2s"' in page
    fragment = text_of(console.get(location, **HTMX))
    assert fragment.lstrip().startswith('<section class="card" id="digest"') and "<html" not in fragment
    assert "waiting for the job cluster" in fragment
    assert not JobRun.objects.exists()


@pytest.mark.parametrize("queued", ["", "yesterday", "2026-06-01T09:00:00", "9" * 40, "\x00"])
def test_a_queued_time_that_is_not_one_shows_the_last_digest(console, queued):
    response = console.get("/channels/", {"queued": queued})
    assert response.status_code == 200
    assert "No digest has been sent yet." in text_of(response)
