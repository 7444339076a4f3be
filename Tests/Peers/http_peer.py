#!/usr/bin/env python3
"""Loopback HTTP peer for URLSessionHTTPTransport tests.

Binds 127.0.0.1 port 0, prints the port on stdout, then serves:
  GET  /hello     200 text body, echoes the request's x-probe header as x-echo
  GET  /redirect  302 Location: /hello (must come back unfollowed)
  POST /echo      200 with the request body, content type and method echoed
  GET  /slow      prints "slow" on stdout, then waits 60 s before answering (timeouts and
                  cancellation)
  GET  /status/N  status N with an empty body
  GET  /chunked   200 chunked "hello, world" in three chunks (with an extension and a trailer)
  GET  /trickle   200 content-length 1000, one byte every 0.1 s (a deadline must cut it off)
  GET  /endless   200 chunked, 64 KiB chunks for ever (a size cap must cut it off)
  GET  /unframed  200 without content-length, body ends when the server closes
  GET  /hundred-mb  200 content-length 100 MB, sent for as long as the client reads; then
                  prints "hundred-mb sent N" (the body bytes written before the client left)
  GET  /close-after  200 "bye" (framed), then the server closes without saying so
  GET  /arm-drop  200 "armed"; the next request on this connection is dropped unanswered
  GET  /dropped   200 with how many requests were dropped so far
Every answer carries X-Peer-Port (the client's port: equal ports mean one connection) and
X-Connection (the request's Connection header).
"""
import http.server
import sys
import threading
import time

dropped = 0
dropped_lock = threading.Lock()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def dropping(self):
        """True (and the connection closed unanswered) when /arm-drop armed this connection."""
        global dropped
        if not getattr(self, "drop_next", False):
            return False
        with dropped_lock:
            dropped += 1
        self.close_connection = True
        return True

    def reply(self, status, body=b"", headers=()):
        self.send_response(status)
        self.send_header("X-Peer-Port", str(self.client_address[1]))
        self.send_header("X-Connection", self.headers.get("Connection", ""))
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        if self.dropping():
            return
        if self.path == "/hundred-mb":
            self.send_response(200)
            self.send_header("Content-Length", str(100 << 20))
            self.end_headers()
            chunk = b"z" * 65536
            sent = 0
            try:
                for _ in range((100 << 20) // 65536):
                    self.wfile.write(chunk)
                    sent += len(chunk)
            except (BrokenPipeError, ConnectionResetError):
                pass
            print(f"hundred-mb sent {sent}", flush=True)  # how much the client let through
            self.close_connection = True
        elif self.path == "/close-after":
            self.reply(200, b"bye")
            self.close_connection = True
        elif self.path == "/arm-drop":
            self.reply(200, b"armed")
            self.drop_next = True
        elif self.path == "/dropped":
            with dropped_lock:
                count = dropped
            self.reply(200, str(count).encode())
        elif self.path == "/hello":
            self.reply(200, b"hello", [("Content-Type", "text/plain"),
                                       ("X-Echo", self.headers.get("X-Probe", ""))])
        elif self.path == "/redirect":
            self.reply(302, b"", [("Location", "/hello")])
        elif self.path == "/slow":
            print("slow", flush=True)  # the test's gate: the request is being answered
            time.sleep(60)
            self.reply(200, b"late")
        elif self.path == "/after-two-seconds":
            time.sleep(2)  # a server that waits on someone else before it answers
            self.reply(200, b"waited")
        elif self.path == "/chunked":
            self.send_response(200)
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            self.wfile.write(b"5;ext=1\r\nhello\r\n2\r\n, \r\n5\r\nworld\r\n0\r\nX-T: 1\r\n\r\n")
        elif self.path == "/trickle":
            self.send_response(200)
            self.send_header("Content-Length", "1000")
            self.end_headers()
            try:
                for _ in range(1000):
                    self.wfile.write(b"x")
                    self.wfile.flush()
                    time.sleep(0.1)
            except (BrokenPipeError, ConnectionResetError):
                pass
        elif self.path == "/endless":
            self.send_response(200)
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            chunk = b"10000\r\n" + b"y" * 65536 + b"\r\n"
            try:
                while True:
                    self.wfile.write(chunk)
            except (BrokenPipeError, ConnectionResetError):
                pass
        elif self.path == "/unframed":
            self.send_response(200)
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(b"until close")
            self.close_connection = True
        elif self.path.startswith("/status/"):
            self.reply(int(self.path.split("/")[2]))
        else:
            self.reply(404)

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length)
        if self.dropping():
            return
        self.reply(200, body, [("X-Method", self.command),
                               ("X-Content-Type", self.headers.get("Content-Type", ""))])


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print(server.server_address[1], flush=True)
try:
    server.serve_forever()
except KeyboardInterrupt:
    sys.exit(0)
