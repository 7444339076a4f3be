import ServerBeeModels

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a kept-alive connection leads: requests share a connection only with the same origin.
struct HTTPOrigin: Hashable, Sendable {
  var secure: Bool
  var host: String
  var port: UInt16
}

/// One open HTTP connection, handed from one request's I/O thread to the next through the pool.
///
/// `@unchecked Sendable`: a stream is used by one thread at a time; the pool's lock orders the
/// hand-over (the request that kept it stops touching it before another can take it).
final class HTTPPooledStream: @unchecked Sendable {
  let stream: any ByteStream
  var idleSince: ContinuousClock.Instant = .now

  init(_ stream: any ByteStream) { self.stream = stream }

  /// Whether the connection can carry a request: the server has neither closed it nor sent
  /// anything unasked (a non-blocking read finds nothing; TLS housekeeping records such as
  /// session tickets are consumed by that read and do not count).
  func isReusable() -> Bool {
    var byte: UInt8 = 0
    let result = try? withUnsafeMutableBytes(of: &byte) { try stream.read(into: $0) }
    return result == .wouldBlock
  }
}

/// The idle connections of one `SocketHTTPTransport`, per origin, newest last.
final class HTTPConnectionPool: Sendable {
  private struct State {
    var idle: [HTTPOrigin: [HTTPPooledStream]] = [:]
    var opened = 0
  }
  private let state = Locked(State())
  private let maxIdlePerOrigin: Int
  private let idleTimeout: Duration

  init(maxIdlePerOrigin: Int, idleTimeout: Duration) {
    self.maxIdlePerOrigin = maxIdlePerOrigin
    self.idleTimeout = idleTimeout
  }

  var idleCount: Int { state.withLock { $0.idle.values.reduce(0) { $0 + $1.count } } }
  var openedCount: Int { state.withLock { $0.opened } }

  func countOpened() { state.withLock { $0.opened += 1 } }

  /// The most recently used idle connection for `origin` that is still usable, or `nil`.
  /// Expired and server-closed connections met on the way are closed.
  func take(_ origin: HTTPOrigin) -> HTTPPooledStream? {
    let now = ContinuousClock.now
    var stale: [HTTPPooledStream] = []
    defer { for connection in stale { connection.stream.close() } }
    while true {
      let candidate: HTTPPooledStream? = state.withLock { state in
        let (fresh, expired) = (state.idle[origin] ?? []).partitioned {
          now - $0.idleSince < idleTimeout
        }
        stale += expired
        var list = fresh
        let last = list.popLast()
        state.idle[origin] = list.isEmpty ? nil : list
        return last
      }
      guard let candidate else { return nil }
      if candidate.isReusable() { return candidate }
      stale.append(candidate)
    }
  }

  /// Keeps `connection` for the next request to `origin`; `false` (the caller closes it) when
  /// the pool for that origin is full or keep-alive is off.
  func keep(_ connection: HTTPPooledStream, for origin: HTTPOrigin) -> Bool {
    guard maxIdlePerOrigin > 0 else { return false }
    connection.idleSince = .now
    return state.withLock { state in
      var list = state.idle[origin] ?? []
      guard list.count < maxIdlePerOrigin else { return false }
      list.append(connection)
      state.idle[origin] = list
      return true
    }
  }

  /// Closes every idle connection (the transport is going away).
  func closeAll() {
    let all = state.withLock { state in
      defer { state.idle = [:] }
      return state.idle.values.flatMap { $0 }
    }
    for connection in all { connection.stream.close() }
  }
}

extension Array {
  /// The elements that satisfy `belongs`, and those that do not, each in order.
  fileprivate func partitioned(_ belongs: (Element) -> Bool) -> ([Element], [Element]) {
    var yes: [Element] = []
    var no: [Element] = []
    for element in self {
      if belongs(element) { yes.append(element) } else { no.append(element) }
    }
    return (yes, no)
  }
}
