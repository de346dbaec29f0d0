"""Where the console listens (``BESTIE_HOST``, ``BESTIE_PORT``) and the address a browser opens it at.

Plain functions of the environment, without Django: ``settings`` builds ``BESTIE_BASE_URL``'s default with
them, ``serve`` listens where they say and ``ensure_owner`` prints the address.
"""

import os

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
# A server listening on every interface is opened in a browser on this machine's loopback.
_EVERY_INTERFACE = {"0.0.0.0", "::"}


def listen_address(environ=None):
    """(host, port) from ``BESTIE_HOST`` and ``BESTIE_PORT``; ValueError naming the variable when the
    port is not one."""
    environ = os.environ if environ is None else environ
    host = environ.get("BESTIE_HOST") or DEFAULT_HOST
    port = environ.get("BESTIE_PORT") or str(DEFAULT_PORT)
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"BESTIE_PORT must be a port number, not {port!r}")
    return host, int(port)


def console_url(path="/", environ=None):
    """The address of the console ``serve`` runs, as a browser on this machine opens it."""
    host, port = listen_address(environ)
    if host in _EVERY_INTERFACE:
        host = DEFAULT_HOST
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}{path}"
