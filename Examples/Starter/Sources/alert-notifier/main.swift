// alert-notifier: a Linux desktop or bot client of ServerBee's end-to-end encrypted pushes
// (see `--help` and README.md).
import Foundation
import ServerBeeKit
import StarterSupport

let usage = """
  usage: alert-notifier --relay URL [--server URL --username NAME | --pair QR-TEXT]
                        [--home DIR] [--count N] [--seconds N] [--keep-payloads DIR]
                        -- COMMAND [ARGUMENT…]

  A local device of a serverbee-relay: signs in (or uses the login in --home), turns
  notifications on, then for each push decrypts it with this login's content key and runs
  COMMAND with the title and body as its two last arguments (no shell). When COMMAND prints a
  line `open` (notify-send --action=open=Open --wait does on a click) the alert is opened.
  The first run prints the push privacy notice (what the relay and Apple can see) on stderr.
  End COMMAND's own options with -- so a title starting with - is not read as one.
  --keep-payloads saves each encrypted payload (for notification-extension).
  """

await runRecipe(usage: usage) { options in
  let relay = try options.url("relay", env: "SERVERBEE_RELAY")
  let command = try NotificationCommand(options.rest)
  let (count, seconds) = (try options.count("count"), try options.seconds("seconds"))
  // A local relay device: the relay issues its push token, holds its pushes while offline.
  let client = ServerBeeClient(
    store: try EncryptedSQLiteCredentialStore(directory: options.home()),
    configuration: .init(deviceName: "alert-notifier", localRelayURL: relay),
    push: .localRelayDevice)
  try await client.restore()
  if let scanned = options.value("pair") {
    try await client.pair(scannedPayload: scanned)
  } else if let server = options.value("server") {
    let outcome = try await client.signIn(
      server: server, username: try options.required("username"),
      password: try options.secret(env: "SERVERBEE_PASSWORD"))
    guard case .signedIn = outcome else { throw StarterError("this account needs a TOTP code") }
  }

  // Before notifications are first turned on, what the relay and Apple can and cannot see:
  // shown once per installation (running the recipe is the consent; an app asks instead).
  let notice = client.pushPrivacyNotice
  if try await !notice.isAcknowledged() {
    for line in PushPrivacyNotice.current.text(in: .english).split(separator: "\n") {
      note(String(line))
    }
    try await notice.acknowledge()
  }
  // The server confirms the settings; the relay issues the token; the content key is stored.
  let state = try await client.notifications.enable()
  if case .failed(let failure) = state.registration { throw failure.error }
  // The client's own transports and store: each push opened with only the extension-shared
  // content key (as a notification service extension does), each event once.
  let listener = try await client.localRelayListener(language: .english)
  let timer = seconds.map { limit in
    Task {
      try? await ContinuousClock().sleep(for: limit)
      listener.stop()
    }
  }
  defer { timer?.cancel() }
  await client.taps.markReady()
  var handled = 0
  for try await event in listener.events() {
    switch event {
    case .connected: note("listening for pushes from \(listener.relayURL.absoluteString)")
    case .reconnecting(let delay, let reason):
      note("relay went away (\(reason)), retry in \(delay)")
    case .push(let push):
      guard let opened = push.content else {
        note("a push did not open: \(push.failure ?? "unknown reason")")
        continue
      }
      let eventID = opened.content.eventID
      if let directory = options.value("keep-payloads") {
        let name = eventID.filter { $0.isLetter || $0.isNumber || $0 == "-" }
        try push.payload.write(
          to: URL(fileURLWithPath: directory).appendingPathComponent(name + ".json"))
      }
      let (title, body) = (push.notification.title, push.notification.body)
      let ran = try await command.run(title: terminalSafe(title), body: terminalSafe(body))
      say("push \(eventID) (\(opened.content.kind.rawValue)): command exited \(ran.status)")
      if ran.opens { await open(push.payload, with: client.taps) }
      handled += 1
      if let count, handled >= count { return }
    }
  }
}

/// A tap: the router checks the payload against this login, re-decrypts it for the tap and
/// loads the alert with the REST client.
func open(_ payload: Data, with taps: TapRouter) async {
  await taps.receive(PushTap(apnsPayload: payload))
  switch await taps.consume() {
  case .open(.alertDetail(let alert))?:
    say("opened the alert: \(alert.message), since \(alert.firstTriggeredAt)")
  case .open?: say("opened the notification")
  case .unavailable(let reason)?: say("nothing to open: \(reason.fallback.title ?? "unavailable")")
  case nil: break
  }
}
