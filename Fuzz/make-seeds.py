#!/usr/bin/env python3
"""Writes Fuzz/corpus-seed/<target>/ from the test fixtures and the protocol notes' examples.

Run from anywhere: python3 Fuzz/make-seeds.py. The output is committed (small files); the
growing working corpus lives in Fuzz/corpus/ (ignored). fuzz-apns-payload is left unseeded on
purpose: it starts from nothing a real server produced.
"""
import base64, hashlib, json, os, pathlib, re, shutil, struct, zlib

root = pathlib.Path(__file__).resolve().parent.parent
fixtures = root / "Tests/ServerBeeModelsTests/Fixtures"
out = root / "Fuzz/corpus-seed"
contract = root / "Documentation/Protocol"  # the protocol notes' JSON examples

def fixture(area, name):
    return (fixtures / area / name).read_bytes().strip()

seeds = {}
def add(target, data):
    if isinstance(data, str):
        data = data.encode()
    seeds.setdefault(target, []).append(data)

# --- WebSocket frames: control byte (bit0 server, bit1 deflate, bit2 64-byte limit,
# bit3 no context takeover, high nibble read size - 1), then frames.
def frame(opcode, payload, fin=True, rsv1=False, mask=None):
    head = bytes([(0x80 if fin else 0) | (0x40 if rsv1 else 0) | opcode])
    n = len(payload)
    bit = 0x80 if mask else 0
    if n < 126: head += bytes([bit | n])
    elif n <= 0xFFFF: head += bytes([bit | 126]) + struct.pack(">H", n)
    else: head += bytes([bit | 127]) + struct.pack(">Q", n)
    if mask:
        payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        head += mask
    return head + payload

def deflate(data):
    c = zlib.compressobj(wbits=-15)
    body = c.compress(data) + c.flush(zlib.Z_SYNC_FLUSH)
    return body[:-4] if body.endswith(b"\x00\x00\xff\xff") else body

update = fixture("realtime", "update_contract_example.json")
for server in (False, True):
    m = b"\x01\x02\x03\x04" if server else None
    base = 1 if server else 0
    add("fuzz-frame-decoder", bytes([base]) + frame(1, b"hello", mask=m) + frame(2, bytes(range(40)), mask=m))
    add("fuzz-frame-decoder", bytes([base | 0x30]) + frame(1, "新加坡".encode()[:4], fin=False, mask=m)
        + frame(9, b"ping", mask=m) + frame(0, "新加坡".encode()[4:], mask=m))
    add("fuzz-frame-decoder", bytes([base]) + frame(8, struct.pack(">H", 1000) + b"bye", mask=m))
    add("fuzz-frame-decoder", bytes([base | 4]) + frame(10, b"", mask=m) + frame(2, bytes(300), mask=m))
    add("fuzz-frame-decoder", bytes([base | 2]) + frame(1, deflate(update), rsv1=True, mask=m))
    add("fuzz-frame-decoder", bytes([base | 2 | 8 | 0x70]) + frame(1, deflate(b"abcabcabc" * 20), rsv1=True, mask=m)
        + frame(2, deflate(bytes(200)), rsv1=True, mask=m))
    add("fuzz-frame-decoder", bytes([base]) + frame(2, bytes(70000), mask=m)[:200])
    # Empty messages after others: zlib writes nothing for a sync flush with nothing new, and the
    # context-takeover round trip caught our deflater sending that empty payload (RFC 7692
    # §7.2.3.6 wants the empty block 00).
    add("fuzz-frame-decoder", bytes([base | 2]) + frame(1, deflate(b"cpu 12.5"), rsv1=True, mask=m)
        + frame(1, b"\x00", rsv1=True, mask=m) + frame(2, b"", mask=m) + frame(1, b"cpu", mask=m))

# --- HTTP heads (the handshake of RFC 6455 §1.2 and ordinary REST exchanges).
upgrade = ("GET /api/ws/servers HTTP/1.1\r\nHost: monitor.example.com:9527\r\nUpgrade: websocket\r\n"
           "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
           "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Extensions: permessage-deflate; "
           "client_max_window_bits\r\nAuthorization: Bearer token\r\n\r\n")
