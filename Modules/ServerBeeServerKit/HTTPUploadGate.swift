import ServerBeeModels
package import ServerBeeSocketTransport
import ServerBeeTransport

/// Decides about a request whose head has arrived but whose body has not (all of it) yet,
/// before the server waits for the body: the relay counts such uploads as in flight
/// (Protocol/Relay.md's `RelayBusy` cap) and refuses from the head alone what it can.
///
/// ```swift
/// var configuration = HTTPServer.Configuration()
/// configuration.uploadGate = { head, connection in
///   guard busy else { return .proceed(HTTPRequestTicket { print("request over") }) }
///   return .answer(HTTPResponseHead(status: 503, reason: "Service Unavailable", headers: [:]))
/// }
/// ```
///
/// It is called once per such request, on the connection's thread, with no lock of the
/// connection held; it must not block. A request whose body arrived with its head (the common
/// case for small bodies) never meets the gate: its handler sees it complete.
package typealias HTTPUploadGate =
  @Sendable (_ head: HTTPRequestHead, _ connection: HTTPServerConnection) -> HTTPUploadDecision

/// What an ``HTTPUploadGate`` decided.
package enum HTTPUploadDecision: Sendable {
  /// Read the body and hand the request to the handler; the ticket, if any, travels with it
  /// (``HTTPServerRequest/ticket``) and is ended once, when the request is answered or when the
  /// connection gives up on it (timeout, shed, peer gone).
  case proceed(HTTPRequestTicket?)
  /// Answer now, without reading the body, and close the connection (after reading and
  /// dropping what the peer still sends for at most a second, so that the answer is not lost
  /// to a reset).
  case answer(HTTPResponseHead, body: [UInt8])
}

/// Something held for one request until it is over, such as an in-flight slot: ``end()`` runs
/// its action exactly once, whoever calls it first.
///
/// ```swift
/// let ticket = HTTPRequestTicket { inFlight.withLock { $0 -= 1 } }
/// ticket.end()
/// ticket.end()  // nothing more
/// ```
package final class HTTPRequestTicket: Sendable {
  private let action: Locked<(@Sendable () -> Void)?>

  /// Creates a ticket.
  /// - Parameter onEnd: What to do when the request is over.
  package init(onEnd: @escaping @Sendable () -> Void) {
    action = Locked(onEnd)
  }

  /// Runs the action unless it already ran.
  package func end() {
    let action = action.withLock { action -> (@Sendable () -> Void)? in
      defer { action = nil }
      return action
    }
    action?()
  }
}
