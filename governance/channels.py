"""Where digests go: email (Django's mail backends), Telegram, Zalo and any webhook (SPEC §6).

A sender takes a message, the digest or a channel's test: its ``text`` (Telegram, Zalo), its
``email()`` (subject, text and HTML bodies) and its ``as_json()`` (a webhook's body).

Each channel is tried a few times with a growing pause (``BESTIE_CHANNEL_ATTEMPTS``,
``BESTIE_CHANNEL_BACKOFF_MS``), each attempt bounded by ``BESTIE_CHANNEL_TIMEOUT_SECONDS``; a channel
that still fails is reported and the others are sent all the same. A chat API has delivered only when
it says so in JSON (Telegram's ``ok``, Zalo's ``error`` 0), whatever the HTTP status; a webhook when it
answers 2xx, whatever the body.
"""

import json
import smtplib
import time
import urllib.error
import urllib.request
from dataclasses import dataclass

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext as _

from governance.models import DigestChannel, target_error
from memories.lifecycle import InvalidValue, NotFound, audit_event, clean_id, record_many
from memories.models import AuditEvent
from memories.times import iso

TELEGRAM_TEXT_LIMIT = 4096
ZALO_TEXT_LIMIT = 2000


def _split(value):
    """``KIND:TARGET`` as (kind, target), the kind checked; the target as it was given."""
    kind, separator, target = (value or "").partition(":")
    kind, target = kind.strip().lower(), target.strip()
    if not separator or kind not in DigestChannel.Kind.values:
        raise InvalidValue(
            "channel",
            f"must be KIND:TARGET with KIND one of {', '.join(DigestChannel.Kind.values)} "
            f"(email:you@example.com, telegram:123456789, zalo:8412345678901, webhook:https://…), not {value!r}",
        )
    return kind, target


def parse_channel(value):
    """``KIND:TARGET`` as (kind, target), with the target's shape checked for its kind."""
    kind, target = _split(value)
    error = target_error(kind, target)
    if error:
        raise InvalidValue("channel", error)
    return kind, target


def _checked(kind, target):
    """A channel's kind and target as given apart (the console's form), stripped and checked."""
    kind, target = (kind or "").strip().lower(), (target or "").strip()
    if kind not in DigestChannel.Kind.values:
        raise InvalidValue("kind", _("must be one of %(kinds)s") % {"kinds": ", ".join(DigestChannel.Kind.values)})
    error = target_error(kind, target)
    if error:
        raise InvalidValue("target", error)
    return kind, target


def console_url(path):
    """A link into the console, for what is sent away from it (``BESTIE_BASE_URL``)."""
    return f"{settings.BESTIE_BASE_URL}{path}"


def setup_problem(kind):
    """Why channels of ``kind`` reach no one as the site is configured, or None: the variable to set."""
    if kind == DigestChannel.Kind.EMAIL and settings.EMAIL_BACKEND == "django.core.mail.backends.console.EmailBackend":
        return _("EMAIL_HOST is not set: mail is printed in the server's output, not sent")
    if kind == DigestChannel.Kind.TELEGRAM and not settings.BESTIE_TELEGRAM_BOT_TOKEN:
        return _("BESTIE_TELEGRAM_BOT_TOKEN is not set: nothing can be sent to Telegram")
    if kind == DigestChannel.Kind.ZALO and not settings.BESTIE_ZALO_ACCESS_TOKEN:
        return _("BESTIE_ZALO_ACCESS_TOKEN is not set: nothing can be sent to Zalo")
    return None


@dataclass(frozen=True)
class Delivery:
    channel: str
    ok: bool
    attempts: int
    error: str = ""


class ChannelError(Exception):
    pass


class NotConfigured(ChannelError):
    """A missing token or a refused login: trying again cannot help."""


def render_email(name, context):
    """The (subject, text body, HTML body) of ``templates/emails/<name>-{subject,body}.{txt,html}``."""
    subject = " ".join(render_to_string(f"emails/{name}-subject.txt", context).split())
    return (
        subject,
        render_to_string(f"emails/{name}-body.txt", context),
        render_to_string(f"emails/{name}-body.html", context),
    )


@dataclass(frozen=True)
class TestMessage:
    """What a channel's test sends: a few lines saying where it came from, in the console's language."""

    channel: str
    sent_at: str
    url: str

    @property
    def text(self):
        return render_to_string("emails/test-body.txt", {"message": self})

    def email(self):
        return render_email("test", {"message": self})

    def as_json(self):
        return {"test": True, "channel": self.channel, "sent_at": self.sent_at, "text": self.text}


def _send_email(address, content):
    subject, text, html = content.email()
    message = EmailMultiAlternatives(subject, text, settings.DEFAULT_FROM_EMAIL, [address])
    message.attach_alternative(html, "text/html")
    try:
        message.send()
    except smtplib.SMTPAuthenticationError as error:
        # Trying a wrong password again only counts against the account at the mail server.
        raise NotConfigured(
            f"{settings.EMAIL_HOST} refused the login of EMAIL_HOST_USER {settings.EMAIL_HOST_USER!r}: "
            f"{error.smtp_code} {_quoted(_decoded(error.smtp_error))}"
        ) from None
    except smtplib.SMTPResponseException as error:
        raise ChannelError(
            f"{settings.EMAIL_HOST} answered {error.smtp_code} {_quoted(_decoded(error.smtp_error))}"
        ) from None


