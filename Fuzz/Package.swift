// swift-tools-version:6.0
import PackageDescription

// libFuzzer targets for ServerBeeTransport's parsers. A separate package on purpose: libFuzzer
// brings its own `main`, which SwiftPM's executable linking clashes with, and a plain
// `swift build` of the main package must never try to link these (linux-toolchain-notes §4).
// Build and run with `scripts/fuzz.sh SECONDS` from the repository root.
let package = Package(
  name: "ServerBeeKitFuzz",
  dependencies: [.package(name: "ServerBeeKit", path: "..")],
  targets: [
    .systemLibrary(name: "CLibFuzzer", path: "Sources/CLibFuzzer"),
    .executableTarget(
      name: "fuzz-frame-decoder",
      dependencies: [
        "CLibFuzzer", .product(name: "ServerBeeTransport", package: "ServerBeeKit"),
      ],
      path: "Sources/fuzz-frame-decoder"),
    .executableTarget(
      name: "fuzz-http-head",
      dependencies: [
        "CLibFuzzer", .product(name: "ServerBeeTransport", package: "ServerBeeKit"),
      ],
      path: "Sources/fuzz-http-head"),
  ]
)