switching = ("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
             "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n"
             "Sec-WebSocket-Extensions: permessage-deflate; server_no_context_takeover\r\n\r\n")
post = ('POST /api/mobile/auth/login HTTP/1.1\r\nHost: 127.0.0.1:9527\r\nContent-Type: application/json\r\n'
        'Content-Length: 27\r\n\r\n{"username":"a","pw":"b"}\r\n')
for head in (upgrade, switching, post.split("\r\n\r\n")[0] + "\r\n\r\n",
             "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\n",
             "GET / HTTP/1.0\r\nX-A: 1\r\nx-a: 2\r\n\r\n",
             "permessage-deflate; server_max_window_bits=10; client_max_window_bits, permessage-deflate"):
    add("fuzz-http-head", head)

for control, text in ((0, upgrade), (0, post + post), (1, post),
                      (2, "GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b HTTP/1.1\r\nConnection: close\r\n\r\n"),
                      (0, "PUT /api/push/settings HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\nab"),
                      (0, "POST /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n")):
    add("fuzz-http-request", bytes([control, 17]) + text.encode())

body = fixture("servers", "server_groups.json")
def chunked(data, size):
    parts = b"".join(b"%x\r\n" % len(data[i:i + size]) + data[i:i + size] + b"\r\n"
                     for i in range(0, len(data), size))
    return parts + b"0\r\n\r\n"
