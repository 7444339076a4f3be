public import Foundation
import ServerBeeModels
public import ServerBeeTransport

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A `WebSocketTransport` on `URLSessionWebSocketTask`: the default on Apple platforms, where
/// it uses the system's TLS trust settings and networking stack.
///
/// ```swift
/// let transport = URLSessionWebSocketTransport()
/// let connection = try await transport.connect(
///   to: URL(string: "wss://bee.example/api/ws/servers")!,
///   headers: ["Authorization": "Bearer \(token)"])
/// for try await message in connection.inbound { print(message) }
/// ```
///
/// - The opening handshake is bounded by ``Configuration/connectTimeout``; a refused upgrade
///   throws `.upgradeRejected` with the HTTP status in `httpStatus` when URLSession reports it.
/// - Inbound messages are limited to ``Configuration/maxMessageSize`` bytes
///   (`maximumMessageSize`); URLSession answers ping frames itself.
/// - Close codes and reasons from the peer are kept in `WebSocketConnection/receivedClose`.
///
/// It compiles on Linux too, but swift-corelibs-foundation's WebSocket task does not work
/// there; on Linux use `SocketWebSocketTransport` (module ServerBeeSocketTransport), which also
/// honours `TLSTrust`. This transport trusts what the system trusts and takes no pins.
public final class URLSessionWebSocketTransport: WebSocketTransport {
  /// Settings for ``URLSessionWebSocketTransport``.
  public struct Configuration: Sendable, Hashable {
    /// How long the TCP, TLS and WebSocket handshakes may take together; 15 s by default.
    public var connectTimeout: Duration
    /// The largest inbound message; 16 MiB by default.
    public var maxMessageSize: Int

    /// Creates a configuration.
    /// - Parameters:
    ///   - connectTimeout: The handshake deadline.
    ///   - maxMessageSize: The largest inbound message in bytes.
    public init(connectTimeout: Duration = .seconds(15), maxMessageSize: Int = 16 << 20) {
      self.connectTimeout = connectTimeout
      self.maxMessageSize = maxMessageSize
    }
  }

  private let configuration: Configuration

  /// Creates a transport; each connection gets its own ephemeral `URLSession`.
  /// - Parameter configuration: The settings; defaults apply when omitted.
  public init(configuration: Configuration = Configuration()) {
    self.configuration = configuration
  }

  /// Connects and completes the opening handshake.
  /// - Parameters:
  ///   - url: A `ws` or `wss` URL.
  ///   - headers: Extra handshake headers, such as `Authorization`.
  /// - Returns: The open connection.
  /// - Throws: `ServerBeeTransportError` (`.invalidURL`, `.timedOut`, `.upgradeRejected`,
  ///   `.tlsUntrustedCertificate`, `.connectionFailed`, …); `CancellationError` when cancelled.
  public func connect(to url: URL, headers: HTTPHeaders) async throws -> any WebSocketConnection {
    guard let scheme = url.scheme?.lowercased(), scheme == "ws" || scheme == "wss",
      url.host?.isEmpty == false
    else {
      throw ServerBeeTransportError(
        .invalidURL, "a WebSocket URL must be ws:// or wss:// with a host")
    }
    var request = URLRequest(url: url)
    request.timeoutInterval = URLSessionFailure.seconds(configuration.connectTimeout)
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    let delegate = WebSocketTaskEvents()
    let sessionConfiguration = URLSessionConfiguration.ephemeral
    sessionConfiguration.httpCookieAcceptPolicy = .never
    sessionConfiguration.httpShouldSetCookies = false
    sessionConfiguration.urlCache = nil
    let session = URLSession(
      configuration: sessionConfiguration, delegate: delegate, delegateQueue: nil)
    let task = session.webSocketTask(with: request)
    task.maximumMessageSize = configuration.maxMessageSize
    let connection = URLSessionWebSocketConnection(task: task, session: session, delegate: delegate)
    let timeout = configuration.connectTimeout
    do {
      try await withTaskCancellationHandler {
        try await withThrowingTaskGroup(of: Void.self) { group in
          group.addTask { try await delegate.waitForOpen(task: task) }
          group.addTask {
            try await Task.sleep(for: timeout)
            throw ServerBeeTransportError(.timedOut, "the WebSocket handshake timed out")
          }
          defer { group.cancelAll() }
          try await group.next()
        }
      } onCancel: {
        task.cancel()
      }
    } catch {
      task.cancel()
      session.invalidateAndCancel()
      throw Self.mapped(error, task: task)
    }
    connection.startReceiving()
    return connection
  }

  /// Maps a URLSession failure: a refused upgrade (an HTTP status other than 101) first.
  static func mapped(_ error: any Error, task: URLSessionTask?) -> any Error {
    if error is CancellationError || Task.isCancelled { return CancellationError() }
    if error is ServerBeeTransportError { return error }
    if let status = (task?.response as? HTTPURLResponse)?.statusCode, status != 101 {
      return ServerBeeTransportError(
        .upgradeRejected, "the server refused the WebSocket upgrade", httpStatus: status)
    }
    if (error as? URLError)?.code == .badServerResponse {
      return ServerBeeTransportError(.handshakeInvalid, "the WebSocket handshake was invalid")
    }
    return URLSessionFailure.mapped(error, what: "the WebSocket connection")
  }
}

