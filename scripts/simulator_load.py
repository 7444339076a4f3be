#!/usr/bin/env python3
"""Measures serverbee-simulator throughput and per-client cost; used by scripts/simulator-load.sh.

REST: authenticated GET /api/servers over N keep-alive connections, as threads (the default) or
as processes (--processes; Python's lock caps threads at about one core, which large bodies
reach first). WebSocket: N subscribed clients; with --pid, the simulator's RSS, threads and
descriptors (from /proc) before the clients connect and once they are all subscribed, and the
difference per client.
"""
import argparse
import asyncio
import http.client
import json
import multiprocessing
import os
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


def rest_worker(base, token, deadline, results):
    """One keep-alive connection until `deadline`; appends (ok, errors, bytes) to `results`."""
    parts = urllib.parse.urlsplit(base)
    connection = http.client.HTTPConnection(parts.hostname, parts.port)
    headers = {"Authorization": "Bearer " + token}
    ok = errors = size = 0
    while time.monotonic() < deadline:
        connection.request("GET", "/api/servers", headers=headers)
        response = connection.getresponse()
        body = response.read()
        if response.status == 200:
            ok += 1
            size = len(body)
        else:
            errors += 1
    results.put((ok, errors, size))


def http_load(base, token, seconds, connections, processes):
    started = time.monotonic()
    deadline = started + seconds
    if processes:
        results = multiprocessing.Queue()
        workers = [multiprocessing.Process(target=rest_worker, args=(base, token, deadline, results))
                   for _ in range(connections)]
    else:
        import queue
        results = queue.Queue()
        workers = [threading.Thread(target=rest_worker, args=(base, token, deadline, results))
                   for _ in range(connections)]
    for w in workers:
        w.start()
    totals = [results.get() for _ in workers]
    for w in workers:
        w.join()
    elapsed = time.monotonic() - started
    total = sum(t[0] for t in totals)
    size = max(t[2] for t in totals)
    kind = "processes" if processes else "threads"
    print(f"HTTP: {total} authenticated GET /api/servers ({size} bytes each) in {elapsed:.1f} s "
          f"over {connections} keep-alive connections ({kind}) = {total / elapsed:.0f} "
          f"requests/s ({sum(t[1] for t in totals)} non-200)")


def proc_figures(pid):
    """(RSS KiB, threads, open descriptors) of process `pid`, from /proc."""
    rss = threads = 0
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1])
            elif line.startswith("Threads:"):
                threads = int(line.split()[1])
    return rss, threads, len(os.listdir(f"/proc/{pid}/fd"))


async def ws_load(base, token, clients, seconds, pid, updates_per_second):
    url = base.replace("http", "ws", 1) + "/api/ws/servers"
    received = [0] * clients
    connected = [False] * clients
    subscribed = asyncio.Event()
    pending = [clients]
    before = proc_figures(pid) if pid else None

    async def client(index):
        try:
            async with websockets.connect(
                    url, additional_headers={"Authorization": "Bearer " + token},
                    open_timeout=30, max_size=None) as ws:
                connected[index] = True
                first = json.loads(await ws.recv())
                assert first["type"] == "full_sync"
                pending[0] -= 1
                if pending[0] == 0:
                    subscribed.set()
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
            pending[0] -= 1
            if pending[0] == 0:
                subscribed.set()

    async def sample():
        await subscribed.wait()
        await asyncio.sleep(min(2, seconds / 2))  # let the full_sync buffers settle
        return proc_figures(pid) if pid else None

    results = await asyncio.gather(sample(), *(client(i) for i in range(clients)))
    expected = seconds * updates_per_second
    sustained = sum(1 for count in received if count >= expected * 0.8)
    print(f"WebSocket: {sum(connected)}/{clients} connected; {sustained} received >= 80% of "
          f"the ~{expected:.0f} expected updates in {seconds} s (min {min(received)}, "
          f"max {max(received)}, total {sum(received)})")
    after = results[0]
    if before and after:
        n = max(sum(connected), 1)
        print(f"simulator before: RSS {before[0]} KiB, {before[1]} threads, {before[2]} fds; "
              f"with {sum(connected)} clients: RSS {after[0]} KiB, {after[1]} threads, "
              f"{after[2]} fds; per client: {(after[0] - before[0]) / n:.0f} KiB, "
              f"{(after[1] - before[1]) / n:.2f} threads, {(after[2] - before[2]) / n:.2f} fds")


async def sync_latency(base, token, count):
    """Median time from opening a WebSocket to its `full_sync` frame, over `count` sessions."""
    url = base.replace("http", "ws", 1) + "/api/ws/servers"
    samples = []
    size = 0
    for _ in range(count):
        started = time.perf_counter()
        async with websockets.connect(url, additional_headers={"Authorization": "Bearer " + token},
                                      open_timeout=30, max_size=None) as ws:
            frame = await ws.recv()
            samples.append(time.perf_counter() - started)
            size = len(frame)
    samples.sort()
    print(f"full_sync: connect to frame ({size} bytes) median {samples[len(samples) // 2] * 1000:.1f} ms, "
          f"min {samples[0] * 1000:.1f} ms over {count} sessions")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("username")
    parser.add_argument("password")
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--threads", type=int, default=8, help="REST connections")
    parser.add_argument("--processes", action="store_true",
                        help="one process per REST connection instead of a thread")
    parser.add_argument("--clients", type=int, default=100, help="WebSocket clients")
    parser.add_argument("--only", choices=["rest", "ws", "sync"],
                        help="run one part only (sync: full_sync latency, 20 sessions)")
    parser.add_argument("--pid", type=int, help="the simulator's pid, for /proc figures")
    parser.add_argument("--updates-per-second", type=float, default=1.0,
                        help="the frames a client should get per second (servers / interval)")
    args = parser.parse_args()
    token = login(args.url, args.username, args.password)
    if args.only == "sync":
        asyncio.run(sync_latency(args.url, token, 20))
        return
    if args.only != "ws":
        http_load(args.url, token, args.seconds, args.threads, args.processes)
    if args.only != "rest":
        asyncio.run(ws_load(args.url, token, args.clients, args.seconds, args.pid,
                            args.updates_per_second))


if __name__ == "__main__":
    main()
