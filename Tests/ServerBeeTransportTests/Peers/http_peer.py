#!/usr/bin/env python3
"""Loopback HTTP peer for URLSessionHTTPTransport tests.

Binds 127.0.0.1 port 0, prints the port on stdout, then serves:
  GET  /hello     200 text body, echoes the request's x-probe header as x-echo
  GET  /redirect  302 Location: /hello (must come back unfollowed)
  POST /echo      200 with the request body, content type and method echoed
  GET  /slow      waits 5 s before answering (timeouts and cancellation)
  GET  /status/N  status N with an empty body
"""
import http.server
import sys
import time


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def reply(self, status, body=b"", headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        if self.path == "/hello":
            self.reply(200, b"hello", [("Content-Type", "text/plain"),
                                       ("X-Echo", self.headers.get("X-Probe", ""))])
        elif self.path == "/redirect":
            self.reply(302, b"", [("Location", "/hello")])
        elif self.path == "/slow":
            time.sleep(5)
            self.reply(200, b"late")
        elif self.path.startswith("/status/"):
            self.reply(int(self.path.split("/")[2]))
        else:
            self.reply(404)

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length)
        self.reply(200, body, [("X-Method", self.command),
                               ("X-Content-Type", self.headers.get("Content-Type", ""))])


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print(server.server_address[1], flush=True)
try:
    server.serve_forever()
except KeyboardInterrupt:
    sys.exit(0)
