package import Foundation
import ServerBeeModels
package import ServerBeeTransport
import Testing

/// A ``WebSocketTransport`` that follows a per-connect script: hand back a connection the test
/// drives, or fail.
///
/// ```swift
/// let transport = FakeWebSocketTransport()
/// let first = await transport.enqueueConnection()
/// await transport.enqueueFailure(ServerBeeTransportError(.upgradeRejected, "401", httpStatus: 401))
/// // … run the client; then drive `first` and inspect `await transport.connectRequests`
/// ```
package actor FakeWebSocketTransport: WebSocketTransport {
  /// One scripted outcome of `connect`.
  package enum Step: Sendable {
    /// Succeed with this connection.
    case succeed(FakeWebSocketConnection)
    /// Throw this error.
    case fail(any Error & Sendable)
  }

  private var steps: [Step] = []
  private var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
  /// Every connect call's URL and headers, in order.
  package private(set) var connectRequests: [(url: URL, headers: HTTPHeaders)] = []

  /// Creates a transport with an empty script.
  package init() {}

  /// Scripts a successful connect and returns the connection the test will drive.
  /// - Returns: The connection the next `connect` returns.
  @discardableResult
  package func enqueueConnection() -> FakeWebSocketConnection {
    let connection = FakeWebSocketConnection()
    steps.append(.succeed(connection))
    return connection
  }

  /// Scripts a failing connect.
  /// - Parameter error: The error the next `connect` throws.
  package func enqueueFailure(_ error: any Error & Sendable) { steps.append(.fail(error)) }

  /// Follows the next scripted step.
  /// - Parameters:
  ///   - url: The URL.
  ///   - headers: The handshake headers.
  /// - Returns: The scripted connection.
  /// - Throws: The scripted error; an unscripted call records an issue and throws.
  package func connect(to url: URL, headers: HTTPHeaders) async throws -> any WebSocketConnection {
    connectRequests.append((url, headers))
    let ready = waiters.filter { $0.count <= connectRequests.count }
    waiters.removeAll { $0.count <= connectRequests.count }
    for waiter in ready { waiter.continuation.resume() }
    guard !steps.isEmpty else {
      Issue.record("unexpected WebSocket connect to \(url)")
      throw ServerBeeTransportError(.connectionFailed, "no scripted connect left")
    }
    switch steps.removeFirst() {
    case .succeed(let connection): return connection
    case .fail(let error): throw error
    }
  }

  /// Waits until `connect` has been called at least `count` times.
  /// - Parameter count: The number of calls to wait for.
  package func waitForConnects(_ count: Int) async {
    guard connectRequests.count < count else { return }
    await withCheckedContinuation { waiters.append((count, $0)) }
  }
}
