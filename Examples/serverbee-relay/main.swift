import Foundation
import ServerBeeModels
import ServerBeeRelay
import ServerBeeServerKit

// serverbee-relay: a ServerBee-compatible push relay (POST /v1/send, Protocol/Relay.md) with
// local devices and a control API, for tests, demos and self-hosting. See `usage` below and the
// ServerBeeRelay DocC catalog. Start-up, the JSON line and the signal wait are ServerProcess's.

let usage = """
  usage: serverbee-relay [--port N] [--host ADDRESS] [--tls-cert FILE --tls-key FILE]
           [--control-token T] [--environments LIST] [--topic TOPIC] [--provider KIND]
           [--limits IP,RELAY,DEVICE] [--capture N]
           [--apns-url ENVIRONMENT=URL]... [--apns-ca-file FILE]

  A ServerBee-compatible push relay: POST /v1/send as Protocol/Relay.md describes it, local
  devices (POST /v1/devices, GET /v1/devices/stream) and a control API under /__relay/.
  Prints one JSON line {"url":…,"control_token":…} on stdout once listening; logs go to stderr
  (statuses and reasons only: never a device token, envelope or body). SIGINT or SIGTERM stops it.

    --port N                 the port; 0 picks a free one (default 0)
    --host ADDRESS           the IP address to bind (default 127.0.0.1)
    --tls-cert FILE          serve HTTPS with this PEM certificate chain and --tls-key
                             (default none: plain HTTP)
    --tls-key FILE           the PEM private key for --tls-cert (default none)
    --control-token T        the X-Relay-Token of the control API (default: a random one)
    --environments LIST      sandbox and/or production, comma-separated
                             (default sandbox,production)
    --topic TOPIC            the apns-topic (default app.serverbee)
    --provider KIND          devices: scripts first, then local devices, then APNs when it
                             is configured; scripted: scripts first, then accepted
                             (default devices)
    --limits IP,RELAY,DEVICE requests per minute per client IP, requests per minute for the
                             whole relay, sends per minute per environment + device token;
                             the public relay's by default (default 120,600,60); raise them
                             for a self-hosted relay that serves many servers
    --capture N              keep the last N sends for GET /__relay/requests and
                             /__relay/deliveries (about 5 KiB each; default 0: none kept)
    --apns-url ENV=URL       send ENV's (sandbox or production) APNs requests to URL
                             (https://HOST[:PORT]) instead of Apple's host; repeatable
                             (default: api.sandbox.push.apple.com, api.push.apple.com)
    --apns-ca-file FILE      also trust the CA certificates in this PEM file for APNs
                             connections (default: the system store only)
    -h, --help               this text

  APNs (a relay for an app you build yourself), from the environment, with the Cloudflare
  Worker's names: APNS_TEAM_ID, APNS_KEY_ID, APNS_TOPIC (the app's bundle id; it replaces
  --topic), the .p8 key as APNS_PRIVATE_KEY (PKCS#8 PEM text) or APNS_PRIVATE_KEY_FILE, and
  APNS_ENVIRONMENTS (sandbox,production by default; --environments wins when given). With them set,
  tokens the relay did not issue go to APNs over HTTP/2; relay-issued local-device tokens keep
  going to their device stream. A missing name, an unknown environment or a key that is not a
  P-256 PKCS#8 key stops the relay at start with one line (exit 64).

  Fixed limits: 32 sends in flight, uploads included (then 503 RelayBusy; an upload that has
  held its slot over 1 s gives way to a new request with 408), bodies of 8192 bytes (413),
  5 s to send a request (408), 1,024 connections (new ones displace slow ones), 10,000 local
  devices with 64 pushes held each. Open files: the soft limit is raised to the hard limit at
  start (see `ulimit -Hn`); each connection or device stream uses three. Out of descriptors,
  new connections get 503 RelayBusy and one log line. Clock: the system clock, moved with
  POST /__relay/clock/advance {"seconds":N} or /__relay/clock/set {"now":UNIX}; advance it
  with the simulator's (POST /__simulator/clock/advance), or it refuses pushes that expire more
  than 30 minutes after its own now.

  Exit status: 0 after SIGINT or SIGTERM (or --help), 2 for a bad option or a failed start,
  64 for an APNs configuration that cannot work.

  """

let process = ServerProcess(name: "serverbee-relay", usage: usage)
process.answerHelpAndVersion(CommandLine.arguments)

