#!/usr/bin/env python3
"""`serverbee push listen --duration S` under a flood of pushes, on loopback only.

Starts a `serverbee-relay` (local devices, rate limits lifted) and a `serverbee-simulator`,
signs a fresh home in, runs `/usr/bin/time -f '%e s %M KiB' serverbee push listen --relay …
--duration S --json` (stdout to /dev/null), waits until its device is online at the relay,
then sends COUNT `POST /v1/send` for that device from PROCESSES processes of WORKERS
keep-alive connections each until COUNT are sent or the listener has ended. Prints the
listener's wall time and peak RSS, and how many sends were accepted while it listened. Every process it starts is stopped before it returns
(each wait is bounded), and its temporary directory is removed. With --stdout-rate the
listener's output is read at that many bytes per second, as a slow terminal would, so its
consumer falls behind the relay.

  swift build --product serverbee --product serverbee-relay --product serverbee-simulator
  python3 Benchmarks/push-listen-flood/flood.py [--bin .build/debug] [--count 100000]
      [--duration 5] [--processes 2] [--workers 8] [--stdout-rate BYTES_PER_S]
"""

import argparse
import base64
import json
import multiprocessing
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
import urllib.request


def start_server(argv):
    """Starts a process that prints one JSON line {"url":…,"control_token":…}."""
    process = subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
        start_new_session=True)
    line = process.stdout.readline()
    if not line:
        stop(process)
        raise SystemExit(f"{argv[0]} printed no JSON line")
    announced = json.loads(line)
    return process, announced["url"], announced["control_token"]


def stop(process, grace=10):
    if process is None or process.poll() is not None:
        return
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=grace)
    except (subprocess.TimeoutExpired, ProcessLookupError):
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait()


def online_device(relay_url, token):
    request = urllib.request.Request(relay_url + "/__relay/devices", headers={"X-Relay-Token": token})
    with urllib.request.urlopen(request, timeout=5) as answer:
        devices = json.load(answer)
    return next((d["device_token"] for d in devices if d["online"]), None)


def send_requests(device_token, count=256):
    """Prebuilt `POST /v1/send` requests, each with its own random 1 KiB ciphertext and nonce
    (which the listener cannot open: it shows the fallback text, as a notification extension
    would). Distinct payloads, cycled far apart, keep permessage-deflate from shrinking the
    flood to a few bytes a push, as identical ones would."""
    return [send_request(device_token) for _ in range(count)]


def send_request(device_token):
    now = int(time.time())
    ciphertext = base64.b64encode(os.urandom(1024)).decode()
    nonce = base64.b64encode(os.urandom(12)).decode()
    body = (
        f'{{"device_token":"{device_token}","environment":"sandbox",'
        f'"event_id":"0f8e3a52-5c1b-4d8e-9a7f-2b6c4d8e1f30","expires_at":{now + 1200},'
        f'"envelope":{{"version":1,"key_id":"6b1f9c2e-3d4a-4b5c-8d6e-7f8091a2b3c4",'
        f'"identity":"40e9ea0a395dec3bafe5e84afbbe2e726ac53aa273f168b4ac650b208fdef51f",'
        f'"nonce":"{nonce}","ciphertext":"{ciphertext}"}}}}')
    head = (
        "POST /v1/send HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n")
    return (head + body).encode()


def flood_process(port, requests, count, threads, stop, results):
    """One flooding process: `threads` keep-alive connections share `count` sends."""
    lock = threading.Lock()
    state = {"left": count, "statuses": {}}

    def worker():
        connection = None
        while not stop.is_set():
            with lock:
                if state["left"] <= 0:
                    break
                state["left"] -= 1
                request = requests[state["left"] % len(requests)]
            try:
                if connection is None:
                    connection = socket.create_connection(("127.0.0.1", port), timeout=30)
                connection.sendall(request)
                status, closes = read_response(connection)
            except OSError:
                status, closes = "error", True
            with lock:
                state["statuses"][status] = state["statuses"].get(status, 0) + 1
            if closes and connection is not None:
                connection.close()
                connection = None
        if connection is not None:
            connection.close()

    workers = [threading.Thread(target=worker) for _ in range(threads)]
    for thread in workers:
        thread.start()
    for thread in workers:
        thread.join()
    results.put(state["statuses"])


