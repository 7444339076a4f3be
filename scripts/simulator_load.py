#!/usr/bin/env python3
"""Measures serverbee-simulator throughput; used by scripts/simulator-load.sh."""
import argparse
import asyncio
import http.client
import json
import threading
import time
import urllib.parse

import websockets


def login(base, username, password):
    parts = urllib.parse.urlsplit(base)
    connection = http.client.HTTPConnection(parts.hostname, parts.port)
    body = json.dumps({"username": username, "password": password,
                       "installation_id": "load-test", "device_name": "load"})
    connection.request("POST", "/api/mobile/auth/login", body,
                       {"Content-Type": "application/json"})
    response = connection.getresponse()
    data = json.loads(response.read())
    return data["data"]["access_token"]


def http_load(base, token, seconds, threads):
    parts = urllib.parse.urlsplit(base)
    counts = [0] * threads
    errors = [0] * threads
    deadline = time.monotonic() + seconds

    def worker(index):
        connection = http.client.HTTPConnection(parts.hostname, parts.port)
        headers = {"Authorization": "Bearer " + token}
        while time.monotonic() < deadline:
            connection.request("GET", "/api/servers", headers=headers)
            response = connection.getresponse()
            response.read()
            if response.status == 200:
                counts[index] += 1
            else:
                errors[index] += 1

    started = time.monotonic()
    workers = [threading.Thread(target=worker, args=(i,)) for i in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    elapsed = time.monotonic() - started
    total = sum(counts)
    print(f"HTTP: {total} authenticated GET /api/servers in {elapsed:.1f} s over "
          f"{threads} keep-alive connections = {total / elapsed:.0f} requests/s "
          f"({sum(errors)} non-200)")


async def ws_load(base, token, clients, seconds):
    url = base.replace("http", "ws", 1) + "/api/ws/servers"
    received = [0] * clients
    connected = [False] * clients

    async def client(index):
        try:
            async with websockets.connect(
                    url, additional_headers={"Authorization": "Bearer " + token},
                    open_timeout=30) as ws:
                connected[index] = True
                first = json.loads(await ws.recv())
                assert first["type"] == "full_sync"
                end = time.monotonic() + seconds
                while True:
                    remaining = end - time.monotonic()
                    if remaining <= 0:
                        break
                    try:
                        message = json.loads(await asyncio.wait_for(ws.recv(), remaining))
                    except asyncio.TimeoutError:
                        break
                    if message["type"] == "update":
                        received[index] += 1
        except Exception as error:  # noqa: BLE001 - report, do not crash the run
            print(f"client {index}: {error!r}")

    await asyncio.gather(*(client(i) for i in range(clients)))
    expected = seconds  # one server, one update per second
    sustained = sum(1 for count in received if count >= expected * 0.8)
    print(f"WebSocket: {sum(connected)}/{clients} connected; {sustained} received >= 80% of "
          f"the ~{expected} expected updates in {seconds} s (min {min(received)}, "
          f"max {max(received)}, total {sum(received)})")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("username")
    parser.add_argument("password")
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--clients", type=int, default=100)
    args = parser.parse_args()
    token = login(args.url, args.username, args.password)
    http_load(args.url, token, args.seconds, args.threads)
    asyncio.run(ws_load(args.url, token, args.clients, args.seconds))


if __name__ == "__main__":
    main()
