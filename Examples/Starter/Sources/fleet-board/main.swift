// fleet-board: sign in (or pair), then print the live fleet as it changes.
//
//   SERVERBEE_PASSWORD=… fleet-board --server https://monitor.example.com --username ada
//   fleet-board --pair "$(zbarimg --raw -q qr.png)" --seconds 30
//   fleet-board                      # later runs: the login stored in --home
import Foundation
import ServerBeeKit
import StarterSupport

let usage = """
  usage: fleet-board [--server URL --username NAME [--totp CODE] | --pair QR-TEXT]
                     [--home DIR] [--seconds N] [--top N] [--sign-out]

  Signs in with $SERVERBEE_PASSWORD (or pairs with the text of a ServerBee QR code), keeps the
  login encrypted in --home (default ~/.serverbee-starter), then prints the live fleet after
  every change: a summary and the --top (3) busiest servers. --seconds ends the run; without
  it, Ctrl-C does. --sign-out revokes the login at the end.
  """

await runRecipe(usage: usage, flags: ["sign-out"]) { options in
  let seconds = try options.seconds("seconds")
  let top = try options.count("top") ?? 3
  // The encrypted store, the platform's transports (the native stack on Linux) and an auth
  // client that refreshes its tokens: all wired by the facade.
  let client = try ServerBeeClient(home: options.home(), deviceName: "fleet-board")
  try await client.restore()
  if let scanned = options.value("pair") {
    let identity = try await client.pair(scannedPayload: scanned)
    note("paired as \(identity.user.username) with \(identity.server)")
  } else if let server = options.value("server") {
    let outcome = try await client.signIn(
      server: server, username: try options.required("username"),
      password: try options.secret(env: "SERVERBEE_PASSWORD"),
      totpCode: options.value("totp"))
    guard case .signedIn(let identity) = outcome else {
      throw StarterError(usage: "this account has two-factor authentication: add --totp CODE")
    }
    note("signed in as \(identity.user.username) on \(identity.server)")
  }

  // Server names and totals from GET /api/servers, live metrics from /api/ws/servers.
  let fleet = try await client.watchFleet()
  _ = try await fleet.firstSync()
  let timer = seconds.map { limit in
    Task {
      try? await ContinuousClock().sleep(for: limit)
      await fleet.stop()  // ends the snapshots below
    }
  }
  var board = FleetBoard(top: top)
  for await snapshot in await fleet.stream.snapshots() where snapshot.isSynchronized {
    board.update(snapshot, at: Date())?.forEach(say)
  }
  timer?.cancel()

  if options.flag("sign-out") {
    try await client.signOut()
    note("signed out")
  }
}