/// Session events for one task: the open, the peer's close and completion.
private final class WebSocketTaskEvents: NSObject, URLSessionWebSocketDelegate,
  @unchecked Sendable
{
  // @unchecked: all state is inside `state`, a lock.
  private struct State {
    var opened = false
    var failure: (any Error)?
    var waiter: CheckedContinuation<Void, any Error>?
    var close: WebSocketClose?
  }
  private let state = Locked(State())

  var receivedClose: WebSocketClose? { state.withLock { $0.close } }

  func waitForOpen(task: URLSessionWebSocketTask) async throws {
    try await withCheckedThrowingContinuation {
      (continuation: CheckedContinuation<Void, any Error>) in
      let ready: Result<Void, any Error>? = state.withLock { state in
        if state.opened { return .success(()) }
        if let failure = state.failure { return .failure(failure) }
        state.waiter = continuation
        return nil
      }
      switch ready {
      case .success?: continuation.resume()
      case .failure(let error)?: continuation.resume(throwing: error)
      case nil: task.resume()
      }
    }
  }

  private func settle(_ result: Result<Void, any Error>) {
    let waiter: CheckedContinuation<Void, any Error>? = state.withLock { state in
      switch result {
      case .success: state.opened = true
      case .failure(let error): if !state.opened { state.failure = error }
      }
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume(with: result)
  }

  func urlSession(
    _ session: URLSession, webSocketTask: URLSessionWebSocketTask,
    didOpenWithProtocol protocol: String?
  ) {
    settle(.success(()))
  }

  func urlSession(
    _ session: URLSession, webSocketTask: URLSessionWebSocketTask,
    didCloseWith closeCode: URLSessionWebSocketTask.CloseCode, reason: Data?
  ) {
    let text = reason.flatMap { String(data: $0, encoding: .utf8) } ?? ""
    let close = WebSocketClose(
      code: WebSocketCloseCode(rawValue: UInt16(clamping: closeCode.rawValue)), reason: text)
    state.withLock { $0.close = close }
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?
  ) {
    settle(.failure(error ?? ServerBeeTransportError(.connectionLost, "the connection ended")))
  }
}

/// One open `URLSessionWebSocketTask` behind `WebSocketConnection`.
private final class URLSessionWebSocketConnection: WebSocketConnection, @unchecked Sendable {
  // @unchecked: the task and session are thread-safe; `continuation` is set once in init.
  let inbound: AsyncThrowingStream<WebSocketMessage, any Error>
  private let continuation: AsyncThrowingStream<WebSocketMessage, any Error>.Continuation
  private let task: URLSessionWebSocketTask
  private let session: URLSession
  private let delegate: WebSocketTaskEvents
  private let closing = Locked(false)

  init(task: URLSessionWebSocketTask, session: URLSession, delegate: WebSocketTaskEvents) {
    self.task = task
    self.session = session
    self.delegate = delegate
    (inbound, continuation) = AsyncThrowingStream.makeStream(bufferingPolicy: .unbounded)
    let task = task
    continuation.onTermination = { reason in
      if case .cancelled = reason { task.cancel(with: .goingAway, reason: nil) }
    }
  }

  deinit { session.invalidateAndCancel() }

  var receivedClose: WebSocketClose? {
    get async { delegate.receivedClose }
  }

  /// Receives one message at a time (URLSession's own flow control) until the task ends.
  func startReceiving() {
    task.receive { [weak self] result in
      guard let self else { return }
      switch result {
      case .success(.string(let text)):
        continuation.yield(.text(text))
        startReceiving()
      case .success(.data(let data)):
        continuation.yield(.binary(data))
        startReceiving()
      case .success:
        startReceiving()
      case .failure(let error):
        if closing.withLock({ $0 }) || delegate.receivedClose != nil {
          continuation.finish()
        } else {
          continuation.finish(throwing: URLSessionWebSocketTransport.mapped(error, task: nil))
        }
        session.finishTasksAndInvalidate()
      }
    }
  }

  func send(_ message: WebSocketMessage) async throws {
    guard !closing.withLock({ $0 }) else {
      throw ServerBeeTransportError(.connectionClosed, "the WebSocket is closed")
    }
    let outgoing: URLSessionWebSocketTask.Message
    switch message {
    case .text(let text): outgoing = .string(text)
    case .binary(let data): outgoing = .data(data)
    }
    do {
      try await task.send(outgoing)
    } catch {
      throw URLSessionWebSocketTransport.mapped(error, task: nil)
    }
  }

  func ping() async throws {
    try await withCheckedThrowingContinuation {
      (continuation: CheckedContinuation<Void, any Error>) in
      task.sendPing { error in
        if let error {
          continuation.resume(throwing: URLSessionWebSocketTransport.mapped(error, task: nil))
        } else {
          continuation.resume()
        }
      }
    }
  }

  func close(code: WebSocketCloseCode, reason: String?) async {
    let first = closing.withLock { closing in
      defer { closing = true }
      return !closing
    }
    guard first else { return }
    let reasonData = reason.map { Data($0.utf8.prefix(123)) }
    let closeCode =
      URLSessionWebSocketTask.CloseCode(rawValue: Int(code.rawValue)) ?? .normalClosure
    task.cancel(with: closeCode, reason: reasonData)
  }
}
