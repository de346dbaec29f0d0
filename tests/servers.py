"""A real HTTP server on 127.0.0.1 for the outbound calls under test (chat APIs, webhooks, a model)."""

import json
import threading
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class _JSONHandler(BaseHTTPRequestHandler):
    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.server.requests.append((self.path, self.headers, body))
        if self.server.fails(self):
            self.send_response(500)
            self.end_headers()
            return
        payload = json.dumps(self.server.answer(self.path)).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args):
        pass


@contextmanager
def json_server(answer, fails=lambda server, path: False):
    """Serve POSTs with ``answer(path)`` as JSON, or a 500 when ``fails(server, path)``; each request is
    kept in ``server.requests`` as (path, headers, parsed body). ``server.base`` is its URL."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _JSONHandler)
    server.requests = []
    server.answer = answer
    server.fails = lambda handler: fails(server, handler.path)
    server.base = f"http://127.0.0.1:{server.server_address[1]}"
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
