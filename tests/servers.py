"""Real servers for what is under test: on 127.0.0.1 for the outbound calls (chat APIs, webhooks, a model),
one that answers HTTP and one that takes connections and never answers; and the job cluster."""

import json
import os
import signal
import socket
import subprocess
import sys
import threading
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


class _JSONHandler(BaseHTTPRequestHandler):
    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.server.requests.append((self.path, self.headers, body))
        if self.server.fails(self):
            self.send_response(500)
            self.end_headers()
            return
        answer = self.server.answer(self.path)
        status, answer = answer if isinstance(answer, tuple) else (200, answer)
        if isinstance(answer, bytes):
            payload, content_type = answer, "text/html; charset=utf-8"
        else:
            payload, content_type = json.dumps(answer).encode(), "application/json"
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args):
        pass


@contextmanager
def json_server(answer, fails=lambda server, path: False):
    """Serve POSTs with ``answer(path)``, or a 500 when ``fails(server, path)``. An answer is JSON with
    HTTP 200, or ``(status, answer)``; an answer of bytes is sent as they are, as HTML. Each request is
    kept in ``server.requests`` as (path, headers, parsed body). ``server.base`` is its URL."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _JSONHandler)
    server.requests = []
    server.answer = answer
    server.fails = lambda handler: fails(server, handler.path)
    server.base = f"http://127.0.0.1:{server.server_address[1]}"
    # Stopping waits for the serving loop's next look at its flag: every 50 ms, not the default 0.5 s.
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


@contextmanager
def silent_server():
    """The URL of a server that never answers: the connection is made (the kernel accepts it from the
    listening socket's backlog) and the request sent, and no reply ever comes."""
    with socket.create_server(("127.0.0.1", 0), backlog=16) as listener:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"


@contextmanager
def job_cluster(env, log_path):
    """``manage.py qcluster`` with ``env`` (``tests.factories.child_env``: this test's database), as
    ``bestie serve`` starts it, its output in ``log_path``; stopped after."""
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            [sys.executable, "manage.py", "qcluster"],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        yield process
    finally:
        # As ``bestie serve`` stops it: the cluster is asked, then whatever is left of its group is killed.
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
