import AuthSession
import Foundation
import SecureStore
import ServerBeeAPI
import ServerBeeModels
import ServerBeeTransport

/// `serverbee demo`: the whole client against an embedded simulator, step by step.
enum DemoCommand {
  /// Runs the demo.
  static func run(_ context: CommandContext) async throws {
    let console = context.console
    guard !console.json else {
      throw CommandLineError(.usage, "demo is for people and has no --json output")
    }
    // 16 s of live metrics keep the whole demo, pushes included, at about 20 s.
    let duration = try context.arguments.seconds("duration") ?? 16
    let scratch = FileManager.default.temporaryDirectory
      .appendingPathComponent("serverbee-demo-\(UUID().uuidString)", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let home =
      context.arguments.values["home"] == nil
      ? scratch.appendingPathComponent("home", isDirectory: true) : context.home
    var steps = DemoSteps(console: console)

    steps.begin("Starting an embedded ServerBee simulator on 127.0.0.1 (no network needed)")
    let world = try await DemoWorld.start(
      dataDirectory: scratch.appendingPathComponent("simulator", isDirectory: true))
    defer { world.stop() }
    console.line("    \(world.url.absoluteString): 1 admin, 12 servers (2 offline), 5 alerts")
    console.line(
      "    push relay \(world.relayURL.absoluteString): the simulator delivers encrypted "
        + "pushes through it")

    steps.begin("Generating a pairing code, as Settings → Mobile Devices does in the web app")
    let payload = try await world.pairingPayload()
    console.line("    QR payload: \(payload)")
    if let drawing = QRDrawing.text(for: payload) {
      console.line(drawing)
    }

    steps.begin("Pairing this client through the SDK: AuthClient.pair(scannedPayload:)")
    // The embedded relay issues this installation's device token, as `--relay` would.
    let session = try ClientSession.open(home: home, console: console, relay: world.relayURL)
    try await session.prepare()
    let identity = try await session.auth.pair(scannedPayload: payload)
    try await session.auth.confirmDeletionProof()
    console.line("    paired as \(IdentitySummary(identity).sentence)")
    console.line("    session \(identity.mobileSessionID ?? "-"), stored encrypted in \(home.path)")
    console.line("    one refresh made the server confirm a deletion proof: logout works offline")

    steps.begin("A second device signs in with the admin's password (for the device list)")
    let phone = AuthClient(
      configuration: .init(deviceName: "Ada's iPhone", refreshesProactively: false),
      store: InMemoryCredentialStore(), transport: session.http)
    _ = try await phone.login(
      server: world.url.absoluteString, username: "admin", password: world.adminPassword)
    console.line("    signed in as \"Ada's iPhone\"")

    steps.begin(
      "Streaming live metrics for \(String(format: "%g", duration)) s over /api/ws/servers")
    try await streamMetrics(session: session, server: identity.server, duration: duration)
    steps = try await DemoPushes.run(session: session, world: world, steps: steps)

    let api = ServerBeeAPIClient(server: identity.server, transport: session.api)
    steps.begin("Alerts: GET /api/alert-events")
    try await DataCommands.printAlerts(try await api.alertEvents(limit: 20), console: console)

    steps.begin("Devices: GET /api/mobile/auth/devices (* marks this client)")
    let devicesBefore = try await api.devices()
    try await DataCommands.printDevices(
      devicesBefore, current: identity.installationID, console: console)

    let oldToken = try await session.auth.validAccessToken()
    steps.begin("Logging out with revocation: AuthClient.logout()")
    console.line("    " + SessionCommands.describe(try await session.auth.logout()).1)

    steps.begin("Checking that the session is gone")
    try await verifySignedOut(
      session: session, world: world, server: identity.server, oldToken: oldToken,
      devicesBefore: devicesBefore.count)
    console.line("")
    console.line(
      "Demo finished. Against your own server: serverbee pair '<QR payload>' (see README).")
  }

  private static func streamMetrics(session: ClientSession, server: ServerURL, duration: Double)
    async throws
  {
    let console = session.console
    try await FleetFeed.with(session: session, server: server) { feed in
      _ = try await Spinner.run("waiting for the first full sync", console: console) {
        try await feed.firstSync()
      }
      var table = LiveTable(mode: LiveTable.mode(for: console), server: server)
      let interval = console.stdoutIsTerminal ? 1 : max(1, duration / 3)
      try await WatchCommand.stream(
        feed, into: &table, console: console, interval: interval, duration: duration)
    }
  }

  private static func verifySignedOut(
    session: ClientSession, world: DemoWorld, server: ServerURL, oldToken: String,
    devicesBefore: Int
  ) async throws {
    let console = session.console
    let devicesURL = server.endpoint("/api/mobile/auth/devices")
    let withOldToken = try await session.http.send(
      HTTPRequest(url: devicesURL, headers: ["authorization": "Bearer " + oldToken]))
    guard withOldToken.status == 401 else {
      throw CommandLineError(
        .unexpectedAnswer, "the old token still works (HTTP \(withOldToken.status))")
    }
    console.line("    ✓ a request with the old access token now gets HTTP 401")
    guard session.auth.currentState == .signedOut else {
      throw CommandLineError(.unexpectedAnswer, "a login is still stored")
    }
    console.line("    ✓ nothing is stored any more: serverbee status says signed out")
    let key = try await world.apiKey()
    let remaining = try await session.http.send(
      HTTPRequest(url: devicesURL, headers: ["x-api-key": key]))
    let devices = try APIResponse<[MobileDevice]>.payload(
      status: remaining.status, body: remaining.body)
    guard devices.count == devicesBefore - 1 else {
      throw CommandLineError(.unexpectedAnswer, "the device list did not shrink")
    }
    let names = devices.map(\.deviceName).joined(separator: ", ")
    console.line(
      "    ✓ the account's devices: \(devicesBefore) → \(devices.count) (\(names) remains)")
  }
}
