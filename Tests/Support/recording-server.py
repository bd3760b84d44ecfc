#!/usr/bin/env python3
"""A small HTTP server the recording tests record from (Python 3, standard library only).

Usage: recording-server.py [MAX_REQUESTS] [LIFETIME_SECONDS] [PORT]

It binds 127.0.0.1 on PORT (default 0: a free port the system chooses), prints the port on its
first line of standard output, and serves until one of these happens, then exits:

- it has served MAX_REQUESTS requests (default 200);
- LIFETIME_SECONDS have passed (default 60);
- its standard input is closed (so a test run that crashes never leaves it behind);
- it is terminated.

Endpoints (every response carries `X-Server-Instance`, unique to this process, and `X-Served`,
the number of requests served so far):

    GET  /users/1       200 {"id":1,"name":"Ada","token":"s3cr3t-token"} + Set-Cookie: session=abc123
    GET  /counter       200 {"count": n}, n = 1, 2, 3, ... (per process)
    POST /echo          201 the request body, with the request's Content-Type (else
                        application/json); each request header X-Reply-<Name>: <value> is
                        answered as the response header <Name>: <value>
    GET  /image         200 a few binary bytes, image/png
    GET  /status/404    404 {"error":"not found"}
    GET  /redirect      302 Location: /users/1
    GET  /search?q=...  200 {"q": "<q>"} (other query parameters are ignored)
    GET  /slow          200 {"slow":true}, after 2 seconds
    anything else       404 {"error":"no such endpoint"}
"""

import json
import os
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

MAX_REQUESTS = int(sys.argv[1]) if len(sys.argv) > 1 else 200
LIFETIME_SECONDS = float(sys.argv[2]) if len(sys.argv) > 2 else 60.0
PORT = int(sys.argv[3]) if len(sys.argv) > 3 else 0
INSTANCE = uuid.uuid4().hex[:12]
# Not valid UTF-8 (0x89, 0xFF, 0xFE), so the body can only be kept as bytes.
IMAGE = bytes([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0xFF, 0xFE, 0x01, 0x80, 0x7F])

lock = threading.Lock()
served = 0
counter = 0


class Handler(BaseHTTPRequestHandler):
    """Serves the endpoints listed above; every response closes its connection."""

    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):  # noqa: A002 - the base class's signature
        pass

    def send(self, status, body, content_type="application/json", headers=()):
        """Sends a response with this body; shuts the server down after the last allowed one."""
        global served
        with lock:
            served += 1
            count = served
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("X-Server-Instance", INSTANCE)
        self.send_header("X-Served", str(count))
        self.send_header("Connection", "close")
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)
        self.wfile.flush()
        self.close_connection = True
        if count >= MAX_REQUESTS:
            threading.Thread(target=self.server.shutdown, daemon=True).start()

    def send_json(self, status, value, headers=()):
        """Sends `value` as compact JSON."""
        self.send(status, json.dumps(value, separators=(",", ":")).encode(), headers=headers)

    def do_GET(self):  # noqa: N802 - the base class's name
        global counter
        url = urlsplit(self.path)
        if url.path == "/users/1":
            self.send_json(200, {"id": 1, "name": "Ada", "token": "s3cr3t-token"},
                           headers=[("Set-Cookie", "session=abc123; Path=/")])
        elif url.path == "/counter":
            with lock:
                counter += 1
                value = counter
            self.send_json(200, {"count": value})
        elif url.path == "/image":
            self.send(200, IMAGE, content_type="image/png")
        elif url.path == "/status/404":
            self.send_json(404, {"error": "not found"})
        elif url.path == "/redirect":
            self.send(302, b"", content_type="text/plain", headers=[("Location", "/users/1")])
        elif url.path == "/slow":
            time.sleep(2)
            self.send_json(200, {"slow": True})
        elif url.path == "/search":
            query = parse_qs(url.query, keep_blank_values=True)
            self.send_json(200, {"q": query.get("q", [""])[0]})
        else:
            self.send_json(404, {"error": "no such endpoint"})

    def do_POST(self):  # noqa: N802 - the base class's name
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length > 0 else b""
        if urlsplit(self.path).path == "/echo":
            replies = [(name[len("X-Reply-"):], value) for name, value in self.headers.items()
                       if name.lower().startswith("x-reply-")]
            self.send(201, body, content_type=self.headers.get("Content-Type") or "application/json", headers=replies)
        else:
            self.send_json(404, {"error": "no such endpoint"})


def exit_when_stdin_closes():
    """Exits the process as soon as standard input reaches its end."""
    try:
        while sys.stdin.buffer.read(4096):
            pass
    finally:
        os._exit(0)


class Server(ThreadingHTTPServer):
    """A server handling each request on its own thread."""

    # Room for many parallel connections (the tests send 20 at once).
    request_queue_size = 128
    daemon_threads = True
    # A server restarted on the port of one that just stopped can bind it at once.
    allow_reuse_address = True


def main():
    """Binds, prints the port, and serves until a limit is reached."""
    server = Server(("127.0.0.1", PORT), Handler)
    sys.stdout.write(f"{server.server_address[1]}\n")
    sys.stdout.flush()
    threading.Thread(target=exit_when_stdin_closes, daemon=True).start()
    timer = threading.Timer(LIFETIME_SECONDS, lambda: os._exit(0))
    timer.daemon = True
    timer.start()
    try:
        server.serve_forever(poll_interval=0.05)
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
