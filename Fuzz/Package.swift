// swift-tools-version:6.0
import PackageDescription

// libFuzzer targets, one per parser of outside input. A separate package on purpose: libFuzzer
// brings its own `main`, which SwiftPM's executable linking clashes with, and a plain
// `swift build` of the main package must never try to link these (Documentation/Development.md §2).
// Build and run with `scripts/fuzz.sh` from the repository root; the targets reach module
// internals through `@_spi(Fuzzing)` entries only.
let package = Package(
  name: "ServerBeeKitFuzz",
  dependencies: [.package(name: "ServerBeeKit", path: "..")],
  targets: [
    .systemLibrary(name: "CLibFuzzer", path: "Sources/CLibFuzzer"),
    .target(name: "FuzzSupport", dependencies: ["CLibFuzzer"], path: "Sources/FuzzSupport"),
    .target(
      name: "PushFuzzSupport",
      dependencies: [
        "FuzzSupport", .product(name: "PushEnvelopeCrypto", package: "ServerBeeKit"),
        .product(name: "ServerBeeModels", package: "ServerBeeKit"),
      ],
      path: "Sources/PushFuzzSupport"),
  ]
)

/// One fuzz target: `Sources/<name>/main.swift`, linked with FuzzSupport and `modules`.
func fuzzTarget(_ name: String, _ modules: [String], support: [Target.Dependency] = []) -> Target {
  .executableTarget(
    name: name,
    dependencies: ["FuzzSupport"] + support
      + modules.map { .product(name: $0, package: "ServerBeeKit") },
    path: "Sources/\(name)")
}

// Keep in step with the target list in scripts/fuzz.sh and README.md ("Fuzzing").
package.targets += [
  // ServerBeeSocketTransport: the WebSocket codec, HTTP heads, the server's request framing
  // (which ServerBeeServerKit runs) and SocketHTTPTransport's response reader.
  fuzzTarget("fuzz-frame-decoder", ["ServerBeeSocketTransport", "ServerBeeTransport"]),
  fuzzTarget("fuzz-http-head", ["ServerBeeSocketTransport", "ServerBeeTransport"]),
  fuzzTarget("fuzz-http-request", ["ServerBeeSocketTransport", "ServerBeeTransport"]),
  fuzzTarget("fuzz-http-response", ["ServerBeeSocketTransport", "ServerBeeTransport"]),
  fuzzTarget("fuzz-live-decoder", ["RealtimeStream", "ServerBeeModels"]),
  fuzzTarget("fuzz-models", ["ServerBeeModels"]),
  fuzzTarget("fuzz-pairing-payload", ["ServerBeeModels"]),
  fuzzTarget("fuzz-server-url", ["ServerBeeModels"]),
  fuzzTarget("fuzz-alert-key", ["ServerBeeModels"]),
  fuzzTarget("fuzz-rfc3339", ["ServerBeeModels"]),
  fuzzTarget(
    "fuzz-apns-payload", ["PushEnvelopeCrypto", "ServerBeeModels"], support: ["PushFuzzSupport"]),
  fuzzTarget(
    "fuzz-push-sealed", ["PushEnvelopeCrypto", "ServerBeeModels"], support: ["PushFuzzSupport"]),
  fuzzTarget(
    "fuzz-push-renderer", ["PushEnvelopeCrypto", "ServerBeeModels"], support: ["PushFuzzSupport"]),
  fuzzTarget("fuzz-relay-send", ["ServerBeeRelay", "ServerBeeModels"]),
  fuzzTarget("fuzz-apns-answer", ["ServerBeeRelay"]),
  fuzzTarget("fuzz-revocation-proof", ["ServerBeeSimulator", "AuthSession"]),
]
