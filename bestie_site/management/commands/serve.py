import os
import signal
import subprocess
import sys
import time

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from bestie_site import addresses

STOP_TIMEOUT_SECONDS = 15
ACCESS_LOG_FORMAT = '%(h)s %(t)s "%(m)s %(U)s %(H)s" %(s)s %(b)s %(L)ss "%(a)s"'


def listen_address():
    """Where the console listens: BESTIE_HOST and BESTIE_PORT, 127.0.0.1:8000 by default."""
    try:
        return addresses.listen_address()
    except ValueError as error:
        raise CommandError(str(error)) from None


def console_url(path="/"):
    listen_address()
    return addresses.console_url(path)


class Command(BaseCommand):
    help = "Run the web console (gunicorn) and the job cluster (django-q2) until Ctrl-C or SIGTERM."

    def handle(self, **options):
        host, port = listen_address()
        commands = {
            "web": [
                sys.executable,
                "-m",
                "gunicorn",
                "bestie_site.wsgi:application",
                "--bind",
                f"[{host}]:{port}" if ":" in host else f"{host}:{port}",
                "--workers",
                "2",
                "--threads",
                "4",
                "--graceful-timeout",
                "10",
                "--access-logfile",
                "-",
                # The path without its query string, and no referrer: searches reach both otherwise.
                "--access-logformat",
                ACCESS_LOG_FORMAT,
                "--no-control-socket",
            ],
            "jobs": [sys.executable, str(settings.BASE_DIR / "manage.py"), "qcluster"],
        }
        signal.signal(signal.SIGTERM, _raise_keyboard_interrupt)
        # Each child gets its own process group, so Ctrl-C reaches only this process, which then stops
        # the children in order and can sweep up any worker a child leaves behind.
        children = {
            name: subprocess.Popen(argv, cwd=settings.BASE_DIR, start_new_session=True)
            for name, argv in commands.items()
        }
        self.stdout.write(self.style.SUCCESS(f"Bestie Memory is running: open {console_url()}  (Ctrl-C stops it)"))
        try:
            while True:
                for name, child in children.items():
                    if child.poll() is not None:
                        raise CommandError(f"the {name} process exited with status {child.returncode}; stopping")
                time.sleep(0.5)
        except KeyboardInterrupt:
            self.stdout.write("Stopping the web console and the job cluster…")
        finally:
            _stop(children.values())
        self.stdout.write("Stopped.")


def _raise_keyboard_interrupt(signum, frame):
    raise KeyboardInterrupt


def _stop(children):
    """Ask every child to stop, give them time to finish, then kill whatever is left of their groups."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    for child in children:
        if child.poll() is None:
            child.terminate()
    deadline = time.monotonic() + STOP_TIMEOUT_SECONDS
    for child in children:
        try:
            child.wait(timeout=max(0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
        try:
            os.killpg(child.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
