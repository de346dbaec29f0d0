"""A real mail server on 127.0.0.1 (aiosmtpd) for the email channel, plain and as production has it:
STARTTLS with a private CA's certificate, then a login. Its fixtures (``smtp``, ``relay``,
``certificates``) reach every test file through ``pytest_plugins`` in ``conftest.py``."""

import socket
import ssl
import subprocess
from email import message_from_bytes
from email.policy import default as email_policy
from types import SimpleNamespace

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Inbox:
    def __init__(self):
        self.messages = []
        self.sessions = []  # how each message came: its TLS version (None without STARTTLS), its login

    async def handle_DATA(self, server, session, envelope):
        self.messages.append((envelope.rcpt_tos, message_from_bytes(envelope.content, policy=email_policy)))
        login = session.auth_data.login.decode() if session.authenticated else None
        self.sessions.append((session.ssl and session.ssl["cipher"][1], login))
        return "250 Message accepted for delivery"


@pytest.fixture
def smtp(settings):
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_USE_TLS = "127.0.0.1", controller.port, False
    settings.DEFAULT_FROM_EMAIL = "bestie@example.com"
    yield inbox
    controller.stop()


RELAY_LOGIN, RELAY_PASSWORD = "bestie@example.com", "relay password 7Qx!"
# A private CA and the certificate it signs for 127.0.0.1, as a mail relay inside a network has them.
OPENSSL_CONFIG = """
[req]
distinguished_name = name
prompt = no
[name]
CN = Bestie test
[ca]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
[server]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = IP:127.0.0.1, DNS:localhost
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
"""


@pytest.fixture(scope="session")
def certificates(tmp_path_factory):
    """The CA's certificate and the relay's certificate and key, made by openssl for this run."""
    folder = tmp_path_factory.mktemp("tls")
    (folder / "openssl.cnf").write_text(OPENSSL_CONFIG)
    new_key = ["-config", "openssl.cnf", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    for command in (
        ["req", "-x509", *new_key, "-extensions", "ca", "-days", "2", "-subj", "/CN=Bestie test CA"]
        + ["-keyout", "ca.key", "-out", "ca.pem"],
        ["req", "-new", *new_key, "-subj", "/CN=127.0.0.1", "-keyout", "relay.key", "-out", "relay.csr"],
        ["x509", "-req", "-in", "relay.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-set_serial", "2", "-days", "2"]
        + ["-extfile", "openssl.cnf", "-extensions", "server", "-out", "relay.pem"],
    ):
        subprocess.run(["openssl", *command], cwd=folder, check=True, capture_output=True)
    return SimpleNamespace(ca=folder / "ca.pem", certificate=folder / "relay.pem", key=folder / "relay.key")


class Accounts:
    """The relay's one account; every login tried is kept as (mechanism, login, over TLS)."""

    def __init__(self):
        self.tried = []

    def __call__(self, server, session, envelope, mechanism, auth_data):
        self.tried.append((mechanism, auth_data.login.decode(), session.ssl is not None))
        account = LoginPassword(RELAY_LOGIN.encode(), RELAY_PASSWORD.encode())
        return AuthResult(success=auth_data == account, handled=False, auth_data=auth_data)


@pytest.fixture
def relay(request, settings, certificates, monkeypatch):
    """A mail relay as production meets one: STARTTLS required, then a login (AUTH PLAIN and LOGIN, or
    only ``request.param``), and no mail without both. The client trusts the relay's private CA as a
    server would be told to: OpenSSL's ``SSL_CERT_FILE`` (docs/configuration.md, Mail)."""
    tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    tls.load_cert_chain(certificates.certificate, certificates.key)
    inbox, accounts = Inbox(), Accounts()
    mechanism = getattr(request, "param", None)
    controller = Controller(
        inbox,
        hostname="127.0.0.1",
        port=free_port(),
        tls_context=tls,
        require_starttls=True,
        authenticator=accounts,
        auth_required=True,
        auth_exclude_mechanism=[other for other in ("PLAIN", "LOGIN") if mechanism and other != mechanism],
    )
    controller.start()
    monkeypatch.setenv("SSL_CERT_FILE", str(certificates.ca))
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_USE_TLS = "127.0.0.1", controller.port, True
    settings.EMAIL_HOST_USER, settings.EMAIL_HOST_PASSWORD = RELAY_LOGIN, RELAY_PASSWORD
    settings.DEFAULT_FROM_EMAIL = "bestie@example.com"
    settings.BESTIE_CHANNEL_ATTEMPTS, settings.BESTIE_CHANNEL_BACKOFF_MS = 3, 10
    yield SimpleNamespace(inbox=inbox, logins=accounts.tried)
    controller.stop()