for control, sizes, response in (
        (0x00, b"", b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body)),
        (0x40, b"\x05\x11\x03", b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + chunked(body, 50)),
        (0x20, b"\x07\x01", b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n"),
        (0x01, b"\x09", b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n"),
        (0x00, b"\x02", b"HTTP/1.1 204 No Content\r\n\r\n"),
        (0x02, b"\x03", b"HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\n\r\nupstream failed"),
        (0x40, b"\x01\x02\x03", b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4;ext=1\r\nabcd\r\n0\r\nX-Trailer: 1\r\n\r\n")):
    add("fuzz-http-response", bytes([control]) + sizes[:(control >> 5) + 1].ljust((control >> 5) + 1, b"\x01") + response)

# --- Live stream frames.
for name in sorted(os.listdir(fixtures / "realtime")):
    data = (fixtures / "realtime" / name).read_bytes()
    if name.endswith(".jsonl"):
        for line in data.splitlines()[:12]:
            if line.strip(): add("fuzz-live-decoder", line.strip())
    else:
        add("fuzz-live-decoder", data.strip())

# --- Models: byte 0 picks the model (the order of `models` in fuzz-models/main.swift),
# byte 1 the form (0 APIResponse<T>, 1 APIResponse<[T]>, 2 bare T).
models = ["ServerResponse", "ServerRecord", "ServerGroup", "Capabilities", "DiskIO", "AlertEvent",
          "AlertEventDetail", "AlertRule", "AlertRuleState", "AlertKey", "ServerTask", "TaskResult",
          "CreateTaskRequest", "SecurityEvent", "SecurityEventPage", "SecurityStatsEntry",
          "SecurityEventPayload", "SecurityEventEvidence", "CurrentUser", "SessionUser", "MobileDevice",
          "MobileTokenResponse", "PairCodeResponse", "RecoveryResponse", "RecoveryCandidate",
          "LoginRequest", "RefreshRequest", "PairRedeemRequest", "RevokeRequest",
          "PasswordChangeRequest", "LegacyPushRegisterRequest", "PairingPayload", "ServerURL",
          "PushSetupResponse", "PushPreferences", "PushSettingsUpdate", "TestPushRequest",
          "TestPushResponse", "EncryptedRegisterRequest", "PushContent", "PushContentKey",
          "PushEnvelope", "PushAlertSummary", "PushTaskRunSummary", "RelaySendRequest", "RelayVerdict",
          "LiveStreamMessage", "ServerStatus", "LiveMetrics", "UpgradeJob", "AgentAuthority",
          "LiveStreamClientMessage", "JSONValue", "RFC3339Timestamp", "String", "APIErrorEnvelope"]
def model(name, form, data):
    add("fuzz-models", bytes([models.index(name), form]) + data)
for area, name, model_name, form in (
        ("alerts", "alert_event_detail_firing.json", "AlertEventDetail", 0),
        ("alerts", "alert_event_detail_resolved.json", "AlertEventDetail", 0),
        ("alerts", "alert_events_v1.json", "AlertEvent", 1), ("alerts", "alert_events_v2.json", "AlertEvent", 1),
        ("alerts", "alert_rule_states.json", "AlertRuleState", 1), ("alerts", "alert_rules.json", "AlertRule", 1),
        ("alerts", "alert_rules_reduced.json", "AlertRule", 1),
        ("servers", "servers.json", "ServerResponse", 1), ("servers", "records.json", "ServerRecord", 1),
        ("servers", "server_groups.json", "ServerGroup", 1),
        ("tasks", "tasks.json", "ServerTask", 1), ("tasks", "task_results.json", "TaskResult", 1),
        ("tasks", "task_results_oneshot.json", "TaskResult", 1),
        ("security", "security_events_page.json", "SecurityEventPage", 0),
        ("security", "security_events_last_page.json", "SecurityEventPage", 0),
        ("security", "security_stats.json", "SecurityStatsEntry", 1),
        ("security", "security_stats_by_day.json", "SecurityStatsEntry", 1),
        ("push", "settings.json", "PushSetupResponse", 0), ("push", "settings-older-server.json", "PushSetupResponse", 0),
        ("push", "settings-update.json", "PushSettingsUpdate", 2), ("push", "test-request.json", "TestPushRequest", 2),
        ("push", "test-response.json", "TestPushResponse", 0),
        ("push", "test-response-unknown.json", "TestPushResponse", 0),
        ("push", "encrypted-register.json", "EncryptedRegisterRequest", 2),
        ("push", "content-alert.json", "PushContent", 2), ("push", "content-security.json", "PushContent", 2),
        ("push", "content-task-failure.json", "PushContent", 2), ("push", "content-key.json", "PushContentKey", 2),
        ("push", "envelope.json", "PushEnvelope", 2), ("push", "relay-send.json", "RelaySendRequest", 2),
        ("push", "relay-verdict.json", "RelayVerdict", 2),
        ("realtime", "full_sync_edge.json", "LiveStreamMessage", 2),
        ("realtime", "update_contract_example.json", "LiveStreamMessage", 2)):
    model(model_name, form, fixture(area, name))
model("String", 0, b'{"data":"ok"}')
model("APIErrorEnvelope", 2, b'{"error":{"code":"VALIDATION_ERROR","message":"Validation error: 2fa_required"}}')
add("fuzz-models", bytes([200, 1]) + b'{"error":{"code":"UNAUTHORIZED","message":"Unauthorized"}}')
add("fuzz-models", bytes([201, 29]) + b'{"error":{"code":"TOO_MANY_REQUESTS","message":"Too many requests: slow down"}}')
if contract.is_dir():
    blocks = []
    for doc in sorted(contract.glob("*.md")):
        blocks += re.findall(r"```json\n(.*?)```", doc.read_text(encoding="utf-8"), re.S)
    for block in blocks:
        try:
            value = json.loads(block)
        except ValueError:
            continue
        data = json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()
        if len(data) <= 2048:
            model("JSONValue", 2, data)

# --- Pairing payloads, server URLs, alert keys, timestamps.
for url in ("https://monitor.example.com:9527", "HTTPS://Monitor.Example.COM:443//x//", "http://[::1]:8080",
            "http://127.0.0.1:9527/a/", "https://[2001:DB8::1]", "  https://a.example/serverbee/  ",
            "http://10.0.0.5:80/", "https://monitor.example.com/?x=1", "http://127.0.0.1:44405:80"):
    add("fuzz-server-url", url)
    add("fuzz-pairing-payload", json.dumps({"type": "serverbee_pair", "server_url": url,
                                            "code": "sb_pair_0123456789abcdef"}, separators=(",", ":")))
add("fuzz-pairing-payload", '{"code":"sb_pair_x","type":"serverbee_pair","server_url":"https://a.example","extra":[1,{"a":null}]}')
add("fuzz-pairing-payload", '{"type":"serverbee_pair","server_url":"https:\\/\\/a.example","code":"\\u0073b_pair"}')

def v1(parts):
    return "v1." + base64.urlsafe_b64encode(json.dumps(parts, separators=(",", ":"), ensure_ascii=False).encode()).decode().rstrip("=")
for key in ("r1:s1", "rule:server:extra", v1(["rule-1", "server-1", "203.0.113.7", "2033-05-18T03:33:20+00:00"]),
            v1(["r1", "s1", "", "2026-05-20T10:05:00.412+00:00"]), v1(["规则", "s/1", "", "2026-03-28T10:15:30.123456789+00:00"]),
            "v1.WyJyIiwicyIsIiIsInQiXQ==", v1(["r", "s", "", "not a time"])):
    add("fuzz-alert-key", key)
for stamp in ("2026-03-28T10:15:30Z", "2026-03-28T10:15:30.123456789+00:00", "2026-03-28T05:45:30-04:30",
              "1969-12-31T23:59:59.5Z", "2024-02-29T00:00:00z", "2026-03-28 10:15:30.500+00:00",
              "2016-12-31T23:59:60Z", "0001-01-01T00:00:00Z", "9999-12-31T23:59:59.999999999Z"):
    add("fuzz-rfc3339", stamp)

# --- Push: sealed plaintexts (the contract's sample contents for the test key), the renderer
# (language tags, NUL, content) and the relay's /v1/send bodies.
contents = [fixture("push", n) for n in sorted(os.listdir(fixtures / "push")) if n.startswith("content-") and n != "content-key.json"]
for content in contents:
    add("fuzz-push-sealed", content)
for tags, content in zip(("en-US", "zh-Hans-CN\nen", "fr\nzh_CN", "zh-Hant\nzh", "de", ""), contents):
    add("fuzz-push-renderer", tags.encode() + b"\x00" + content)
relay = fixture("push", "relay-send.json")
add("fuzz-relay-send", relay)
value = json.loads(relay)
value["environment"] = "production"
value["expires_at"] = 9007199254740991
add("fuzz-relay-send", json.dumps(value, separators=(",", ":")))

# --- APNs answers: control byte (bits 0-1 requests - 1, high 3 bits read sizes - 1), read
# sizes, then what the server sends: SETTINGS, HPACK header blocks (static and dynamic table,
# literals, Huffman, CONTINUATION, padding, priority), DATA, RST_STREAM, PING, GOAWAY.
def h2frame(kind, flags, stream, payload):
    return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(">I", stream) + payload
def hstr(text):
    data = text.encode() if isinstance(text, str) else text
    return bytes([len(data)]) + data
def hint(value, prefix, flags):  # an HPACK integer with an N-bit prefix (RFC 7541 §5.1)
    limit = (1 << prefix) - 1
    if value < limit:
        return bytes([flags | value])
    out, value = [flags | limit], value - limit
    while value >= 128:
        out.append(value % 128 + 128)
        value //= 128
    return bytes(out + [value])
def literal(name_index, value, indexing=False):  # a name from the static table
    return (hint(name_index, 6, 0x40) if indexing else hint(name_index, 4, 0)) + hstr(value)
def literal_new(name, value, indexing=False):
    return bytes([0x40 if indexing else 0x00]) + hstr(name) + hstr(value)
EIDS = ["0b7c6a52-8f0e-4a43-9d55-0c3f1e2a9b01", "1c8d7b63-9a1f-4b54-8e66-1d4a2f3b0c12",
        "2d9e8c74-ab20-4c65-9f77-2e5b3a4c1d23", "3eaf9d85-bc31-4d76-8a88-3f6c4b5d2e34"]
SETTINGS = h2frame(4, 0, 0, struct.pack(">HI", 3, 1000) + struct.pack(">HI", 4, 65535)) + h2frame(4, 1, 0, b"")
def status_block(status, stream_index, body=b"", extra=b""):
    head = (b"\x88" if status == 200 else literal(8, str(status)))
    head += literal_new("apns-id", EIDS[stream_index]) + extra
    if body:
        head += literal(28, str(len(body)))  # content-length
    return head
def answer(stream_index, status, reason=None):
    stream = 2 * stream_index + 1
    body = json.dumps({"reason": reason}).encode() if reason else b""
    out = h2frame(1, 0x4 | (0 if body else 0x1), stream, status_block(status, stream_index, body))
    if body:
        out += h2frame(0, 0x1, stream, body)
    return out
add("fuzz-apns-answer", bytes([0x00, 0]) + SETTINGS + answer(0, 200))
add("fuzz-apns-answer", bytes([0x20, 3, 40]) + SETTINGS + answer(0, 410, "Unregistered"))
add("fuzz-apns-answer", bytes([0x01, 0]) + SETTINGS + answer(1, 400, "BadDeviceToken") + answer(0, 403, "ExpiredProviderToken"))
add("fuzz-apns-answer", bytes([0x03, 0]) + SETTINGS + answer(0, 429, "TooManyRequests") + answer(1, 500, "InternalServerError")
    + answer(2, 503, "ServiceUnavailable") + answer(3, 413, "PayloadTooLarge"))
# The dynamic table: apns-id of stream 1 indexed (62), then a field added and reused.
block = b"\x88" + literal_new("apns-id", EIDS[0], indexing=True) + literal_new("x-tag", "one", indexing=True)
add("fuzz-apns-answer", bytes([0x01, 0]) + SETTINGS + h2frame(1, 0x5, 1, block)
    + h2frame(1, 0x5, 3, b"\x88\xbe" + literal_new("apns-id", EIDS[1])))
# A table size update to 0, a Huffman value (RFC 7541 C.4.1 "www.example.com"), then a
# header block in HEADERS (padded, with priority) and two CONTINUATIONs.
huffman = bytes([0x00, 0x05]) + b"x-hfm" + bytes([0x8c]) + bytes.fromhex("f1e3c2e5f23a6ba0ab90f4ff")
block = b"\x20\x88" + huffman + literal_new("apns-id", EIDS[0])
padded = bytes([3]) + struct.pack(">I", 0) + bytes([15]) + block[:5] + bytes(3)
add("fuzz-apns-answer", bytes([0x40, 5, 7, 2]) + SETTINGS + h2frame(1, 0x8 | 0x20 | 0x1, 1, padded)
    + h2frame(9, 0, 1, block[5:12]) + h2frame(9, 0x4, 1, block[12:]))
# Flow control, PING, a refused stream and GOAWAY; a trailer block; a 100 Continue first.
body = json.dumps({"reason": "BadTopic"}).encode()
add("fuzz-apns-answer", bytes([0x01, 0]) + SETTINGS + h2frame(8, 0, 0, struct.pack(">I", 1000))
    + h2frame(6, 0, 0, bytes(8)) + h2frame(3, 0, 3, struct.pack(">I", 7))
    + h2frame(1, 0x4, 1, literal(8, "100")) + h2frame(1, 0x4, 1, status_block(400, 0))
    + h2frame(0, 0, 1, body[:5]) + h2frame(0, 0, 1, body[5:]) + h2frame(1, 0x5, 1, literal_new("x-trailer", "t"))
    + h2frame(7, 0, 0, struct.pack(">II", 1, 0)))
# A foreign apns-id, a content-length that does not match, a body in several frames.
add("fuzz-apns-answer", bytes([0x02, 0]) + SETTINGS + h2frame(1, 0x5, 1, b"\x88" + literal_new("apns-id", EIDS[3]))
    + h2frame(1, 0x4, 3, literal(8, "404") + literal(28, "9")) + h2frame(0, 0x1, 3, b"{}")
    + h2frame(1, 0x4, 5, b"\x88") + h2frame(0, 0, 5, bytes(700)) * 3 + h2frame(0, 1, 5, b""))

# --- Revocation proofs: the client's form, and near misses.
proof = "sb-revoke-v1." + base64.urlsafe_b64encode(bytes(range(32))).decode().rstrip("=")
for text in (proof, proof[:-1] + "B", proof + "=", proof.replace("sb-revoke-v1.", "sb-revoke-v2."), bytes(range(32))):
    add("fuzz-revocation-proof", text)

shutil.rmtree(out, ignore_errors=True)
for target, items in sorted(seeds.items()):
    folder = out / target
    folder.mkdir(parents=True)
    for data in items:
        (folder / hashlib.sha1(data).hexdigest()[:16]).write_bytes(data)
    print(f"{target}: {len(items)} seeds")
