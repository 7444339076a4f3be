import Foundation
import ServerBeeModels
package import ServerBeeTransport

/// A working in-memory ``WebSocketConnection`` whose server end the test drives.
///
/// ```swift
/// let connection = FakeWebSocketConnection()
/// connection.serverSend(.text(#"{"type":"full_sync",…}"#))   // the client receives it
/// let sent = await connection.clientMessages.first { _ in true } // what the client sent
/// connection.serverClose(code: .tokenExpired, reason: "token expired")
/// ```
package final class FakeWebSocketConnection: WebSocketConnection, @unchecked Sendable {
  // @unchecked: the mutable state is behind `lock`; streams and continuations are Sendable.
  package let inbound: AsyncThrowingStream<WebSocketMessage, any Error>
  /// What the client sent, in order, for the test to await.
  package let clientMessages: AsyncStream<WebSocketMessage>

  private let inboundContinuation: AsyncThrowingStream<WebSocketMessage, any Error>.Continuation
  private let clientContinuation: AsyncStream<WebSocketMessage>.Continuation
  private let lock = NSLock()
  private var state = State()

  private struct State {
    var serverClose: WebSocketClose?
    var clientClose: WebSocketClose?
    var sent: [WebSocketMessage] = []
    var pings = 0
    var closed = false
    var pingFailure: (any Error & Sendable)?
  }

  /// Creates an open connection.
  package init() {
    (inbound, inboundContinuation) = AsyncThrowingStream.makeStream(
      of: WebSocketMessage.self, throwing: (any Error).self)
    (clientMessages, clientContinuation) = AsyncStream.makeStream(of: WebSocketMessage.self)
  }

  // MARK: Client side

  /// The server's close frame, once ``serverClose(code:reason:)`` was called.
  package var receivedClose: WebSocketClose? { lock.withLock { state.serverClose } }

  /// Records the message and hands it to ``clientMessages``.
  /// - Parameter message: The message.
  /// - Throws: `ServerBeeTransportError` `connectionClosed` after a close.
  package func send(_ message: WebSocketMessage) async throws {
    let closed = lock.withLock { () -> Bool in
      if state.closed { return true }
      state.sent.append(message)
      return false
    }
    if closed { throw ServerBeeTransportError(.connectionClosed, "the fake connection is closed") }
    clientContinuation.yield(message)
  }

  /// Counts the ping; throws the error set by ``failPings(with:)``, if any.
  package func ping() async throws {
    let failure = lock.withLock { () -> (any Error & Sendable)? in
      state.pings += 1
      return state.closed ? ServerBeeTransportError(.connectionClosed, "closed") : state.pingFailure
    }
    if let failure { throw failure }
  }

  /// Records the client's close and finishes both streams.
  /// - Parameters:
  ///   - code: The close code.
  ///   - reason: The reason.
  package func close(code: WebSocketCloseCode, reason: String?) async {
    lock.withLock {
      if state.clientClose == nil {
        state.clientClose = WebSocketClose(code: code, reason: reason ?? "")
      }
      state.closed = true
    }
    inboundContinuation.finish()
    clientContinuation.finish()
  }

  // MARK: Server side (driven by the test)

  /// Delivers a message to the client.
  /// - Parameter message: The message.
  package func serverSend(_ message: WebSocketMessage) { inboundContinuation.yield(message) }

  /// Closes from the server: sets ``receivedClose`` and finishes the client's stream normally.
  /// - Parameters:
  ///   - code: The close code.
  ///   - reason: The reason.
  package func serverClose(code: WebSocketCloseCode, reason: String = "") {
    lock.withLock {
      state.serverClose = WebSocketClose(code: code, reason: reason)
      state.closed = true
    }
    inboundContinuation.finish()
    clientContinuation.finish()
  }

  /// Ends the connection abnormally: the client's stream throws `error`.
  /// - Parameter error: The error, for example `ServerBeeTransportError(.connectionLost, …)`.
  package func serverFail(_ error: any Error & Sendable) {
    lock.withLock { state.closed = true }
    inboundContinuation.finish(throwing: error)
    clientContinuation.finish()
  }

  /// Makes later pings throw `error` (a dead peer).
  /// - Parameter error: The error.
  package func failPings(with error: any Error & Sendable) {
    lock.withLock { state.pingFailure = error }
  }

  /// Everything the client sent so far.
  package var sentMessages: [WebSocketMessage] { lock.withLock { state.sent } }
  /// The client's close, if it closed.
  package var clientClose: WebSocketClose? { lock.withLock { state.clientClose } }
  /// How many pings the client sent.
  package var pingCount: Int { lock.withLock { state.pings } }
}
