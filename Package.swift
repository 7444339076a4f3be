// swift-tools-version:6.0
import PackageDescription

// The module table of Documentation/Architecture.md §1. `scripts/check-layering.sh` reads the same
// table from `scripts/layering.txt` and fails when a module imports anything else.
// Where URLSession is the default transport (the native stack is the default on Linux).
let applePlatforms: [Platform] = [.iOS, .macOS, .macCatalyst, .tvOS, .watchOS, .visionOS]

let package = Package(
  name: "ServerBeeKit",
  platforms: [.iOS(.v17), .macOS(.v14)],
  products: [
    .library(name: "ServerBeeModels", targets: ["ServerBeeModels"]),
    .library(name: "ServerBeeTransport", targets: ["ServerBeeTransport"]),
    // The route catalogue and the one request path every client stack sends through.
    .library(name: "ServerBeeRoutes", targets: ["ServerBeeRoutes"]),
    // URLSession HTTP and WebSocket transports (the Apple defaults; they compile on Linux).
    .library(name: "ServerBeeURLSessionTransport", targets: ["ServerBeeURLSessionTransport"]),
    // The native POSIX socket + OpenSSL + zlib stack (the Linux default transports).
    .library(name: "ServerBeeSocketTransport", targets: ["ServerBeeSocketTransport"]),
    .library(name: "SecureStore", targets: ["SecureStore"]),
    .library(name: "PushEnvelopeCrypto", targets: ["PushEnvelopeCrypto"]),
    .library(name: "AuthSession", targets: ["AuthSession"]),
    .library(name: "RealtimeStream", targets: ["RealtimeStream"]),
    .library(name: "ServerBeeAPI", targets: ["ServerBeeAPI"]),
    .library(name: "NotificationPreferences", targets: ["NotificationPreferences"]),
    .library(name: "DeepLinkValidation", targets: ["DeepLinkValidation"]),
    .library(name: "ServerBeeKit", targets: ["ServerBeeKit"]),
    .library(name: "ServerBeeSimulator", targets: ["ServerBeeSimulator"]),
    // Fakes for integrators' own tests (StubHTTPTransport, FakeWebSocketTransport,
    // FakeSessionContext, ManualClock, …); it links Swift Testing, so use it in test targets.
    // The process/PKI/peer harness of this repository's tests is ServerBeeTestHarness (no product).
    .library(name: "ServerBeeTestSupport", targets: ["ServerBeeTestSupport"]),
    .library(name: "ServerBeeRelay", targets: ["ServerBeeRelay"]),
    .executable(name: "serverbee", targets: ["serverbee"]),
    .executable(name: "serverbee-bench", targets: ["serverbee-bench"]),
    .executable(name: "push-pipeline-bench", targets: ["push-pipeline-bench"]),
    .executable(name: "serverbee-simulator", targets: ["serverbee-simulator"]),
    .executable(name: "serverbee-relay", targets: ["serverbee-relay"]),
    .executable(name: "relay-bench", targets: ["relay-bench"]),
  ],
  targets: [
    // System-library shims (Debian: libsqlite3-dev, libssl-dev, zlib1g-dev).
    .systemLibrary(
      name: "CSQLite", path: "Modules/CSQLite", providers: [.apt(["libsqlite3-dev"])]),
    .systemLibrary(
      name: "COpenSSL", path: "Modules/COpenSSL", providers: [.apt(["libssl-dev"])]),
    .systemLibrary(name: "CZlib", path: "Modules/CZlib", providers: [.apt(["zlib1g-dev"])]),

    // SDK modules, low to high.
    // Package-level machinery below the wire types (locks, the error shape, the JSON writer and
    // syntax check, SHA-256, base64url, random bytes). Not a product: ServerBeeModels
    // re-exports its public part; every module may import it.
    .target(name: "ServerBeeCore", path: "Modules/ServerBeeCore"),
    .target(
      name: "ServerBeeModels",
      dependencies: [
        "ServerBeeCore"
      ], path: "Modules/ServerBeeModels"),
    // Portable: protocols, value types and the session seam.
    .target(
      name: "ServerBeeTransport", dependencies: ["ServerBeeModels"],
      path: "Modules/ServerBeeTransport"),
    // Portable: every route and socket declared once as a typed value, and the one request
    // path (`RouteClient`) the REST client, AuthSession and NotificationPreferences send
    // through; the simulator registers its handlers against the same values.
    .target(
      name: "ServerBeeRoutes",
      dependencies: ["ServerBeeCore", "ServerBeeModels", "ServerBeeTransport"],
      path: "Modules/ServerBeeRoutes"),
    // Portable: the URLSession adapters. Their own module because FoundationNetworking (libcurl
    // on Linux) costs a process about 5 MB: what only decodes the live stream never links it.
    .target(
      name: "ServerBeeURLSessionTransport",
      dependencies: ["ServerBeeModels", "ServerBeeTransport"],
      path: "Modules/ServerBeeURLSessionTransport"),
    // The native stack: TCP + TLS streams, HTTP/1.1 client, RFC 6455 + permessage-deflate.
    .target(
      name: "ServerBeeSocketTransport",
      dependencies: [
        "ServerBeeCore", "ServerBeeModels", "ServerBeeTransport", "COpenSSL", "CZlib",
      ],
      path: "Modules/ServerBeeSocketTransport"),
    // Package-only: a small HTTP/2 client (RFC 9113 framing, RFC 7541 HPACK) over the native
    // TLS stream, for the relay's APNs provider (Documentation/Decisions/0010).
    .target(
      name: "ServerBeeHTTP2",
      dependencies: [
        "ServerBeeCore", "ServerBeeModels", "ServerBeeTransport", "ServerBeeSocketTransport",
      ],
      path: "Modules/ServerBeeHTTP2"),
    // Package-only server pieces for the simulator and the relay.
    .target(
      name: "ServerBeeServerKit",
      dependencies: [
        "ServerBeeModels", "ServerBeeTransport", "ServerBeeSocketTransport", "COpenSSL",
      ],
      path: "Modules/ServerBeeServerKit"),
    // Package-level: the QR code encoder (byte mode, versions 1-40) and its terminal and PNG
    // renderers, for the command line and the simulator. Not a product.
    .target(
      name: "ServerBeeQR", dependencies: ["ServerBeeCore", "CZlib"], path: "Modules/ServerBeeQR"),
    // Package-level: the one AES-256-GCM (OpenSSL on Linux, CryptoKit on Apple platforms).
    .target(
      name: "ServerBeeCrypto",
      dependencies: [
        "ServerBeeCore", .target(name: "COpenSSL", condition: .when(platforms: [.linux])),
      ],
      path: "Modules/ServerBeeCrypto"),
    .target(
      name: "SecureStore",
      dependencies: [
        "ServerBeeModels", "ServerBeeCore", "ServerBeeCrypto", "CSQLite",
        .target(name: "COpenSSL", condition: .when(platforms: [.linux])),
      ],
      path: "Modules/SecureStore"),
    .target(
      name: "PushEnvelopeCrypto",
      dependencies: ["ServerBeeModels", "ServerBeeCore", "ServerBeeCrypto"],
      path: "Modules/PushEnvelopeCrypto"),
    .target(
      name: "AuthSession",
      dependencies: [
        "ServerBeeModels", "ServerBeeTransport", "ServerBeeRoutes", "SecureStore",
      ],
      path: "Modules/AuthSession"),
    .target(
      name: "RealtimeStream",
      dependencies: ["ServerBeeCore", "ServerBeeModels", "ServerBeeTransport", "ServerBeeRoutes"],
      path: "Modules/RealtimeStream"),
    .target(
      name: "ServerBeeAPI",
      dependencies: ["ServerBeeModels", "ServerBeeTransport", "ServerBeeRoutes"],
      path: "Modules/ServerBeeAPI"),
    .target(
      name: "NotificationPreferences",
      dependencies: [
        "ServerBeeModels", "ServerBeeTransport", "ServerBeeRoutes", "SecureStore",
        "PushEnvelopeCrypto",
      ],
      path: "Modules/NotificationPreferences"),
    .target(
      name: "DeepLinkValidation",
      dependencies: [
        "ServerBeeModels", "ServerBeeTransport", "SecureStore", "PushEnvelopeCrypto",
        "ServerBeeAPI",
      ],
      path: "Modules/DeepLinkValidation"),
    // The facade: re-exports the SDK modules and wires live defaults (ServerBeeClient).
    .target(
      name: "ServerBeeKit",
      dependencies: [
        "ServerBeeModels", "ServerBeeTransport", "ServerBeeRoutes", "SecureStore", "AuthSession",
        "RealtimeStream", "ServerBeeAPI", "PushEnvelopeCrypto", "NotificationPreferences",
        "DeepLinkValidation",
        // The default transports: the native stack on Linux, URLSession elsewhere.
        .target(name: "ServerBeeSocketTransport", condition: .when(platforms: [.linux])),
        .target(name: "ServerBeeURLSessionTransport", condition: .when(platforms: applePlatforms)),
      ],
      path: "Modules/ServerBeeKit"),
    .target(
      name: "ServerBeeSimulator",
      dependencies: [
        "ServerBeeModels", "ServerBeeTransport", "ServerBeeRoutes", "ServerBeeSocketTransport",
        "ServerBeeServerKit", "PushEnvelopeCrypto", "CSQLite", "COpenSSL",
        // The two-factor setup's QR code PNG (Protocol/Account.md §2.2).
        "ServerBeeQR",
      ],
      path: "Modules/ServerBeeSimulator"),
    // The push relay (Protocol/Relay.md); it never sees content keys, so never PushEnvelopeCrypto.
    .target(
      name: "ServerBeeRelay",
      dependencies: [
        "ServerBeeCore",
        "ServerBeeModels", "ServerBeeTransport", "ServerBeeSocketTransport", "ServerBeeServerKit",
        "ServerBeeHTTP2", "COpenSSL",
      ],
      path: "Modules/ServerBeeRelay"),
    // Public fakes for integrators' tests (a product): stub HTTP, fake WebSocket, manual clock,
    // fake session, static tokens, seeded randomness. Portable: it links Swift Testing and the
    // two portable modules below it, nothing else.
    .target(
      name: "ServerBeeTestSupport",
      dependencies: ["ServerBeeModels", "ServerBeeTransport"],
      path: "Modules/ServerBeeTestSupport"),
    // This repository's own test machinery, never a product: child processes under a watchdog,
    // PKI made with `openssl`, Python and raw-socket peers (the native stack and the server
    // for RawSocket), temporary directories, the crash writer's record.
    .target(
      name: "ServerBeeTestHarness",
      dependencies: [
        "ServerBeeModels", "ServerBeeTransport", "SecureStore", "ServerBeeSocketTransport",
        "ServerBeeServerKit",
      ],
      path: "Modules/ServerBeeTestHarness"),

    // The command line: its logic is a library so tests can drive it; `serverbee` is the
    // executable. It is an example client, so it may wire any module.
    .target(
      name: "ServerBeeCommandLine",
      dependencies: [
        "ServerBeeModels", "ServerBeeTransport", "SecureStore", "AuthSession", "RealtimeStream",
        "ServerBeeAPI", "ServerBeeKit", "NotificationPreferences", "PushEnvelopeCrypto",
        "DeepLinkValidation", "ServerBeeSimulator", "ServerBeeRelay", "ServerBeeSocketTransport",
        "ServerBeeQR", "ServerBeeRoutes",
      ],
      path: "Examples/ServerBeeCommandLine", exclude: ["README.md"]),
    .executableTarget(
      name: "serverbee", dependencies: ["ServerBeeCommandLine"], path: "Examples/serverbee"),

    // Executables.
    .executableTarget(
      name: "serverbee-bench",
      dependencies: [
        "ServerBeeModels", "ServerBeeTransport", "ServerBeeSocketTransport", "RealtimeStream",
        "PushEnvelopeCrypto",
      ],
      path: "Benchmarks/serverbee-bench"),
    .executableTarget(
      name: "push-pipeline-bench",
      dependencies: [
        "ServerBeeModels", "ServerBeeTransport", "ServerBeeSocketTransport",
        "ServerBeeURLSessionTransport", "PushEnvelopeCrypto", "ServerBeeSimulator",
        "ServerBeeRelay",
      ],
      path: "Benchmarks/push-pipeline-bench"),
    // The relay's cost per accepted send and its memory over many.
    .executableTarget(
      name: "relay-bench", dependencies: ["ServerBeeRelay", "ServerBeeModels"],
      path: "Benchmarks/relay-bench", exclude: ["instructions.sh", "apns.sh"]),
    // A decode-only process for the live-stream memory floor (Documentation/Performance.md §1).
    .executableTarget(
      name: "decode-probe", dependencies: ["RealtimeStream", "ServerBeeModels"],
      path: "Benchmarks/decode-probe"),
    // An extension-sized process for the push memory budget (Documentation/Performance.md §1).
    .executableTarget(
      name: "push-extension-probe",
      dependencies: [
        "PushEnvelopeCrypto", "ServerBeeModels",
        .target(name: "COpenSSL", condition: .when(platforms: [.linux])),
      ],
      path: "Benchmarks/push-extension-probe"),
    // The child process of SecureStore's crash and multi-process tests; never a product.
    .executableTarget(
      name: "securestore-crash-writer",
      dependencies: ["SecureStore", "ServerBeeModels", "ServerBeeTestHarness"],
      path: "Tests/SecureStoreCrashWriter"),
    .executableTarget(
      name: "serverbee-simulator",
      dependencies: ["ServerBeeSimulator", "ServerBeeModels", "ServerBeeServerKit"],
      path: "Examples/serverbee-simulator", exclude: ["README.md"]),
    .executableTarget(
      name: "serverbee-relay",
      dependencies: ["ServerBeeRelay", "ServerBeeModels", "ServerBeeServerKit"],
      path: "Examples/serverbee-relay", exclude: ["README.md", "serverbee-relay.service"]),

    // Tests: one target per module.
    .testTarget(
      name: "ServerBeeCoreTests", dependencies: ["ServerBeeCore"],
      path: "Tests/ServerBeeCoreTests"),
    .testTarget(
      name: "ServerBeeCryptoTests", dependencies: ["ServerBeeCrypto", "ServerBeeCore"],
      path: "Tests/ServerBeeCryptoTests"),
    .testTarget(
      name: "ServerBeeModelsTests",
      dependencies: ["ServerBeeModels"],
      path: "Tests/ServerBeeModelsTests",
      resources: [.copy("Fixtures")]),
    // The Python peers of the next three targets live once, in Tests/Peers (outside every
    // target; `PeerProcess.peersDirectory` finds them).
    .testTarget(
      name: "ServerBeeTransportTests",
      dependencies: ["ServerBeeTransport", "ServerBeeTestSupport", "ServerBeeTestHarness"],
      path: "Tests/ServerBeeTransportTests"),
    .testTarget(
      name: "ServerBeeURLSessionTransportTests",
      dependencies: ["ServerBeeURLSessionTransport", "ServerBeeTestHarness"],
      path: "Tests/ServerBeeURLSessionTransportTests"),
    // The native stack; ServerBeeServerKit's listener and server side are its loopback peers.
    .testTarget(
      name: "ServerBeeSocketTransportTests",
      dependencies: [
        "ServerBeeSocketTransport", "ServerBeeServerKit", "ServerBeeTestSupport",
        "ServerBeeTestHarness",
      ],
      path: "Tests/ServerBeeSocketTransportTests"),
    // URLSessionHTTPTransport is one of the clients HTTPServerRequest is tested against.
    .testTarget(
      name: "ServerBeeServerKitTests",
      dependencies: ["ServerBeeServerKit", "ServerBeeURLSessionTransport", "ServerBeeTestHarness"],
      path: "Tests/ServerBeeServerKitTests"),
    .testTarget(
      name: "SecureStoreTests",
      dependencies: ["SecureStore", "ServerBeeTestHarness", "CSQLite"],
      path: "Tests/SecureStoreTests"),
    .testTarget(
      name: "PushEnvelopeCryptoTests",
      dependencies: ["PushEnvelopeCrypto", "ServerBeeModels"],
      path: "Tests/PushEnvelopeCryptoTests"),
    .testTarget(
      name: "AuthSessionTests",
      dependencies: ["AuthSession", "ServerBeeTestSupport"],
      path: "Tests/AuthSessionTests"),
    // AuthSession against ServerBeeSimulator over loopback (its own target: it starts a peer).
    .testTarget(
      name: "AuthSessionIntegrationTests",
      dependencies: ["AuthSession", "ServerBeeSimulator", "ServerBeeTestSupport"],
      path: "Tests/AuthSessionIntegrationTests"),
    .testTarget(
      name: "RealtimeStreamTests",
      dependencies: ["RealtimeStream", "ServerBeeTestSupport"],
      path: "Tests/RealtimeStreamTests"),
    .testTarget(
      name: "RealtimeStreamIntegrationTests",
      dependencies: [
        "RealtimeStream", "AuthSession", "SecureStore", "ServerBeeSimulator",
        "ServerBeeSocketTransport", "ServerBeeTestSupport", "ServerBeeTestHarness",
      ],
      path: "Tests/RealtimeStreamIntegrationTests"),
    .testTarget(
      name: "ServerBeeAPITests",
      dependencies: ["ServerBeeAPI", "ServerBeeTestSupport"],
      path: "Tests/ServerBeeAPITests"),
    // ServerBeeAPI against ServerBeeSimulator over loopback, signed in with AuthSession.
    .testTarget(
      name: "ServerBeeAPIIntegrationTests",
      dependencies: [
        "ServerBeeAPI", "ServerBeeSimulator", "AuthSession", "ServerBeeURLSessionTransport",
      ],
      path: "Tests/ServerBeeAPIIntegrationTests"),
    .testTarget(
      name: "NotificationPreferencesTests",
      dependencies: [
        "NotificationPreferences", "ServerBeeModels", "ServerBeeTransport", "ServerBeeRoutes",
        "SecureStore", "ServerBeeTestSupport",
      ],
      path: "Tests/NotificationPreferencesTests"),
    // NotificationPreferences against ServerBeeSimulator and a real ServerBeeRelay in process.
    .testTarget(
      name: "NotificationPreferencesIntegrationTests",
      dependencies: [
        "NotificationPreferences", "ServerBeeModels", "ServerBeeTransport", "ServerBeeRoutes",
        "SecureStore", "PushEnvelopeCrypto", "ServerBeeSimulator", "ServerBeeRelay",
        "ServerBeeTestSupport",
        "ServerBeeTestHarness",
        // The device stream against a real relay over loopback.
        "ServerBeeSocketTransport",
      ],
      path: "Tests/NotificationPreferencesIntegrationTests"),
    .testTarget(
      name: "DeepLinkValidationTests",
      dependencies: [
        "DeepLinkValidation", "ServerBeeTestSupport", "PushEnvelopeCrypto", "ServerBeeAPI",
        "SecureStore", "ServerBeeModels", "ServerBeeTransport",
      ],
      path: "Tests/DeepLinkValidationTests"),
    // DeepLinkValidation against ServerBeeSimulator and a real ServerBeeRelay in process.
    .testTarget(
      name: "DeepLinkValidationIntegrationTests",
      dependencies: [
        "DeepLinkValidation", "ServerBeeModels", "ServerBeeTransport", "SecureStore",
        "PushEnvelopeCrypto", "ServerBeeSimulator", "ServerBeeRelay", "ServerBeeTestSupport",
      ],
      path: "Tests/DeepLinkValidationIntegrationTests"),
    // The QR encoder; its round-trip tests decode every rendering with zbarimg (zbar-tools).
    .testTarget(
      name: "ServerBeeQRTests",
      dependencies: ["ServerBeeQR", "ServerBeeCore", "CZlib", "ServerBeeTestHarness"],
      path: "Tests/ServerBeeQRTests"),
    .testTarget(
      name: "ServerBeeCommandLineTests",
      dependencies: [
        "ServerBeeCommandLine", "ServerBeeQR", "ServerBeeSocketTransport", "ServerBeeTestHarness",
        "ServerBeeRoutes",
      ],
      path: "Tests/ServerBeeCommandLineTests", exclude: ["Screens"]),
    .testTarget(
      name: "ServerBeeSimulatorTests",
      dependencies: [
        "ServerBeeSimulator", "ServerBeeTestSupport", "ServerBeeTestHarness", "PushEnvelopeCrypto",
        "ServerBeeRelay", "ServerBeeRoutes",
      ],
      path: "Tests/ServerBeeSimulatorTests"),
    // Documentation/Coverage.md, computed from the app's inventory, the catalogue, the SDK's
    // sources, the simulator's and the command line's tables.
    .testTarget(
      name: "CoverageTests",
      dependencies: [
        "ServerBeeRoutes", "ServerBeeTransport", "ServerBeeSimulator", "ServerBeeCommandLine",
      ],
      path: "Tests/CoverageTests"),
    .testTarget(
      name: "ServerBeeRoutesTests",
      dependencies: [
        "ServerBeeRoutes", "ServerBeeModels", "ServerBeeTransport", "ServerBeeTestSupport",
      ],
      path: "Tests/ServerBeeRoutesTests"),
    // Fixtures are the oracle: every catalogue route's fixture (written from the protocol's
    // documented examples, read from Tests/ServerBeeModelsTests/Fixtures) decodes with the
    // route's type, and the simulator answers each route in the fixture's shape.
    .testTarget(
      name: "WireFixtureTests",
      dependencies: [
        "ServerBeeRoutes", "ServerBeeSimulator", "ServerBeeModels", "ServerBeeTransport",
        "ServerBeeTestHarness",
      ],
      path: "Tests/WireFixtureTests"),
    .testTarget(
      name: "ServerBeeKitTests",
      dependencies: [
        "ServerBeeKit", "ServerBeeSimulator", "ServerBeeRelay", "ServerBeeTestSupport",
      ],
      path: "Tests/ServerBeeKitTests"),
    .testTarget(
      name: "ServerBeeHTTP2Tests",
      dependencies: [
        "ServerBeeHTTP2", "ServerBeeTransport", "ServerBeeTestHarness",
      ],
      path: "Tests/ServerBeeHTTP2Tests"),
    .testTarget(
      name: "ServerBeeRelayTests",
      dependencies: [
        "ServerBeeRelay", "ServerBeeModels", "ServerBeeTransport", "ServerBeeTestSupport",
        "ServerBeeTestHarness",
      ],
      path: "Tests/ServerBeeRelayTests"),
  ]
)

// House settings for every Swift target (Documentation/Architecture.md §7.1).
for target in package.targets where target.type != .system {
  var settings = target.swiftSettings ?? []
  settings.append(contentsOf: [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
  ])
  target.swiftSettings = settings
}