var options: [String: String] = [:]
var apnsURLs: [String] = []
var arguments = CommandLine.arguments.dropFirst()
let known: Set<String> = [
  "port", "host", "tls-cert", "tls-key", "control-token", "environments", "topic", "provider",
  "limits", "capture", "apns-url", "apns-ca-file",
]
while let flag = arguments.popFirst() {
  guard flag.hasPrefix("--") else {
    process.fail("expected --flag VALUE, got \(flag) (see --help)")
  }
  let name = String(flag.dropFirst(2))
  guard known.contains(name) else { process.fail("unknown option \(flag) (see --help)") }
  guard let value = arguments.popFirst() else { process.fail("\(flag) needs a value") }
  if name == "apns-url" {
    apnsURLs.append(value)
    continue
  }
  guard options[name] == nil else { process.fail("\(flag) given twice") }
  options[name] = value
}

guard let port = UInt16(options["port"] ?? "0") else { process.fail("--port must be 0…65535") }
let host = options["host"] ?? "127.0.0.1"
var configuration = RelayServer.Configuration()
configuration.log = { line in process.log(line) }
if let token = options["control-token"] {
  guard !token.isEmpty else { process.fail("--control-token must not be empty") }
  configuration.controlToken = token
}
if let topic = options["topic"] { configuration.topic = topic }
if let list = options["environments"] {
  var environments: Set<PushEnvironment> = []
  for name in list.split(separator: ",", omittingEmptySubsequences: false) {
    let environment = PushEnvironment(rawValue: name.trimmingCharacters(in: .whitespaces))
    guard environment == .sandbox || environment == .production else {
      process.fail("--environments takes sandbox and/or production, comma-separated")
    }
    environments.insert(environment)
  }
  configuration.environments = environments
}
if let text = options["limits"] {
  let numbers = text.split(separator: ",", omittingEmptySubsequences: false).map { Int($0) }
  guard numbers.count == 3, let perClient = numbers[0], let perRelay = numbers[1],
    let perDevice = numbers[2], perClient > 0, perRelay > 0, perDevice > 0
  else { process.fail("--limits takes three positive numbers: IP,RELAY,DEVICE (per minute)") }
  configuration.limits.requestsPerClient = perClient
  configuration.limits.requestsPerRelay = perRelay
  configuration.limits.sendsPerDevice = perDevice
}
let capture = Int(options["capture"] ?? "0") ?? -1
guard (0...100_000).contains(capture) else {
  process.fail("--capture takes a number of sends from 0 to 100000")
}
configuration.maximumCapturedRequests = capture
var tls: RelayServer.TLSFiles?
switch (options["tls-cert"], options["tls-key"]) {
case (let cert?, let key?):
  tls = RelayServer.TLSFiles(
    certificate: URL(fileURLWithPath: cert), privateKey: URL(fileURLWithPath: key))
case (nil, nil): tls = nil
default: process.fail("--tls-cert and --tls-key go together")
}
// APNs, checked now (never at the first send): exit 64 with one line that never holds the key.
let apnsSettings: APNsSettings?
do {
  apnsSettings = try APNsSettings(
    environment: ProcessInfo.processInfo.environment, urls: apnsURLs,
    caFile: options["apns-ca-file"])
} catch let error as ServerBeeRelayError {
  process.fail(error.message, status: 64)
} catch {
  process.fail("the APNs settings could not be read", status: 64)
}
if let apnsSettings {
  configuration.topic = apnsSettings.topic
  if options["environments"] == nil { configuration.environments = apnsSettings.environments }
}
// One clock for the relay and its providers, moved by the control API's clock routes.
let clock = RelayClock.adjustable()
// Both kinds script through the control API; `devices` falls back to local devices for tokens
// without a script, `scripted` to the default answer (accepted).
let provider: ScriptedPushProvider
switch options["provider"] ?? "devices" {
case "devices":
  let devices = LocalDevicePushProvider(clock: clock)
  var fallback: any PushProvider = devices
  if let apnsSettings {
    let apns = APNsPushProvider(
      configuration: apnsSettings.providerConfiguration(log: { line in process.log(line) }),
      clock: clock)
    fallback = DeviceRoutingPushProvider(local: devices, remote: apns)
    let environments = configuration.environments.map(\.rawValue).sorted().joined(separator: ",")
    process.log("apns: topic \(apnsSettings.topic), environments \(environments)")
  }
  provider = ScriptedPushProvider(fallback: fallback, clock: clock, maximumReceived: capture)
case "scripted": provider = ScriptedPushProvider(clock: clock, maximumReceived: capture)
default: process.fail("--provider takes devices or scripted")
}

process.prepareSignals()
if let limits = DescriptorBudget.raiseSoftLimitToHardLimit() {
  process.log("open files: up to \(limits.soft)")
}
if !configuration.isUsable {
  process.log("warning: no usable topic/environments; every send answers 503 RelayNotConfigured")
}
let relay = RelayServer(configuration: configuration, provider: provider, clock: clock)
do {
  let url = try relay.start(port: port, host: host, tls: tls)
  try process.announce(url: url, controlToken: relay.controlToken)
  process.waitForStopSignal()
  relay.stop()
  process.log("stopped")
} catch {
  process.fail("\(error)")
}
