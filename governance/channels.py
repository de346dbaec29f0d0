"""Where digests go: email (Django's mail backends), Telegram, Zalo and any webhook (SPEC §6).

Each channel is tried a few times with a growing pause (``BESTIE_CHANNEL_ATTEMPTS``,
``BESTIE_CHANNEL_BACKOFF_MS``), each attempt bounded by ``BESTIE_CHANNEL_TIMEOUT_SECONDS``; a channel
that still fails is reported and the others are sent all the same.
"""

import json
import re
import time
import urllib.error
import urllib.request
from dataclasses import dataclass

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.mail import EmailMultiAlternatives
from django.core.validators import URLValidator, validate_email
from django.db import transaction
from django.template.loader import render_to_string

from governance.models import DigestChannel
from memories.lifecycle import InvalidValue

TELEGRAM_TEXT_LIMIT = 4096
ZALO_TEXT_LIMIT = 2000
_TELEGRAM_CHAT = re.compile(r"-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{4,31}")
_ZALO_USER = re.compile(r"\d{1,30}")


def parse_channel(value):
    """``KIND:TARGET`` as (kind, target), with the target's shape checked for its kind."""
    kind, separator, target = (value or "").partition(":")
    kind, target = kind.strip().lower(), target.strip()
    if not separator or kind not in DigestChannel.Kind.values:
        raise InvalidValue(
            "channel",
            f"must be KIND:TARGET with KIND one of {', '.join(DigestChannel.Kind.values)} "
            f"(email:you@example.com, telegram:123456789, zalo:8412345678901, webhook:https://…), not {value!r}",
        )
    problem = None
    if kind == DigestChannel.Kind.EMAIL:
        try:
            validate_email(target)
        except ValidationError:
            problem = "an email address like you@example.com"
    elif kind == DigestChannel.Kind.TELEGRAM and not _TELEGRAM_CHAT.fullmatch(target):
        problem = "a numeric chat id like 123456789 (or -100… for a group) or a @channelname"
    elif kind == DigestChannel.Kind.ZALO and not _ZALO_USER.fullmatch(target):
        problem = "the numeric user id the Official Account sees, like 8412345678901"
    elif kind == DigestChannel.Kind.WEBHOOK:
        try:
            URLValidator(schemes=["http", "https"])(target)
        except ValidationError:
            problem = "an http:// or https:// URL"
    if problem:
        raise InvalidValue("channel", f"a {kind} target must be {problem}, not {target!r}")
    return kind, target


@dataclass(frozen=True)
class Delivery:
    channel: str
    ok: bool
    attempts: int
    error: str = ""


class ChannelError(Exception):
    pass


class NotConfigured(ChannelError):
    """A missing token: trying again cannot help."""


def render_email(name, context):
    """The (subject, text body, HTML body) of ``templates/emails/<name>-{subject,body}.{txt,html}``."""
    subject = " ".join(render_to_string(f"emails/{name}-subject.txt", context).split())
    return (
        subject,
        render_to_string(f"emails/{name}-body.txt", context),
        render_to_string(f"emails/{name}-body.html", context),
    )


def _send_email(address, digest):
    subject, text, html = render_email("digest", {"digest": digest})
    message = EmailMultiAlternatives(subject, text, settings.DEFAULT_FROM_EMAIL, [address])
    message.attach_alternative(html, "text/html")
    message.send()


def _post_json(url, payload, headers=None):
    request = urllib.request.Request(
        url,
        data=json.dumps(payload).encode("utf-8"),
        method="POST",
        headers={"Content-Type": "application/json", **(headers or {})},
    )
    try:
        with urllib.request.urlopen(request, timeout=settings.BESTIE_CHANNEL_TIMEOUT_SECONDS) as response:
            body = response.read()
    except urllib.error.HTTPError as error:
        raise ChannelError(f"HTTP {error.code} from {_host(url)}") from None
    except (urllib.error.URLError, OSError) as error:
        raise ChannelError(f"cannot reach {_host(url)}: {getattr(error, 'reason', error)}") from None
    try:
        return json.loads(body) if body else {}
    except ValueError:
        return {}


