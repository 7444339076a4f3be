#!/usr/bin/env python3
"""WebSocket client peer (Python `websockets`) for our server side's interop tests.

Usage: ws_client_peer.py URL SCENARIO [--no-compression | --no-context-takeover]
--no-context-takeover offers permessage-deflate with server_no_context_takeover,
client_no_context_takeover, server_max_window_bits=10 and client_max_window_bits=12.
Prints one result line per check and "ok" at the end; exits 1 on the first failure.
  echo          text, 1.5 MiB binary, fragmented text and ping, each echoed back; then closes 1000 "bye"
  server-close  waits for the server's close and prints "closed <code> <reason>"
No step has a short deadline: on a loaded machine the test process may answer the
handshake, a ping or the close many seconds late, which `websockets`' defaults (10 s to open,
10 s to close, a keep-alive ping every 20 s failing after 20 s more) turned into dropped
connections. Each wait is bounded by PATIENCE instead, which only a broken test reaches, and
the keep-alive is off (the echo scenario pings on purpose).
"""
import asyncio
import sys

import websockets

# Seconds any one step may take before the peer gives up: a broken test, never a slow machine.
# The same as PeerProcess.patience on the Swift side.
PATIENCE = 120

try:
    from websockets.asyncio.client import connect
except ImportError:  # websockets < 13: legacy API only
    connect = websockets.connect


def close_info(ws):
    # websockets >= 10 exposes close_code/close_reason on both APIs (deprecated on the new one).
    rcvd = getattr(ws, "close_rcvd", None)
    if rcvd is not None:
        return rcvd.code, rcvd.reason
    return ws.close_code, ws.close_reason


def response_extensions(ws):
    response = getattr(ws, "response", None)
    headers = response.headers if response is not None else ws.response_headers
    return headers.get("Sec-WebSocket-Extensions")


async def main():
    url, scenario = sys.argv[1], sys.argv[2]
    compression = None if "--no-compression" in sys.argv else "deflate"
    options = dict(compression=compression, max_size=None, open_timeout=PATIENCE,
                   close_timeout=PATIENCE, ping_interval=None)
    if "--no-context-takeover" in sys.argv:
        from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory
        options["compression"] = None
        options["extensions"] = [ClientPerMessageDeflateFactory(
            server_no_context_takeover=True, client_no_context_takeover=True,
            server_max_window_bits=10, client_max_window_bits=12)]
    async with connect(url, **options) as ws:
        if scenario == "echo" and "--no-context-takeover" in sys.argv:
            print("extensions " + str(response_extensions(ws)), flush=True)
        if scenario == "echo":
            await ws.send("hello")
            assert await ws.recv() == "hello", "text echo"
            print("text ok", flush=True)
            blob = bytes((i * 7) % 256 for i in range(1536 * 1024))
            await ws.send(blob)
            assert await ws.recv() == blob, "binary echo"
            print("binary ok", flush=True)
            await ws.send(["frag", "mented ", "tëxt"])
            assert await ws.recv() == "fragmented tëxt", "fragmented echo"
            print("fragmented ok", flush=True)
            pong = await ws.ping(b"abc")
            await asyncio.wait_for(pong, PATIENCE)
            print("ping ok", flush=True)
            await ws.close(1000, "bye")
        elif scenario == "server-close":
            try:
                while True:
                    print("message " + str(await ws.recv()), flush=True)
            except websockets.ConnectionClosed:
                pass
            code, reason = close_info(ws)
            print(f"closed {code} {reason}", flush=True)
    print("ok", flush=True)


try:
    asyncio.run(main())
except Exception as error:  # report, then fail
    print(f"failed: {type(error).__name__}: {error}", flush=True)
    sys.exit(1)