def _decoded(reply):
    return reply.decode("utf-8", "replace") if isinstance(reply, bytes) else str(reply)


@dataclass(frozen=True)
class Reply:
    status: int
    content_type: str
    body: bytes


def _post_json(url, payload, headers=None):
    """POST ``payload`` as JSON: the server's ``Reply`` whatever its HTTP status, a ``ChannelError``
    when none came."""
    request = urllib.request.Request(
        url,
        data=json.dumps(payload).encode("utf-8"),
        method="POST",
        headers={"Content-Type": "application/json", **(headers or {})},
    )
    timeout = settings.BESTIE_CHANNEL_TIMEOUT_SECONDS
    try:
        try:
            response = urllib.request.urlopen(request, timeout=timeout)
        except urllib.error.HTTPError as error:
            response = error  # a refusal is a reply too: a chat API says why in its body
        with response:
            return Reply(response.status, response.headers.get_content_type(), response.read())
    except TimeoutError:
        raise ChannelError(f"no answer from {_host(url)} within {timeout} s") from None
    except (urllib.error.URLError, OSError) as error:
        raise ChannelError(f"cannot reach {_host(url)}: {getattr(error, 'reason', error)}") from None


def _json_object(service, url, reply):
    """The JSON object a chat API answered; what came instead is its channel's failure."""
    try:
        answer = json.loads(reply.body)
    except ValueError:
        answer = None
    if not isinstance(answer, dict):
        raise ChannelError(
            f"{service} answered HTTP {reply.status} with {reply.content_type}, not a JSON object, from {_host(url)}"
        )
    return answer


def _host(url):
    """The host of a URL, for errors: a Telegram URL holds the bot token in its path."""
    return urllib.request.urlparse(url).netloc


def _quoted(text, limit=200):
    """What a server said, for an error: on one line, cut short, quoted with its control characters
    escaped (it is shown in the console, the job history and a terminal)."""
    return repr(_truncated(" ".join(str(text).split()), limit))


def _without_secrets(text):
    """A server may echo what it was sent (a URL's path holds the bot token): no error shows a token."""
    for secret in (
        settings.BESTIE_TELEGRAM_BOT_TOKEN,
        settings.BESTIE_ZALO_ACCESS_TOKEN,
        settings.EMAIL_HOST_PASSWORD,
    ):
        if secret:
            text = text.replace(secret, "[hidden]")
    return text


def _truncated(text, limit):
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _send_telegram(chat_id, message):
    if not settings.BESTIE_TELEGRAM_BOT_TOKEN:
        raise NotConfigured("BESTIE_TELEGRAM_BOT_TOKEN is not set")
    url = f"{settings.BESTIE_TELEGRAM_API_URL}/bot{settings.BESTIE_TELEGRAM_BOT_TOKEN}/sendMessage"
    reply = _post_json(url, {"chat_id": chat_id, "text": _truncated(message.text, TELEGRAM_TEXT_LIMIT)})
    answer = _json_object("Telegram", url, reply)
    if answer.get("ok") is not True:
        raise ChannelError(
            f"Telegram refused it (HTTP {reply.status}): {_quoted(answer.get('description', 'no reason given'))}"
        )


def _send_zalo(user_id, message):
    if not settings.BESTIE_ZALO_ACCESS_TOKEN:
        raise NotConfigured("BESTIE_ZALO_ACCESS_TOKEN is not set")
    url = f"{settings.BESTIE_ZALO_API_URL}/v3.0/oa/message/cs"
    reply = _post_json(
        url,
        {"recipient": {"user_id": user_id}, "message": {"text": _truncated(message.text, ZALO_TEXT_LIMIT)}},
        headers={"access_token": settings.BESTIE_ZALO_ACCESS_TOKEN},
    )
    answer = _json_object("Zalo", url, reply)
    # Zalo answers HTTP 200 with a non-zero ``error`` when it refuses a message; 0 is a success.
    if reply.status >= 300 or answer.get("error") != 0:
        raise ChannelError(
            f"Zalo refused it (HTTP {reply.status}): error {answer.get('error')} "
            f"{_quoted(answer.get('message', 'no reason given'))}"
        )


def _send_webhook(url, message):
    reply = _post_json(url, message.as_json())
    if reply.status >= 300:
        raise ChannelError(f"HTTP {reply.status} from {_host(url)}")


SENDERS = {
    DigestChannel.Kind.EMAIL: _send_email,
    DigestChannel.Kind.TELEGRAM: _send_telegram,
    DigestChannel.Kind.ZALO: _send_zalo,
    DigestChannel.Kind.WEBHOOK: _send_webhook,
}