def read_response(connection):
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = connection.recv(65536)
        if not chunk:
            return "eof", True
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ")[1])
    length = 0
    closes = False
    for line in lines[1:]:
        name, _, value = line.partition(":")
        if name.strip().lower() == "content-length":
            length = int(value.strip())
        if name.strip().lower() == "connection" and value.strip().lower() == "close":
            closes = True
    while len(rest) < length:
        chunk = connection.recv(65536)
        if not chunk:
            return status, True
        rest += chunk
    return status, closes


def read_slowly(pipe, rate, shown):
    """Reads the listener's output at `rate` bytes per second, like a slow terminal, counting
    its lines."""
    started = time.monotonic()
    total = 0
    while True:
        chunk = pipe.read1(4096)
        if not chunk:
            return
        shown[0] += chunk.count(b"\n")
        total += len(chunk)
        ahead = total / rate - (time.monotonic() - started)
        if ahead > 0:
            time.sleep(ahead)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=".build/debug")
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--duration", type=float, default=5)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--workers", type=int, default=8, help="connections per process")
    parser.add_argument(
        "--stdout-rate", type=int, default=0,
        help="read the listener's stdout at this many bytes/s (a slow terminal); 0: /dev/null")
    parser.add_argument("--limit", type=float, default=120, help="kill the listener after this")
    options = parser.parse_args()
    binary = lambda name: os.path.join(os.path.abspath(options.bin), name)
    directory = tempfile.mkdtemp(prefix="push-listen-flood-")
    relay = simulator = listener = None
    try:
        relay, relay_url, relay_token = start_server([
            binary("serverbee-relay"), "--port", "0", "--provider", "devices",
            "--control-token", "flood", "--limits", "1000000000,1000000000,1000000000"])
        simulator, server_url, _ = start_server([
            binary("serverbee-simulator"), "--port", "0", "--admin", "admin:admin-password",
            "--data", os.path.join(directory, "data"), "--metrics-interval", "0"])
        home = os.path.join(directory, "home")
        subprocess.run(
            [binary("serverbee"), "--home", home, "login", "--server", server_url, "--username",
             "admin", "--password", "admin-password"],
            check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60)
        errors = open(os.path.join(directory, "listener.err"), "w+b")
        listener = subprocess.Popen(
            ["/usr/bin/time", "-f", "%e s %M KiB", binary("serverbee"), "--home", home, "push",
             "listen", "--relay", relay_url, "--duration", str(options.duration), "--json"],
            stdout=subprocess.PIPE if options.stdout_rate else subprocess.DEVNULL,
            stderr=errors, stdin=subprocess.DEVNULL, start_new_session=True)
        shown = [0]
        if options.stdout_rate:
            threading.Thread(
                target=read_slowly, args=(listener.stdout, options.stdout_rate, shown),
                daemon=True
            ).start()
        deadline = time.monotonic() + 30
        device = None
        while device is None and time.monotonic() < deadline and listener.poll() is None:
            device = online_device(relay_url, relay_token)
            time.sleep(0.02)
        if device is None:
            raise SystemExit("the listener's device never came online")
        started = time.monotonic()
        port = int(relay_url.rsplit(":", 1)[1])
        requests = send_requests(device)
        stop_flood = multiprocessing.Event()
        results = multiprocessing.Queue()
        share = options.count // options.processes
        flooders = [
            multiprocessing.Process(
                target=flood_process,
                args=(port, requests, share, options.workers, stop_flood, results))
            for _ in range(options.processes)]
        for flooder in flooders:
            flooder.start()
        try:
            listener.wait(timeout=options.limit)
        except subprocess.TimeoutExpired:
            stop(listener)
            raise SystemExit(f"the listener was still running after {options.limit} s")
        finally:
            stop_flood.set()
            statuses = {}
            # Read before joining: a process that put into a queue ends once it is read.
            for _ in flooders:
                try:
                    for status, number in results.get(timeout=60).items():
                        statuses[status] = statuses.get(status, 0) + number
                except Exception:
                    break
            for flooder in flooders:
                flooder.join(timeout=10)
                if flooder.is_alive():
                    flooder.kill()
                    flooder.join()
        flooded = time.monotonic() - started
        errors.seek(0)
        lines = errors.read().decode().strip().splitlines()
        figures = lines[-1]
        for line in lines[:-1]:
            if "went away" in line:
                print("listener:", line)
        sent = sum(statuses.values())
        print(
            f"push listen --duration {options.duration:g}: {figures} "
            f"(sends answered while it listened: {sent} in {flooded:.1f} s, {statuses}"
            + (f"; lines shown: {shown[0]}" if options.stdout_rate else "") + ")")
    finally:
        stop(listener)
        stop(simulator)
        stop(relay)
        shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    main()
