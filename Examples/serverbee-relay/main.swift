import Foundation
import ServerBeeModels
import ServerBeeRelay

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// serverbee-relay --port 0 [--host 127.0.0.1] [--tls-cert FILE --tls-key FILE]
//   [--control-token T] [--environments sandbox,production] [--topic app.serverbee]
//   [--provider devices|scripted]
// Prints one JSON line {"url":…,"control_token":…} on stdout once listening; logs to stderr
// (statuses and reasons only: never a device token, envelope or body). SIGINT/SIGTERM stop it.

func log(_ text: String) {
  FileHandle.standardError.write(Data("serverbee-relay: \(text)\n".utf8))
}

func fail(_ text: String) -> Never {
  log(text)
  exit(2)
}

var options: [String: String] = [:]
var arguments = CommandLine.arguments.dropFirst()
let known: Set<String> = [
  "port", "host", "tls-cert", "tls-key", "control-token", "environments", "topic", "provider",
]
while let flag = arguments.popFirst() {
  guard flag.hasPrefix("--") else { fail("expected --flag VALUE, got \(flag)") }
  let name = String(flag.dropFirst(2))
  guard known.contains(name) else { fail("unknown option \(flag)") }
  guard let value = arguments.popFirst() else { fail("\(flag) needs a value") }
  guard options[name] == nil else { fail("\(flag) given twice") }
  options[name] = value
}

guard let port = UInt16(options["port"] ?? "0") else { fail("--port must be 0…65535") }
let host = options["host"] ?? "127.0.0.1"
var configuration = RelayServer.Configuration()
configuration.log = { line in log(line) }
if let token = options["control-token"] {
  guard !token.isEmpty else { fail("--control-token must not be empty") }
  configuration.controlToken = token
}
if let topic = options["topic"] { configuration.topic = topic }
if let list = options["environments"] {
  var environments: Set<PushEnvironment> = []
  for name in list.split(separator: ",", omittingEmptySubsequences: false) {
    let environment = PushEnvironment(rawValue: name.trimmingCharacters(in: .whitespaces))
    guard environment == .sandbox || environment == .production else {
      fail("--environments takes sandbox and/or production, comma-separated")
    }
    environments.insert(environment)
  }
  configuration.environments = environments
}
var tls: RelayServer.TLSFiles?
switch (options["tls-cert"], options["tls-key"]) {
case (let cert?, let key?):
  tls = RelayServer.TLSFiles(
    certificate: URL(fileURLWithPath: cert), privateKey: URL(fileURLWithPath: key))
case (nil, nil): tls = nil
default: fail("--tls-cert and --tls-key go together")
}
// Both modes script through the control API; `devices` falls back to local devices for tokens
// without a script, `scripted` to the default answer (accepted).
let provider: ScriptedPushProvider
switch options["provider"] ?? "devices" {
case "devices": provider = ScriptedPushProvider(fallback: LocalDevicePushProvider())
case "scripted": provider = ScriptedPushProvider()
default: fail("--provider takes devices or scripted")
}

// Sockets never raise SIGPIPE (the transport sends with MSG_NOSIGNAL); this is for stdout and
// stderr, which are pipes to whoever started us and may be closed before we stop.
signal(SIGPIPE, SIG_IGN)
var blocked = sigset_t()
sigemptyset(&blocked)
sigaddset(&blocked, SIGINT)
sigaddset(&blocked, SIGTERM)
pthread_sigmask(SIG_BLOCK, &blocked, nil)

if !configuration.isUsable {
  log("warning: no usable topic/environments; every send answers 503 RelayNotConfigured")
}
let relay = RelayServer(configuration: configuration, provider: provider)
do {
  let url = try relay.start(port: port, host: host, tls: tls)
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.withoutEscapingSlashes]
  func quoted(_ text: String) throws -> String {
    String(decoding: try encoder.encode(text), as: UTF8.self)
  }
  // Exactly one line, keys in this order: {"url":…,"control_token":…}.
  let line =
    "{\"url\":\(try quoted(url.absoluteString)),\"control_token\":\(try quoted(relay.controlToken))}\n"
  FileHandle.standardOutput.write(Data(line.utf8))
  var received: Int32 = 0
  sigwait(&blocked, &received)
  log("signal \(received): stopping")
  relay.stop()
  log("stopped")
} catch {
  fail("\(error)")
}