def _host(url):
    """The host of a URL, for errors: a Telegram URL holds the bot token in its path."""
    return urllib.request.urlparse(url).netloc


def _truncated(text, limit):
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _send_telegram(chat_id, digest):
    if not settings.BESTIE_TELEGRAM_BOT_TOKEN:
        raise NotConfigured("BESTIE_TELEGRAM_BOT_TOKEN is not set")
    url = f"{settings.BESTIE_TELEGRAM_API_URL}/bot{settings.BESTIE_TELEGRAM_BOT_TOKEN}/sendMessage"
    answer = _post_json(url, {"chat_id": chat_id, "text": _truncated(digest.text, TELEGRAM_TEXT_LIMIT)})
    if answer.get("ok") is False:
        raise ChannelError(f"Telegram refused it: {answer.get('description', 'no reason given')}")


def _send_zalo(user_id, digest):
    if not settings.BESTIE_ZALO_ACCESS_TOKEN:
        raise NotConfigured("BESTIE_ZALO_ACCESS_TOKEN is not set")
    answer = _post_json(
        f"{settings.BESTIE_ZALO_API_URL}/v3.0/oa/message/cs",
        {"recipient": {"user_id": user_id}, "message": {"text": _truncated(digest.text, ZALO_TEXT_LIMIT)}},
        headers={"access_token": settings.BESTIE_ZALO_ACCESS_TOKEN},
    )
    # Zalo answers HTTP 200 with a non-zero ``error`` when it refuses a message.
    if answer.get("error", 0) != 0:
        raise ChannelError(f"Zalo refused it: error {answer.get('error')} {answer.get('message', '')}".strip())


def _send_webhook(url, digest):
    _post_json(url, digest.as_json())


SENDERS = {
    DigestChannel.Kind.EMAIL: _send_email,
    DigestChannel.Kind.TELEGRAM: _send_telegram,
    DigestChannel.Kind.ZALO: _send_zalo,
    DigestChannel.Kind.WEBHOOK: _send_webhook,
}


def deliver(channel, digest):
    """Send ``digest`` to one channel, retrying with backoff; never raises."""
    attempts, pause = settings.BESTIE_CHANNEL_ATTEMPTS, settings.BESTIE_CHANNEL_BACKOFF_MS / 1000
    error = ""
    for attempt in range(1, attempts + 1):
        try:
            SENDERS[channel.kind](channel.target, digest)
            return Delivery(str(channel), ok=True, attempts=attempt)
        except NotConfigured as failure:
            return Delivery(str(channel), ok=False, attempts=attempt, error=str(failure))
        except Exception as failure:  # noqa: BLE001  (one channel's failure, whatever it is, must not stop the others)
            error = str(failure) if isinstance(failure, ChannelError) else f"{type(failure).__name__}: {failure}"
        if attempt < attempts:
            time.sleep(pause * 2 ** (attempt - 1))
    return Delivery(str(channel), ok=False, attempts=attempts, error=error)


@transaction.atomic
def install(specs):
    """Add the channels ``KIND:TARGET`` (all checked before any is stored); returns the ones added."""
    parsed = [parse_channel(spec) for spec in specs]
    if not parsed:
        raise InvalidValue("channel", "give at least one --channel KIND:TARGET")
    return [
        channel
        for channel, created in (
            DigestChannel.objects.get_or_create(kind=kind, target=target) for kind, target in parsed
        )
        if created
    ]


@transaction.atomic
def remove(specs=()):
    """Remove these channels, or every channel when none is given; returns how many were removed."""
    if not specs:
        return DigestChannel.objects.all().delete()[0]
    parsed = [parse_channel(spec) for spec in specs]
    missing = [f"{k}:{t}" for k, t in parsed if not DigestChannel.objects.filter(kind=k, target=t).exists()]
    if missing:
        raise InvalidValue("channel", f"not installed: {', '.join(missing)}")
    return sum(DigestChannel.objects.filter(kind=k, target=t).delete()[0] for k, t in parsed)
