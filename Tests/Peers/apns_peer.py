#!/usr/bin/env python3
"""A mock APNs (and a small generic HTTP/2 server) built on the Python `h2` package over TLS
with ALPN h2: a peer nobody here wrote, for ServerBeeHTTP2 and the relay's APNs provider.

Prints the port it listens on (127.0.0.1) as its first stdout line, then serves until killed.
Every request is appended as one JSON line to --log (when given), with what it checked.

APNs paths, POST /3/device/<token>: checks every header (method, scheme, authority,
apns-topic, apns-push-type alert, apns-priority 10, apns-expiration digits, apns-id a lowercase
UUID, content-length), the body (the exact relay payload shape) and the JWT (ES256 header with
`kid`, claims `iss` and `iat`, the signature with --public-key). A failed check answers 400
with the reason `Mock<What>` so a test sees it. A JWT older than an hour answers 403
ExpiredProviderToken, as APNs does.

The answer per token comes from --script (JSON: {"tokens": {token: action}, "default": action});
an action is {"status": N, "reason": "…", "delay": seconds, "expire_jwt_once": true,
"drop": true}. `expire_jwt_once`: the first request answers 403 ExpiredProviderToken and that
JWT is refused from then on (later requests with a new JWT get the action's status). `drop`:
the connection is closed at once, without an answer (only the first time for that token).
--drop-after N closes the first connection abruptly when its Nth request arrives, with every
request on it unanswered.

Generic paths: POST /echo answers the body; GET /bytes/N answers N bytes (flow control);
GET /headers/N answers N large headers (CONTINUATION); GET /slow/MS answers after MS ms;
GET /raw/push-promise, /raw/no-status and /raw/bad-hpack answer with a raw frame that breaks
HTTP/2 (a PUSH_PROMISE although push is off), the response rules (no :status) or HPACK.
--max-streams N announces SETTINGS_MAX_CONCURRENT_STREAMS; the log records how many streams
were open when each request arrived. --max-frame N announces SETTINGS_MAX_FRAME_SIZE.
--goaway-after N sends GOAWAY (last stream = the Nth request's) once N requests arrived on the
first connection, and answers those N.

PING: every PING the client sends is logged ({"connection": N, "ping": "answered"}; h2 sends the
ACK). --unanswered-pings drops the client's PINGs on the first connection before h2 sees them
(logged as "unanswered"), so no ACK comes, as from a connection that silently died. A closed
connection is logged as {"connection": N, "closed": true}.

Cost: each distinct JWT is verified in full (shape, header, claims, ES256 signature) once per
connection and the verdict kept for that connection, as APNs accepts a token for up to an hour
(its age is still checked on every request); answers to the requests of one read go out in one
socket write.
"""
import argparse
import asyncio
import base64
import hashlib
import json
import re
import ssl
import sys
import time

import h2.config
import h2.connection
import h2.events
import h2.settings
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

PATIENCE = 120
UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
PAYLOAD_PREFIX = (
    b'{"aps":{"alert":{"title":"ServerBee","body":"Open ServerBee to view this notification."},'
    b'"mutable-content":1,"sound":"default"},"serverbee_envelope":{"version":1,"key_id":"'
)