def deliver(channel, message, attempts=None):
    """Send ``message`` (the digest, a test) to one channel, tried ``attempts`` times (by default
    ``BESTIE_CHANNEL_ATTEMPTS``) with backoff; never raises. A target that is not one for its kind
    (stored before targets were checked) fails at once: nothing can deliver there."""
    invalid = target_error(channel.kind, channel.target)
    if invalid:
        return Delivery(str(channel), ok=False, attempts=0, error=invalid)
    attempts = attempts or settings.BESTIE_CHANNEL_ATTEMPTS
    pause = settings.BESTIE_CHANNEL_BACKOFF_MS / 1000
    error = ""
    for attempt in range(1, attempts + 1):
        try:
            SENDERS[channel.kind](channel.target, message)
            return Delivery(str(channel), ok=True, attempts=attempt)
        except NotConfigured as failure:
            return Delivery(str(channel), ok=False, attempts=attempt, error=_without_secrets(str(failure)))
        except Exception as failure:  # noqa: BLE001  (one channel's failure, whatever it is, must not stop the others)
            error = str(failure) if isinstance(failure, ChannelError) else f"{type(failure).__name__}: {failure}"
            error = _without_secrets(error)
        if attempt < attempts:
            time.sleep(pause * 2 ** (attempt - 1))
    return Delivery(str(channel), ok=False, attempts=attempts, error=error)


def send_test(channel, now=None):
    """A short test message to ``channel`` through its real sender, tried once: the owner sees at once
    whether it works, and why not."""
    message = TestMessage(channel=str(channel), sent_at=iso(now or timezone.now()), url=console_url("/channels/"))
    return deliver(channel, message, attempts=1)


def _as_recorded(channel):
    """A channel as the history keeps it: a webhook by its scheme and host only, since the rest of its URL
    often holds the receiver's secret (a chat's incoming-webhook key)."""
    if channel.kind != DigestChannel.Kind.WEBHOOK:
        return str(channel)
    parts = urllib.request.urlparse(channel.target)
    return f"{channel.kind}:{parts.scheme}://{parts.netloc}/…"


def _record(actor, changes):
    """Where digests go is the owner's to decide: every change is in the history, like a policy's, one
    event each ``(old, new)`` channel (None for an added or a removed one), in one statement."""
    record_many(
        audit_event(
            AuditEvent.Event.POLICY,
            None,
            actor,
            old=None if old is None else {"digest channel": _as_recorded(old)},
            new=None if new is None else {"digest channel": _as_recorded(new)},
        )
        for old, new in changes
    )


@transaction.atomic
def install(specs, *, actor):
    """Add the channels ``KIND:TARGET`` (all checked before any is stored); returns the ones added."""
    parsed = [parse_channel(spec) for spec in specs]
    if not parsed:
        raise InvalidValue("channel", "give at least one --channel KIND:TARGET")
    added = [
        channel
        for channel, created in (
            DigestChannel.objects.get_or_create(kind=kind, target=target) for kind, target in parsed
        )
        if created
    ]
    _record(actor, [(None, channel) for channel in added])
    return added


@transaction.atomic
def add(kind, target, *, actor):
    """Install the channel of ``kind`` to ``target`` (checked); refused when it is installed already."""
    kind, target = _checked(kind, target)
    channel, created = DigestChannel.objects.get_or_create(kind=kind, target=target)
    if not created:
        raise InvalidValue("target", _("%(channel)s is installed already") % {"channel": channel})
    _record(actor, [(None, channel)])
    return channel


@transaction.atomic
def change(channel_id, kind, target, *, actor):
    """Point the channel ``channel_id`` at another kind and target (checked); the others stay."""
    channel = DigestChannel.objects.select_for_update().filter(pk=clean_id(channel_id)).first()
    if channel is None:
        raise NotFound(_("no channel with id %(id)s") % {"id": channel_id})
    kind, target = _checked(kind, target)
    before = DigestChannel(kind=channel.kind, target=channel.target)
    channel.kind, channel.target = kind, target
    try:
        with transaction.atomic():
            channel.save(update_fields=["kind", "target"])
    except IntegrityError:
        raise InvalidValue("target", _("%(channel)s is installed already") % {"channel": channel}) from None
    if str(before) != str(channel):
        _record(actor, [(before, channel)])
    return channel


@transaction.atomic
def remove(specs=(), *, actor):
    """Remove these channels, or every channel when none is given; returns how many were removed. A
    channel is named as it is installed, whatever its target: a bad one can be removed too."""
    # A handful of channels: all read at once.
    installed = {(channel.kind, channel.target): channel for channel in DigestChannel.objects.all()}
    if specs:
        parsed = list(dict.fromkeys(_split(spec) for spec in specs))
        missing = [f"{k}:{t}" for k, t in parsed if (k, t) not in installed]
        if missing:
            raise InvalidValue("channel", f"not installed: {', '.join(missing)}")
        doomed = [installed[spec] for spec in parsed]
    else:
        doomed = list(installed.values())
    _record(actor, [(channel, None) for channel in doomed])
    return DigestChannel.objects.filter(pk__in=[channel.pk for channel in doomed]).delete()[0]
