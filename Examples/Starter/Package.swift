// swift-tools-version:6.0
import PackageDescription

// Small recipes on ServerBeeKit's public API, in a package of their own (as yours would be):
// the SDK comes in by path, so nothing `package`-level is visible here. Copy a recipe, then
// depend on ServerBeeKit by URL instead.
let serverBeeKit = Target.Dependency.product(name: "ServerBeeKit", package: "ServerBeeKit")

let package = Package(
  name: "Starter",
  platforms: [.macOS(.v14)],
  dependencies: [
    // `name:` keeps the package's name whatever the checkout's folder is called.
    .package(name: "ServerBeeKit", path: "../..")
  ],
  targets: [
    // What the recipes share: options, safe terminal text, one-sentence errors, and the two
    // pieces worth a unit test (the API-key report, the fleet board's lines).
    .target(name: "StarterSupport", dependencies: [serverBeeKit]),
    .executableTarget(name: "fleet-board", dependencies: ["StarterSupport", serverBeeKit]),
    .executableTarget(name: "alert-notifier", dependencies: ["StarterSupport", serverBeeKit]),
    .executableTarget(
      name: "notification-extension", dependencies: ["StarterSupport", serverBeeKit]),
    .executableTarget(name: "api-key-report", dependencies: ["StarterSupport", serverBeeKit]),
    // Tests with the SDK's public fakes, exactly as an integrator's tests would use them.
    .testTarget(
      name: "StarterSupportTests",
      dependencies: [
        "StarterSupport", serverBeeKit,
        .product(name: "ServerBeeTestSupport", package: "ServerBeeKit"),
      ]),
  ]
)

for target in package.targets {
  target.swiftSettings =
    (target.swiftSettings ?? []) + [
      .enableUpcomingFeature("ExistentialAny"),
      .enableUpcomingFeature("InternalImportsByDefault"),
      .enableUpcomingFeature("MemberImportVisibility"),
    ]
}
