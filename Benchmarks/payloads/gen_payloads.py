#!/usr/bin/env python3
"""Generate realistic ServerBee browser-WebSocket payloads for decode benchmarks.

Shapes follow Documentation/Protocol/LiveStream.md:
  - full_sync_1000.json : one `full_sync` frame, 1,000 ServerStatus objects (§5) in
                          serde field order, plus a few UpgradeJob entries.
  - updates_1000.jsonl  : 1,000 distinct `update` frames (one per server, shuffled
                          order), each with exactly one LiveMetrics element (§6).

Output is compact JSON (no spaces), as serde_json writes it; non-ASCII names are
raw UTF-8. Floats: `cpu` is an f32 widened to f64 (as the agent's sysinfo value is),
so it carries long decimals; load averages have two decimals. Deterministic: the
same seed always gives byte-identical files.

Usage: gen_payloads.py [--servers N] [OUT_DIR]   (default: N = 1000, OUT_DIR = <this dir>)

With the default N the files are the reference payloads (same seed, same draws).
Another N writes full_sync_<N>.json and updates_<N>.jsonl: a distinct fleet of N servers (its
own ids), for measuring how update cost scales with fleet size.
"""
import json
import os
import random
import struct
import sys
import uuid

SEED = 20261129
N = 1000
if "--servers" in sys.argv:
    at = sys.argv.index("--servers")
    N = int(sys.argv[at + 1])
    del sys.argv[at:at + 2]
NOW = 1774692930  # unix seconds used as "now" for online servers

rng = random.Random(SEED)