def b64url_decode(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class State:
    def __init__(self, args):
        self.args = args
        self.script = {"tokens": {}, "default": {"status": 200}}
        if args.script:
            with open(args.script) as handle:
                self.script.update(json.load(handle))
        self.public_key = None
        if args.public_key:
            with open(args.public_key, "rb") as handle:
                self.public_key = serialization.load_pem_public_key(handle.read())
        self.revoked_jwts = set()
        self.expired_tokens = set()
        self.dropped_tokens = set()
        self.connections = 0
        self.log = open(args.log, "a", buffering=1) if args.log else None

    def write(self, entry):
        if self.log:
            self.log.write(json.dumps(entry) + "\n")


def check_jwt(state, token):
    """Returns (problem or None, iat)."""
    parts = token.split(".")
    if len(parts) != 3:
        return "MockJWTShape", None
    try:
        header = json.loads(b64url_decode(parts[0]))
        claims = json.loads(b64url_decode(parts[1]))
        signature = b64url_decode(parts[2])
    except Exception:
        return "MockJWTEncoding", None
    if header != {"alg": "ES256", "kid": state.args.key_id}:
        return "MockJWTHeader", None
    if set(claims) != {"iss", "iat"} or claims["iss"] != state.args.team:
        return "MockJWTClaims", None
    iat = claims["iat"]
    if not isinstance(iat, int):
        return "MockJWTClaims", None
    if len(signature) != 64:
        return "MockJWTSignatureLength", iat
    if state.public_key is not None:
        der = encode_dss_signature(
            int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big"))
        try:
            state.public_key.verify(
                der, (parts[0] + "." + parts[1]).encode(), ec.ECDSA(hashes.SHA256()))
        except InvalidSignature:
            return "MockJWTSignature", iat
    return None, iat


def check_apns(state, headers, body, jwts):
    """Returns (problem or None, details); `jwts` keeps each JWT's verdict for a connection."""
    details = {}
    expected = {
        ":method": "POST", ":scheme": "https", "apns-topic": state.args.topic,
        "apns-push-type": "alert", "apns-priority": "10",
    }
    for name, value in expected.items():
        if headers.get(name) != value:
            return "MockHeader:" + name, details
    if not headers.get(":authority", "").startswith(state.args.authority):
        return "MockHeader::authority", details
    if not headers.get("apns-expiration", "").isdigit():
        return "MockHeader:apns-expiration", details
    if not UUID.match(headers.get("apns-id", "")):
        return "MockHeader:apns-id", details
    if headers.get("content-length") != str(len(body)):
        return "MockHeader:content-length", details
    authorization = headers.get("authorization", "")
    if not authorization.startswith("bearer "):
        return "MissingProviderToken", details
    jwt = authorization[len("bearer "):]
    verdict = jwts.get(jwt)
    if verdict is None:
        verdict = check_jwt(state, jwt) + (hashlib.sha256(jwt.encode()).hexdigest(),)
        jwts[jwt] = verdict
    problem, iat, details["jwt_sha256"] = verdict
    details["jwt_iat"] = iat
    if problem:
        return problem, details
    if not body.startswith(PAYLOAD_PREFIX) or not body.endswith(b'"}}'):
        return "MockBody", details
    try:
        payload = json.loads(body)
    except Exception:
        return "MockBodyJSON", details
    envelope = payload.get("serverbee_envelope", {})
    if list(envelope) != ["version", "key_id", "identity", "nonce", "ciphertext"]:
        return "MockEnvelopeKeys", details
    return None, details


class Server(asyncio.Protocol):
    def __init__(self, state):
        self.state = state
        state.connections += 1
        self.number = state.connections
        config = h2.config.H2Configuration(client_side=False, header_encoding="utf-8")
        self.conn = h2.connection.H2Connection(config=config)
        self.streams = {}
        self.requests = 0
        self.closed = False
        # Each distinct JWT's verdict on this connection: (problem or None, iat, sha256).
        self.jwts = {}
        # Set while a read is handled, so answers to its requests go out in one write.
        self.batching = False
        # --unanswered-pings: frame filter state (bytes not yet parsed, preface still to pass).
        self.filter_pings = state.args.unanswered_pings and self.number == 1
        self.pending = b""
        self.preface_left = 24

    def connection_made(self, transport):
        self.transport = transport
        settings = {}
        if self.state.args.max_streams:
            settings[h2.settings.SettingCodes.MAX_CONCURRENT_STREAMS] = self.state.args.max_streams
        if self.state.args.max_frame:
            settings[h2.settings.SettingCodes.MAX_FRAME_SIZE] = self.state.args.max_frame
        self.conn.initiate_connection()
        if settings:
            self.conn.update_settings(settings)
        self.flush()

    def connection_lost(self, exc):
        self.closed = True
        self.state.write({"connection": self.number, "closed": True})

    def flush(self):
        if not self.closed and not self.batching:
            data = self.conn.data_to_send()
            if data:
                self.transport.write(data)

    def drop_pings(self, data):
        """The bytes without the client's PING frames (not ACKs), each logged."""
        buffer = self.pending + data
        output = bytearray()
        offset = 0
        if self.preface_left:
            taken = min(self.preface_left, len(buffer))
            output += buffer[:taken]
            self.preface_left -= taken
            offset = taken
        while len(buffer) - offset >= 9:
            length = int.from_bytes(buffer[offset:offset + 3], "big")
            end = offset + 9 + length
            if end > len(buffer):
                break
            if buffer[offset + 3] == 0x6 and not buffer[offset + 4] & 0x1:
                self.state.write({"connection": self.number, "ping": "unanswered"})
            else:
                output += buffer[offset:end]
            offset = end
        self.pending = buffer[offset:]
        return bytes(output)

    def data_received(self, data):
        if self.filter_pings:
            data = self.drop_pings(data)
        try:
            events = self.conn.receive_data(data)
        except Exception as error:  # a protocol error: h2 queued a GOAWAY
            self.state.write({"connection": self.number, "protocol_error": str(error)})
            self.flush()
            self.transport.close()
            return
        self.batching = True
        try:
            self.handle(events)
        finally:
            self.batching = False
        self.flush()

    def handle(self, events):
        for event in events:
            if isinstance(event, h2.events.PingReceived):
                self.state.write({"connection": self.number, "ping": "answered"})
            elif isinstance(event, h2.events.RequestReceived):
                self.streams[event.stream_id] = {"headers": dict(event.headers), "body": b""}
            elif isinstance(event, h2.events.DataReceived):
                self.streams[event.stream_id]["body"] += event.data
                self.conn.acknowledge_received_data(
                    event.flow_controlled_length, event.stream_id)
            elif isinstance(event, h2.events.StreamEnded):
                self.request(event.stream_id)
            elif isinstance(event, h2.events.StreamReset):
                self.streams.pop(event.stream_id, None)

    def request(self, stream_id):
        stream = self.streams[stream_id]
        headers, body = stream["headers"], stream["body"]
        self.requests += 1
        open_streams = self.conn.open_inbound_streams
        path = headers.get(":path", "")
        entry = {
            "connection": self.number, "stream": stream_id, "path": path,
            "open_streams": open_streams, "headers": {
                k: v for k, v in headers.items() if k != "authorization"},
        }
        args = self.state.args
        if self.number == 1 and args.drop_after and self.requests == args.drop_after:
            entry["answer"] = "dropped"
            self.state.write(entry)
            self.closed = True
            self.transport.abort()
            return
        goaway = self.number == 1 and args.goaway_after and self.requests == args.goaway_after
        if goaway:
            entry["goaway"] = True
        if path.startswith("/3/device/"):
            self.apns(stream_id, path[len("/3/device/"):], headers, body, entry)
        else:
            self.generic(stream_id, path, body, entry)
        if goaway:  # after the answer: h2 sends nothing more once the connection is closed
            self.conn.close_connection(last_stream_id=stream_id)
            self.flush()

    def apns(self, stream_id, token, headers, body, entry):
        problem, details = check_apns(self.state, headers, body, self.jwts)
        entry.update(details)
        entry["body"] = body.decode("utf-8", "replace")
        action = self.state.script["tokens"].get(token, self.state.script["default"])
        jwt = headers.get("authorization", "")
        if problem is None and jwt in self.state.revoked_jwts:
            problem = "ExpiredProviderToken"
        elif problem is None and action.get("expire_jwt_once") and token not in self.state.expired_tokens:
            self.state.expired_tokens.add(token)
            self.state.revoked_jwts.add(jwt)
            problem = "ExpiredProviderToken"
        if problem is None and entry.get("jwt_iat") is not None and time.time() - entry["jwt_iat"] > 3600:
            problem = "ExpiredProviderToken"
        if problem is not None:
            status = 403 if problem.endswith("ProviderToken") or problem.startswith("MockJWT") else 400
            entry["answer"] = [status, problem]
            self.state.write(entry)
            self.respond(stream_id, status, json.dumps({"reason": problem}).encode(), headers)
            return
        if action.get("drop") and token not in self.state.dropped_tokens:
            self.state.dropped_tokens.add(token)
            entry["answer"] = "dropped"
            self.state.write(entry)
            self.closed = True
            self.transport.abort()
            return
        status = action.get("status", 200)
        reason = action.get("reason")
        answer = b""
        if status != 200:
            document = {"reason": reason} if reason is not None else {}
            if status == 410:
                document["timestamp"] = int(time.time() * 1000)
            answer = json.dumps(document).encode() if "raw" not in action else action["raw"].encode()
        entry["answer"] = [status, reason]
        self.state.write(entry)
        delay = action.get("delay", 0)
        if delay:
            asyncio.get_running_loop().call_later(
                delay, self.respond, stream_id, status, answer, headers)
        else:
            self.respond(stream_id, status, answer, headers)

    def generic(self, stream_id, path, body, entry):
        self.state.write(entry)
        if path == "/echo":
            self.respond(stream_id, 200, body, {})
        elif path.startswith("/bytes/"):
            count = int(path[len("/bytes/"):])
            self.respond(stream_id, 200, bytes(i % 251 for i in range(count)), {})
        elif path.startswith("/headers/"):
            count = int(path[len("/headers/"):])
            extra = [("x-filler-%d" % i, "v" * 200 + str(i)) for i in range(count)]
            self.respond(stream_id, 200, b"ok", {}, extra)
        elif path == "/raw/push-promise":
            # Forbidden: we never enabled push. A raw frame, behind h2's back.
            payload = (2).to_bytes(4, "big") + bytes([0x88])
            self.raw(5, 0x4, stream_id, payload)
        elif path == "/raw/no-status":
            # A response header block without :status (literal "x: y").
            self.raw(1, 0x5, stream_id, bytes([0x00, 0x01, 0x78, 0x01, 0x79]))
        elif path == "/raw/bad-hpack":
            # Index 70 refers to an empty dynamic table: a COMPRESSION_ERROR.
            self.raw(1, 0x5, stream_id, bytes([0xc6]))
        elif path.startswith("/slow/"):
            delay = int(path[len("/slow/"):]) / 1000
            asyncio.get_running_loop().call_later(delay, self.respond, stream_id, 200, b"slow", {})
        else:
            self.respond(stream_id, 404, b"", {})

    def raw(self, frame_type, flags, stream_id, payload):
        # After what h2 has queued, whether or not a read is being handled.
        header = len(payload).to_bytes(3, "big") + bytes([frame_type, flags])
        self.transport.write(
            self.conn.data_to_send() + header + stream_id.to_bytes(4, "big") + payload)

    def respond(self, stream_id, status, body, request_headers, extra=()):
        if self.closed or stream_id not in self.streams:
            return
        headers = [(":status", str(status))]
        if "apns-id" in request_headers:
            headers.append(("apns-id", request_headers["apns-id"]))
        headers.extend(extra)
        headers.append(("content-length", str(len(body))))
        try:
            self.conn.send_headers(stream_id, headers, end_stream=not body)
            self.send_body(stream_id, body)
        except Exception as error:  # the stream was reset meanwhile
            self.state.write({"connection": self.number, "stream": stream_id, "skipped": str(error)})
        self.flush()

    def send_body(self, stream_id, body):
        """Sends what the windows allow now and the rest as WINDOW_UPDATEs arrive."""
        while body:
            window = min(
                self.conn.local_flow_control_window(stream_id), self.conn.max_outbound_frame_size)
            if window <= 0:
                asyncio.get_running_loop().call_later(0.01, self.resume_body, stream_id, body)
                return
            chunk, body = body[:window], body[window:]
            self.conn.send_data(stream_id, chunk, end_stream=not body)
        self.streams.pop(stream_id, None)

    def resume_body(self, stream_id, body):
        if self.closed:
            return
        try:
            self.send_body(stream_id, body)
        except Exception as error:
            self.state.write({"connection": self.number, "stream": stream_id, "skipped": str(error)})
        self.flush()


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cert", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--public-key")
    parser.add_argument("--team", default="")
    parser.add_argument("--key-id", default="")
    parser.add_argument("--topic", default="app.serverbee")
    parser.add_argument("--authority", default="localhost")
    parser.add_argument("--script")
    parser.add_argument("--log")
    parser.add_argument("--max-streams", type=int, default=0)
    parser.add_argument("--max-frame", type=int, default=0)
    parser.add_argument("--drop-after", type=int, default=0)
    parser.add_argument("--goaway-after", type=int, default=0)
    parser.add_argument("--unanswered-pings", action="store_true")
    args = parser.parse_args()
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(args.cert, args.key)
    context.set_alpn_protocols(["h2"])
    state = State(args)
    loop = asyncio.get_running_loop()
    server = await loop.create_server(lambda: Server(state), "127.0.0.1", 0, ssl=context)
    print(server.sockets[0].getsockname()[1], flush=True)
    await server.serve_forever()


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        sys.exit(0)
