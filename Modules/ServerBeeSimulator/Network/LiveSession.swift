import Foundation
import ServerBeeModels
import ServerBeeServerKit
import ServerBeeSocketTransport
import ServerBeeTransport

/// Server side of `/api/ws/servers` (Protocol/LiveStream.md): header auth, `full_sync` first, hub
/// frames, a fresh `full_sync` after lag, and close 4001 `token expired` at a mobile token's fixed
/// expiry.
///
/// The upgrade, framing, pings and the close handshake are the transport's
/// (``HTTPServerRequest/acceptWebSocket(options:)``); this type only decides what to send.
/// Client messages are read and ignored; the session ends when the client closes.
struct LiveSession {
  let core: SimulatorCore
  let request: HTTPServerRequest

  /// The largest client message accepted (1 MiB); larger ones close with 1009.
  static let maximumMessage = 1 << 20
  /// Token expiry closes with this application code (Protocol/LiveStream.md).
  static let tokenExpired = WebSocketCloseCode(rawValue: 4001)

  func run() async {
    let core = core
    let headers = request.head.headers
    let caller = try? await request.connection.runBlocking {
      try core.db.serial { try core.authenticate(headers) }
    }
    guard let caller = caller ?? nil, !caller.user.mustChangePassword else {
      await request.respond(HTTPListener.head(401))
      return
    }
    // The WebSocket needs 2 more descriptors (its wake pipe) after the `101`; without them
    // the client would get the `101` and then nothing. Refused while it can.
    guard ConnectionBudget.canOpen(2) else {
      core.refusals.refused(
        "refusing WebSockets with 503: out of file descriptors (limit "
          + "\(ConnectionBudget.descriptorLimit); raise `ulimit -n`)")
      await request.respond(HTTPListener.head(503))
      return
    }
    guard
      let socket = try? await request.acceptWebSocket(
        options: WebSocketServerOptions(maxMessageSize: Self.maximumMessage, compression: false))
    else { return }
    // Mobile tokens die at their fixed expiry; cookies and API keys are never closed for it.
    let expiry: Int64? = caller.source == "mobile" ? caller.expiresAt : nil
    let subscriber = core.hub.subscribe()
    defer { core.hub.unsubscribe(subscriber) }
    let readerDone = Locked(false)
    let reader = Task {
      do {
        for try await _ in socket.inbound {}
      } catch {}
      readerDone.withLock { $0 = true }
      subscriber.wake()
    }
    defer { reader.cancel() }
    let (code, reason) = await stream(to: socket, expiry: expiry, subscriber, readerDone)
    await socket.close(code: code, reason: reason)
  }

  /// Sends frames until the session must end; returns the close code and reason to send.
  private func stream(
    to socket: any WebSocketConnection, expiry: Int64?, _ subscriber: LiveHub.Subscriber,
    _ readerDone: Locked<Bool>
  ) async -> (WebSocketCloseCode, String?) {
    guard await sendFullSync(socket) else { return (.goingAway, nil) }
    while true {
      if let expiry, core.clock.nowNanos >= expiry { return (Self.tokenExpired, "token expired") }
      var wait: TimeInterval = 1
      if let expiry {
        let remaining = Double(expiry - core.clock.nowNanos) / 1e9
        wait = max(0.001, min(wait, remaining))
      }
      let (frames, resync, closed) = await subscriber.next(timeout: wait)
      if closed { return (.goingAway, "") }
      if readerDone.withLock({ $0 }) { return (.normalClosure, nil) }
      if resync, await !sendFullSync(socket) { return (.goingAway, nil) }
      for frame in frames {
        guard (try? await socket.send(.text(String(decoding: frame, as: UTF8.self)))) != nil
        else { return (.goingAway, nil) }
      }
    }
  }

  private func sendFullSync(_ socket: any WebSocketConnection) async -> Bool {
    let core = core
    guard
      let sync = try? await request.connection.runBlocking({
        // Rows under the lock, the frame written after it.
        try core.db.serial { try core.fullSyncSource() }()
      })
    else { return false }
    return (try? await socket.send(.text(sync))) != nil
  }
}