def uid():
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def f32(x):
    """Round-trip through IEEE f32, like `sys.global_cpu_usage() as f64`."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def rfc3339_plus(ts, frac_digits=9):
    import datetime as dt
    d = dt.datetime.fromtimestamp(ts, tz=dt.timezone.utc)
    base = d.strftime("%Y-%m-%dT%H:%M:%S")
    if frac_digits:
        base += "." + "".join(str(rng.randrange(10)) for _ in range(frac_digits))
    return base + "+00:00"


def rfc3339_z(ts, frac_digits=9):
    return rfc3339_plus(ts, frac_digits)[:-6] + "Z"


GiB = 1024 ** 3
MiB = 1024 ** 2

PROVIDERS = [
    ("hk", "Hong Kong", "HK"), ("tyo", "Tokyo", "JP"), ("osa", "Osaka", "JP"),
    ("sg", "Singapore", "SG"), ("fra", "Frankfurt am Main", "DE"), ("nbg", "Nuremberg", "DE"),
    ("ams", "Amsterdam", "NL"), ("lon", "London", "GB"), ("par", "Paris", "FR"),
    ("lax", "Los Angeles", "US"), ("sjc", "San Jose", "US"), ("iad", "Ashburn", "US"),
    ("nyc", "New York", "US"), ("sea", "Seattle", "US"), ("yyz", "Toronto", "CA"),
    ("syd", "Sydney", "AU"), ("icn", "Seoul", "KR"), ("tpe", "Taipei", "TW"),
    ("bom", "Mumbai", "IN"), ("gru", "São Paulo", "BR"), ("sha", "Shanghai", "CN"),
    ("pek", "Beijing", "CN"), ("szx", "Shenzhen", "CN"), ("hel", "Helsinki", "FI"),
]
HOSTS = ["vps", "lightnode", "hetzner-cx22", "hetzner-ax41", "racknerd", "bandwagon", "dmit",
         "aws-lightsail", "aws-ec2", "gcp-e2", "oracle-arm", "do-droplet", "vultr", "linode",
         "ovh-ks", "contabo", "netcup", "aliyun-ecs", "tencent-cvm", "bgp-edge", "k8s-node",
         "db-primary", "db-replica", "nas", "gateway", "runner"]
CJK_NAMES = ["香港-CN2-GIA", "東京-IIJ", "上海-电信", "家里NAS", "新加坡-BGP", "首尔-KT", "台北-中華電信"]
CPU_NAMES = [
    "AMD EPYC 7763 64-Core Processor", "AMD EPYC 9654 96-Core Processor",
    "AMD EPYC-Milan Processor", "AMD EPYC-Rome Processor", "AMD Ryzen 9 5950X 16-Core Processor",
    "Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz", "Intel(R) Xeon(R) Gold 6148 CPU @ 2.40GHz",
    "Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz", "Intel Xeon Processor (Skylake, IBRS)",
    "Intel(R) Core(TM) i5-12400", "Neoverse-N1", "Apple M2 Pro", "QEMU Virtual CPU version 2.5+",
    "Common KVM processor",
]
OSES = [
    "Ubuntu 22.04.4 LTS", "Ubuntu 24.04.1 LTS", "Debian GNU/Linux 12 (bookworm)",
    "Debian GNU/Linux 11 (bullseye)", "Alpine Linux v3.20", "Rocky Linux 9.4 (Blue Onyx)",
    "AlmaLinux 9.4 (Seafoam Ocelot)", "CentOS Stream 9", "Arch Linux", "Fedora Linux 40 (Server Edition)",
    "Windows Server 2022 Datacenter", "macOS 14.6.1", "FreeBSD 14.1-RELEASE",
]
TAGS = ["prod", "staging", "dev", "db", "web", "edge", "cdn", "cn2", "gia", "backup", "k8s",
        "ipv6", "nat", "arm64", "cheap", "bgp", "game", "proxy", "monitoring", "ci"]
GROUPS = [uid() for _ in range(8)]


def nominal_mem():
    return rng.choice([512 * MiB, 1 * GiB, 2 * GiB, 4 * GiB, 8 * GiB, 16 * GiB, 32 * GiB, 64 * GiB, 128 * GiB])


def logrand(lo, hi):
    import math
    return int(math.exp(rng.uniform(math.log(lo), math.log(hi))))


def offer():
    created = NOW - rng.randrange(60, 3000)
    return {
        "id": uid(),
        "code_prefix": "sb_enr_" + "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(4)),
        "expires_at": rfc3339_plus(created + 3600),
        "created_at": rfc3339_plus(created),
    }


def live_metrics(static, online=True, dt=0):
    """Live fields for one report; static carries the totals and cumulative counters."""
    if not online:
        return dict(uptime=0, cpu=0.0, mem_used=0, swap_used=0, disk_used=0,
                    net_in_speed=0, net_out_speed=0, net_in_transfer=0, net_out_transfer=0,
                    load1=0.0, load5=0.0, load15=0.0, tcp_conn=0, udp_conn=0, process_count=0,
                    disk_read_bytes_per_sec=0, disk_write_bytes_per_sec=0)
    cores = static["cpu_cores"] or 2
    busy = rng.random() ** 2.2  # most servers idle, a few busy
    cpu = f32(min(100.0, busy * 100.0 + rng.uniform(0.05, 3.0)))
    l1 = round(busy * cores * rng.uniform(0.6, 1.4) + rng.uniform(0, 0.3), 2)
    in_speed = logrand(200, 120 * MiB)
    out_speed = logrand(200, 120 * MiB)
    static["net_in_transfer"] += in_speed * 3 + dt
    static["net_out_transfer"] += out_speed * 3 + dt
    static["uptime"] += 3 + dt
    return dict(
        uptime=static["uptime"],
        cpu=cpu,
        mem_used=(int(static["mem_total"] * rng.uniform(0.12, 0.93)) // 4096) * 4096,
        swap_used=(int(static["swap_total"] * rng.uniform(0, 0.4)) // 4096) * 4096,
        disk_used=int(static["disk_total"] * static["disk_frac"]) + rng.randrange(0, 50 * MiB),
        net_in_speed=in_speed,
        net_out_speed=out_speed,
        net_in_transfer=static["net_in_transfer"],
        net_out_transfer=static["net_out_transfer"],
        load1=l1,
        load5=round(max(0.0, l1 * rng.uniform(0.7, 1.2)), 2),
        load15=round(max(0.0, l1 * rng.uniform(0.6, 1.1)), 2),
        tcp_conn=logrand(8, 40000),
        udp_conn=logrand(1, 800),
        process_count=rng.randrange(60, 900),
        disk_read_bytes_per_sec=logrand(1, 300 * MiB) if rng.random() > 0.3 else 0,
        disk_write_bytes_per_sec=logrand(1, 200 * MiB) if rng.random() > 0.1 else 0,
    )


def make_server(i):
    if rng.random() < 0.08:
        name = f"{rng.choice(CJK_NAMES)}-{i:03d}"
    else:
        code, _, _ = rng.choice(PROVIDERS)
        name = f"{code}-{rng.choice(HOSTS)}-{i:03d}"
    _, region, cc = rng.choice(PROVIDERS)
    mem_total = (int(nominal_mem() * rng.uniform(0.93, 0.99)) // 4096) * 4096
    static = {
        "cpu_cores": rng.choice([1, 1, 2, 2, 2, 4, 4, 8, 8, 16, 32, 64]) if rng.random() > 0.02 else None,
        "mem_total": mem_total,
        "swap_total": rng.choice([0, 0, 512 * MiB, 1 * GiB, 2 * GiB, 4 * GiB, 8 * GiB]),
        "disk_total": logrand(10 * GiB, 8 * 1024 * GiB),
        "disk_frac": rng.uniform(0.05, 0.9),
        "net_in_transfer": logrand(10 * MiB, 80 * 1024 * GiB),
        "net_out_transfer": logrand(10 * MiB, 80 * 1024 * GiB),
        "uptime": rng.randrange(60, 400 * 86400),
    }
    online = rng.random() < 0.88
    unclaimed = rng.random() < 0.03
    off = offer() if unclaimed and rng.random() < 0.7 else None
    live = live_metrics(static, online)
    s = {"id": uid(), "name": name, "online": online,
         "last_active": NOW if online else NOW - rng.randrange(60, 90 * 86400)}
    s["uptime"] = live["uptime"]
    s["cpu"] = live["cpu"]
    s["mem_used"] = live["mem_used"]
    s["mem_total"] = mem_total
    s["swap_used"] = live["swap_used"]
    s["swap_total"] = static["swap_total"]
    s["disk_used"] = live["disk_used"]
    s["disk_total"] = static["disk_total"]
    for k in ("net_in_speed", "net_out_speed", "net_in_transfer", "net_out_transfer",
              "load1", "load5", "load15", "tcp_conn", "udp_conn", "process_count"):
        s[k] = live[k]
    s["cpu_name"] = rng.choice(CPU_NAMES)
    s["os"] = rng.choice(OSES)
    s["region"] = region if rng.random() > 0.05 else None
    s["country_code"] = cc if s["region"] else None
    s["group_id"] = rng.choice(GROUPS) if rng.random() > 0.15 else None
    s["features"] = ["docker"] if rng.random() < 0.35 else []
    s["disk_read_bytes_per_sec"] = live["disk_read_bytes_per_sec"]
    s["disk_write_bytes_per_sec"] = live["disk_write_bytes_per_sec"]
    s["tags"] = sorted(rng.sample(TAGS, rng.randrange(0, 6)))
    s["cpu_cores"] = static["cpu_cores"]
    s["agent_authority"] = {"status": "unclaimed" if unclaimed else "claimed", "outstanding_offer": off}
    s["has_token"] = not unclaimed
    s["outstanding_enrollment"] = dict(off) if off else None
    return s, static


def make_upgrade(server_id):
    status = rng.choice(["running", "running", "succeeded", "failed", "timeout"])
    started = NOW - rng.randrange(10, 900)
    return {
        "server_id": server_id,
        "job_id": uid(),
        "target_version": rng.choice(["0.9.4", "0.9.5", "1.0.0"]),
        "stage": rng.choice(["downloading", "verifying", "installing", "restarting"]),
        "status": status,
        "error": "sha256 mismatch" if status == "failed" else None,
        "backup_path": "/usr/local/bin/serverbee-agent.bak" if status != "running" else None,
        "started_at": rfc3339_z(started),
        "finished_at": rfc3339_z(started + rng.randrange(5, 120)) if status != "running" else None,
    }


def dumps(o):
    return json.dumps(o, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    os.makedirs(out, exist_ok=True)
    servers, statics = zip(*(make_server(i) for i in range(N)))
    upgrades = [make_upgrade(s["id"]) for s in rng.sample(servers, min(6, N))]
    full = {"type": "full_sync", "servers": list(servers), "upgrades": upgrades}
    with open(os.path.join(out, f"full_sync_{N}.json"), "w", encoding="utf-8") as f:
        f.write(dumps(full))

    order = list(range(N))
    rng.shuffle(order)
    lines = []
    for k, i in enumerate(order):
        s, st = servers[i], statics[i]
        lm = live_metrics(st, online=True, dt=k % 7)
        m = {"id": s["id"], "name": s["name"], "online": True, "last_active": NOW + 3 + k // 100}
        m.update(lm)  # live_metrics keys are already in LiveMetrics wire order
        lines.append(dumps({"type": "update", "servers": [m]}))
    with open(os.path.join(out, f"updates_{N}.jsonl"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    print(f"wrote {out}/full_sync_{N}.json and {out}/updates_{N}.jsonl")


if __name__ == "__main__":
    main()
