// `serverbee-bench push`: open + validate + render one encrypted push (budget < 50 µs,
// Documentation/Performance.md §1). `serverbee-bench push once`: decrypt and render one
// notification and exit (RSS of this benchmark binary, which links every module).
// `serverbee-bench push write-fixture DIR`: write `key.json` and `payload.json` for
// `/usr/bin/time -v push-extension-probe DIR/key.json DIR/payload.json`, the extension-sized
// process whose peak RSS is the budget (< 24 MB).
// `serverbee-bench push-count COUNT`: open + validate + render the same raw APNs payload COUNT
// times, for `valgrind --tool=callgrind` (see `Benchmarks/payloads/instructions.sh push`): run it
// with COUNT and with 0 and divide the difference by COUNT. The fixture is built the same way in
// both runs (fixed key and nonce bytes), so the difference is the COUNT extension steps alone.
import Foundation
import PushEnvelopeCrypto
import ServerBeeModels

func runPushBenchmark() throws {
  let mode = CommandLine.arguments.dropFirst(2).first
  if mode == "write-fixture" {
    let directory = URL(fileURLWithPath: CommandLine.arguments.dropFirst(3).first ?? ".")
    let fixture = try PushBenchFixture()
    try WireJSON.encode(fixture.key).write(to: directory.appendingPathComponent("key.json"))
    try fixture.payload.write(to: directory.appendingPathComponent("payload.json"))
    print("wrote key.json and payload.json to \(directory.path) (valid for 30 minutes)")
    return
  }
  if mode == "once" || mode == "stages" {
    // Stages: print the resident set after each step to see where memory goes.
    let stages = mode == "stages"
    if stages { printMemory("start") }
    // Like a notification extension: a stored key and a received payload, no key generation
    // and no random nonce (the fixture is sealed with fixed bytes before the open is measured).
    let fixture = try PushBenchFixture(deterministic: true)
    if stages { printMemory("after building the payload") }
    let shown = fixture.renderer.render(
      Result {
        try fixture.opener.open(apnsPayload: fixture.payload, with: fixture.key, for: .delivery)
      })
    print("\(shown.title): \(shown.body)")
    if stages { printMemory("after open + validate + render") }
    return
  }
  let fixture = try PushBenchFixture()
  let iterations = 20_000
  func measure(_ label: String, _ body: () throws -> Void) rethrows {
    try Bench.measure(label, iterations: iterations, warmup: 1_000, body)
  }
  print(
    "push: \(iterations) iterations each, alert content, \(fixture.payload.count)-byte APNs payload"
  )
  var sink = 0
  try measure("open(apnsPayload:) + validate + render") {
    let content = try fixture.opener.open(
      apnsPayload: fixture.payload, with: fixture.key, for: .delivery)
    sink &+= fixture.renderer.render(content).body.utf8.count
  }
  try measure("open(envelope) + validate + render") {
    let content = try fixture.opener.open(fixture.envelope, with: fixture.key, for: .delivery)
    sink &+= fixture.renderer.render(content).body.utf8.count
  }
  let validated = try fixture.opener.open(fixture.envelope, with: fixture.key, for: .delivery)
  measure("render only") { sink &+= fixture.renderer.render(validated).body.utf8.count }
  measure("identity hash only") {
    sink &+=
      PushIdentity.hash(deploymentID: "https://serverbee.test", userID: "u", installationID: "i")
      .count
  }
  print("budget: open + validate + render < 50 µs (checksum \(sink % 10))")
}

/// `serverbee-bench push-count COUNT`: see the file comment.
func runPushCountBenchmark() throws {
  let arguments = Array(CommandLine.arguments.dropFirst(2))
  guard arguments.count == 1, let count = Int(arguments[0]), count >= 0 else {
    print("usage: serverbee-bench push-count COUNT")
    exit(2)
  }
  let fixture = try PushBenchFixture(deterministic: true)
  var checksum = 0
  var failures = 0
  for _ in 0..<count {
    let shown = fixture.renderer.render(
      Result {
        try fixture.opener.open(apnsPayload: fixture.payload, with: fixture.key, for: .delivery)
      })
    checksum &+= shown.body.utf8.count
    if shown.isFallback { failures += 1 }
  }
  print("push-count ×\(count), \(fixture.payload.count)-byte APNs payload (checksum \(checksum))")
  // A payload that did not open would measure the rejection path, not the extension step.
  if failures > 0 {
    print("push-count: \(failures) of \(count) opens failed")
    exit(1)
  }
}

private struct PushBenchFixture {
  let key: PushContentKey
  let envelope: PushEnvelope
  let payload: Data
  let opener = PushEnvelopeOpener()
  let renderer = PushNotificationRenderer(language: .simplifiedChinese)

  init(deterministic: Bool = false) throws {
    let userID = "6a1f2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"
    let scope = PushContentKeyGenerator.scope(
      serverURL: "https://serverbee.test", userID: userID, installationID: "bench-install",
      loginSecret: "revocation-token")
    let fixedBytes: (@Sendable (Int) throws -> [UInt8])? =
      deterministic ? fixedRandomBytes : nil
    let generator = fixedBytes.map { PushContentKeyGenerator(randomBytes: $0) } ?? .init()
    key = try generator.makeKey(
      deploymentID: "https://serverbee.test", userID: userID, installationID: "bench-install",
      scope: scope)
    let now = Int64(Date().timeIntervalSince1970)
    let alertKey = try AlertKey(
      ruleID: "2f1e0d9c-8b7a-4695-8473-62514f3e2d1c",
      serverID: "e4da3b7f-bbce-4345-9777-2b0674a318d5",
      eventKey: "",
      firstTriggeredAt: RFC3339Timestamp(secondsSince1970: now - 60, nanoseconds: 123_456_000))
    let content = PushContent(
      kind: .alert, deploymentID: key.deploymentID, userID: userID,
      installationID: key.installationID,
      eventID: "5d41402a-bc4b-2a76-b971-9d911017c592", createdAt: now - 10, expiresAt: now + 1790,
      alert: PushAlertSummary(
        alertKey: alertKey.text, status: .firing, ruleName: "CPU usage above 90% for 5 minutes",
        serverName: "web-frontend-01 (东京)"))
    let sealer = fixedBytes.map { PushEnvelopeSealer(randomBytes: $0) } ?? PushEnvelopeSealer()
    envelope = try sealer.seal(content, with: key)
    let envelopeJSON = String(decoding: try WireJSON.encode(envelope), as: UTF8.self)
    payload = Data(
      (#"{"aps":{"alert":{"title":"ServerBee","body":"Open ServerBee to view this notification."},"#
        + #""mutable-content":1,"sound":"default"},"serverbee_envelope":"# + envelopeJSON + "}")
        .utf8)
  }
}

/// Prints the peak and current resident set from `/proc/self/status` (Linux; nothing elsewhere).
private func printMemory(_ label: String) {
  guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
    return
  }
  let fields = status.split(separator: "\n").filter {
    $0.hasPrefix("VmHWM") || $0.hasPrefix("RssAnon") || $0.hasPrefix("RssFile")
  }
  let values = fields.map { $0.split(separator: " ", omittingEmptySubsequences: true) }
    .map { $0.joined(separator: " ").replacingOccurrences(of: "\t", with: " ") }
  print("  [\(label)] " + values.joined(separator: ", "))
}

/// Stand-in random bytes so `push once` does not initialise the system generator.
@Sendable private func fixedRandomBytes(_ count: Int) -> [UInt8] {
  (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37) }
}
