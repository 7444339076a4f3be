#!/usr/bin/env python3
"""WebSocket server peer (Python `websockets`, legacy or new API) for our client's interop tests.

Usage: ws_server_peer.py [--no-compression | --no-context-takeover] [--tls CERT KEY]
--no-context-takeover answers permessage-deflate with server_no_context_takeover,
client_no_context_takeover and server_max_window_bits=11.
Binds 127.0.0.1 port 0 and prints the port. Behaviour by request path:
  /echo        echoes every message
  /info        sends {"authorization": ..., "extensions": ...} then echoes
  /fragmented  sends a text message in 3 fragments and a 1.5 MiB binary message, then echoes
  /close-4001  closes at once with 4001 "token expired"
  /nopong      stops reading, so pings are never answered, and keeps the connection open
  /reject      answers HTTP 401 before the upgrade
Runs until the test ends it. No step has a short deadline: on a loaded machine the
test's client may send its handshake, answer a ping or close many seconds late, which
`websockets`' defaults (10 s to open, 10 s to close, a keep-alive ping every 20 s failing after
20 s more) turned into dropped connections. Each wait is bounded by PATIENCE instead, which only
a broken test reaches, and the keep-alive is off (the tests ping on purpose).
"""
import asyncio
import json
import ssl
import sys

import websockets

# Seconds any one step may take before the peer gives up: a broken test, never a slow machine.
# The same as PeerProcess.patience on the Swift side.
PATIENCE = 120

try:
    from websockets.asyncio.server import serve as new_serve
except ImportError:  # websockets < 13: legacy API only
    new_serve = None


def path_of(ws):
    request = getattr(ws, "request", None)
    return request.path if request is not None else ws.path


def request_headers(ws):
    request = getattr(ws, "request", None)
    return request.headers if request is not None else ws.request_headers


def response_headers(ws):
    response = getattr(ws, "response", None)
    return response.headers if response is not None else ws.response_headers


async def echo(ws):
    async for message in ws:
        await ws.send(message)


async def handler(ws, *_):
    path = path_of(ws)
    if path == "/info":
        await ws.send(json.dumps({
            "authorization": request_headers(ws).get("Authorization"),
            "extensions": response_headers(ws).get("Sec-WebSocket-Extensions"),
        }))
        await echo(ws)
    elif path == "/fragmented":
        await ws.send(["frag", "mented ", "tëxt"])
        await ws.send(bytes(i % 251 for i in range(1536 * 1024)))
        await echo(ws)
    elif path == "/close-4001":
        await ws.close(4001, "token expired")
    elif path == "/nopong":
        ws.transport.pause_reading()
        await asyncio.Future()  # until the test ends us: a dead peer, however long it takes
    else:
        await echo(ws)


def new_process_request(connection, request):
    if request.path == "/reject":
        return connection.respond(401, "unauthorized\n")
    return None


async def legacy_process_request(path, headers):
    if path == "/reject":
        return (401, [("Content-Type", "text/plain")], b"unauthorized\n")
    return None


async def main():
    compression = None if "--no-compression" in sys.argv else "deflate"
    context = None
    if "--tls" in sys.argv:
        index = sys.argv.index("--tls")
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(sys.argv[index + 1], sys.argv[index + 2])
    options = dict(compression=compression, max_size=None, ssl=context, open_timeout=PATIENCE,
                   close_timeout=PATIENCE, ping_interval=None)
    if "--no-context-takeover" in sys.argv:
        from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory
        options["compression"] = None
        options["extensions"] = [ServerPerMessageDeflateFactory(
            server_no_context_takeover=True, client_no_context_takeover=True,
            server_max_window_bits=11)]
    if new_serve is not None:
        server = await new_serve(handler, "127.0.0.1", 0,
                                 process_request=new_process_request, **options)
    else:
        server = await websockets.serve(handler, "127.0.0.1", 0,
                                        process_request=legacy_process_request, **options)
    print(server.sockets[0].getsockname()[1], flush=True)
    await asyncio.Future()  # the test ends us when done, however long it takes


asyncio.run(main())
