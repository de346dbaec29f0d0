"""Files the owner uploads to import, held between the preview (a dry run) and the import itself.

An upload is written to ``VAR_DIR/uploads`` readable by the owner only, under a random name that is
its token, and removed when it is imported, when the owner cancels, or an hour after it was uploaded
(every visit to the import page sweeps the older ones): it may hold what the import refuses, secrets
included, so it is never kept longer than the owner needs to decide.
"""

import os
import re
import secrets
import time
from pathlib import Path

from django.conf import settings
from django.utils.translation import gettext as _

from memories.lifecycle import InvalidValue

KEEP_SECONDS = 3600
# What the console takes; a bigger file is imported with `bestie memory import`, which streams it.
MAX_BYTES = 64 * 1024 * 1024
_TOKEN = re.compile(r"[A-Za-z0-9_-]{32}")
_CHUNK = 1024 * 1024


def _directory():
    directory = Path(settings.VAR_DIR) / "uploads"
    directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    return directory


def hold(uploaded):
    """Keep ``uploaded`` (a Django ``UploadedFile``) and return its token. Raises ``InvalidValue`` for a
    file over ``MAX_BYTES``."""
    if uploaded.size > MAX_BYTES:
        raise InvalidValue(
            "file",
            _("is %(size)s MB; the console takes files up to %(limit)s MB (`bestie memory import` takes any size)")
            % {"size": uploaded.size // (1024 * 1024), "limit": MAX_BYTES // (1024 * 1024)},
        )
    sweep()
    token = secrets.token_urlsafe(24)
    descriptor = os.open(_directory() / token, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "wb") as held_file:
        for chunk in uploaded.chunks(_CHUNK):
            held_file.write(chunk)
    return token


def path_of(token):
    """The held file of ``token``. Raises ``InvalidValue`` when there is none (imported, cancelled or
    older than an hour)."""
    if not isinstance(token, str) or not _TOKEN.fullmatch(token):
        raise InvalidValue("upload", _("is not one this console made"))
    path = _directory() / token
    if not path.is_file():
        raise InvalidValue("upload", _("is gone (imported, cancelled, or uploaded over an hour ago): upload it again"))
    return path


def release(token):
    """Remove the held file of ``token``, if it is still there."""
    try:
        path_of(token).unlink(missing_ok=True)
    except InvalidValue:
        pass


def sweep():
    """Remove the uploads held longer than ``KEEP_SECONDS``."""
    oldest = time.time() - KEEP_SECONDS
    for path in _directory().iterdir():
        try:
            if path.stat().st_mtime < oldest:
                path.unlink(missing_ok=True)
        except FileNotFoundError:
            pass
