public import Foundation
import ServerBeeModels
public import ServerBeeTransport

/// The pushes of a local relay device, as they arrive: a WebSocket to the relay's
/// `GET /v1/devices/stream` that reconnects whenever the relay goes away.
///
/// Every message is one APNs payload (open it with `PushEnvelopeOpener`, as a notification
/// extension would). When the relay restarts or the connection drops, the stream waits
/// (exponential backoff with full jitter, 0.5 s doubling up to 30 s by default, reset by a
/// successful connection) and connects again; the relay then hands over what it held for the
/// device meanwhile, in order. A stream ends only when its consumer stops (or ``stop()`` is
/// called), or with an error the relay will not change by itself: the device was unregistered
/// (`deviceUnregistered`), the relay refuses the token (`invalidDeviceToken`) or has no device
/// routes or is not trusted (`relayRejected`).
///
/// ```swift
/// let tokens = LocalRelayDeviceTokenProvider(store: store, relay: relay, transport: http)
/// let stream = LocalRelayDeviceStream(
///   relay: relay, deviceToken: try await tokens.deviceToken(), transport: webSocket)
/// for try await event in stream.events() {
///   switch event {
///   case .connected: print("listening")
///   case .reconnecting(let delay, let reason): print("relay went away (\(reason)); retry in \(delay)")
///   case .push(let payload): show(payload)
///   }
/// }
/// ```
///
/// Each call to ``events()`` or ``payloads()`` opens its own connection, for its one consumer;
/// ending the iteration closes it. Keep the value while iterating: releasing it (or calling
/// ``stop()``) ends its streams.
///
/// ## Topics
///
/// ### Receiving
/// - ``events()``
/// - ``payloads()``
/// - ``Event``
/// - ``stop()``
///
/// ### Configuration
/// - ``Configuration``
/// - ``relayURL``
/// - ``bufferedEvents``
public final class LocalRelayDeviceStream: Sendable {
  /// Reconnect timing.
  public struct Configuration: Sendable, Hashable {
    /// The ceiling of the first retry delay; 0.5 s.
    public var initialBackoff: Duration
    /// The largest retry delay; 30 s.
    public var maximumBackoff: Duration

    /// Creates a configuration with the documented defaults.
    /// - Parameters:
    ///   - initialBackoff: The first ceiling; each failure doubles it.
    ///   - maximumBackoff: The cap.
    public init(
      initialBackoff: Duration = .milliseconds(500), maximumBackoff: Duration = .seconds(30)
    ) {
      self.initialBackoff = initialBackoff
      self.maximumBackoff = maximumBackoff
    }
  }

  /// What a stream reports.
  public enum Event: Sendable, Hashable {
    /// The relay accepted the stream (first connection or a reconnection).
    case connected
    /// One APNs payload.
    case push(Data)
    /// The relay went away or could not be reached, for the reason given in a few words
    /// (`connection refused`, `closed with 1001`); the next attempt comes after the delay.
    case reconnecting(after: Duration, reason: String)
  }

  /// The relay's base URL, as messages name it.
  public var relayURL: URL { runner.endpoint?.baseURL ?? runner.rawURL }

  private let runner: Runner
  private let running = Locked<[UUID: Task<Void, Never>]>([:])

  /// Creates a stream for a device.
  /// - Parameters:
  ///   - relay: The relay's base URL, `http(s)://host[:port]`; the stream is
  ///     `ws(s)://host[:port]/v1/devices/stream`.
  ///   - deviceToken: The device's token and environment (``LocalRelayDeviceTokenProvider``).
  ///   - transport: The WebSocket transport (`SocketWebSocketTransport` on Linux).
  ///   - configuration: Reconnect timing.
  public convenience init(
    relay: URL, deviceToken: PushDeviceToken, transport: any WebSocketTransport,
    configuration: Configuration = Configuration()
  ) {
    self.init(
      relay: relay, deviceToken: deviceToken, transport: transport, configuration: configuration,
      clock: ContinuousClock(), random: { Double.random(in: 0..<1) })
  }

  /// Every seam: the clock the backoff sleeps on and the jitter source (tests).
  init(
    relay: URL, deviceToken: PushDeviceToken, transport: any WebSocketTransport,
    configuration: Configuration, clock: any Clock<Duration>,
    random: @escaping @Sendable () -> Double
  ) {
    runner = Runner(
      rawURL: relay, endpoint: try? RelayEndpoint(relay),
      headers: [
        "x-serverbee-device-token": deviceToken.hex,
        "x-serverbee-environment": deviceToken.environment.rawValue,
      ],
      transport: transport, configuration: configuration, clock: clock, random: random)
  }

  deinit {
    for task in running.withLock({ $0.values }) { task.cancel() }
  }

  /// Connects and yields connection changes and payloads until the consumer stops.
  ///
  /// A payload is never dropped, however slowly it is read, and the backlog is bounded however
  /// fast the relay sends: at most ``bufferedEvents`` events wait for the consumer, then the
  /// connection stops reading (the WebSocket's own inbox has a high-water mark too) and TCP
  /// slows the relay until the consumer catches up.
  /// - Returns: The events; the stream throws ``NotificationPreferencesError`` with
  ///   `deviceUnregistered`, `invalidDeviceToken`, `invalidRelayURL` or `relayRejected` when it
  ///   cannot go on.
  public func events() -> AsyncThrowingStream<Event, any Error> {
    let channel = BackpressuredStream<Event>(capacity: Self.bufferedEvents)
    let stream = channel.makeStream()
    let id = UUID()
    let runner = runner
    let running = running
    // Owned by `running`: cancelled when the consumer stops, by `stop()` or by deinit, and
    // removed when it ends.
    let task = Task {
      await runner.run(channel)
      _ = running.withLock { $0.removeValue(forKey: id) }
    }
    running.withLock { $0[id] = task }
    channel.setOnTermination { task.cancel() }
    return stream
  }

  /// The most events that wait for a consumer of ``events()`` or ``payloads()`` before the
  /// stream stops reading from the relay: 16.
  public static let bufferedEvents = 16

  /// The payloads alone (connection changes left out), until the consumer stops.
  /// - Returns: One APNs payload per element; throws like ``events()``.
  public func payloads() -> AsyncThrowingStream<Data, any Error> {
    let events = events()
    let channel = BackpressuredStream<Data>(capacity: Self.bufferedEvents)
    let stream = channel.makeStream()
    let id = UUID()
    let running = running
    let task = Task {
      do {
        for try await event in events {
          guard case .push(let payload) = event else { continue }
          guard await channel.send(payload) else { break }
        }
        channel.finish()
      } catch {
        channel.finish(throwing: error)
      }
      _ = running.withLock { $0.removeValue(forKey: id) }
    }
    running.withLock { $0[id] = task }
    channel.setOnTermination { task.cancel() }
    return stream
  }

  /// Ends every stream of this value: their connections close and their consumers see the end.
  public func stop() {
    for task in running.withLock({ $0.values }) { task.cancel() }
  }
}

extension LocalRelayDeviceStream {
  /// One connection loop: connect, read, wait, connect again.
  struct Runner: Sendable {
    let rawURL: URL
    let endpoint: RelayEndpoint?
    let headers: HTTPHeaders
    let transport: any WebSocketTransport
    let configuration: Configuration
    let clock: any Clock<Duration>
    let random: @Sendable () -> Double

    /// How one connection ended.
    enum Ending {
      case cancelled
      case terminal(NotificationPreferencesError)
      case lost(String)
    }

    func run(_ events: BackpressuredStream<Event>) async {
      guard let endpoint else {
        events.finish(
          throwing: NotificationPreferencesError(
            .invalidRelayURL,
            "the relay URL must be http(s)://host[:port] without a user, query or fragment"))
        return
      }
      var backoff = RelayBackoff(
        initial: configuration.initialBackoff, maximum: configuration.maximumBackoff)
      while !Task.isCancelled {
        let ending: Ending
        do {
          let connection = try await transport.connect(to: endpoint.streamURL, headers: headers)
          backoff.reset()
          ending =
            await events.send(.connected)
            ? await read(connection, into: events, endpoint: endpoint) : .cancelled
          await connection.close(code: .normalClosure, reason: nil)
        } catch is CancellationError {
          break
        } catch {
          ending = Self.classify(error, endpoint: endpoint)
        }
        switch ending {
        case .cancelled:
          events.finish()
          return
        case .terminal(let error):
          events.finish(throwing: error)
          return
        case .lost(let reason):
          guard !Task.isCancelled else { break }
          let delay = backoff.nextDelay(random: random())
          guard await events.send(.reconnecting(after: delay, reason: reason)) else {
            events.finish()
            return
          }
          do {
            try await clock.sleep(for: delay)
          } catch {
            events.finish()
            return
          }
        }
      }
      events.finish()
    }

    /// Forwards payloads until the connection ends, and says how it ended.
    private func read(
      _ connection: any WebSocketConnection,
      into events: BackpressuredStream<Event>, endpoint: RelayEndpoint
    ) async -> Ending {
      do {
        // Each payload waits until the consumer has room: the connection's inbound stream is
        // not read meanwhile, so its reader pauses and the relay is slowed.
        for try await message in connection.inbound {
          let payload =
            switch message {
            case .text(let text): Data(text.utf8)
            case .binary(let data): data
            }
          guard await events.send(.push(payload)) else { return .cancelled }
        }
      } catch {
        if Task.isCancelled { return .cancelled }
        return .lost(LocalRelayDeviceTokenProvider.describe(error))
      }
      if Task.isCancelled { return .cancelled }
      guard let close = await connection.receivedClose else { return .lost("connection closed") }
      // The relay closes a device's streams with 1000 `unregistered` when it is unregistered.
      if close.code == .normalClosure, close.reason == "unregistered" {
        return .terminal(Self.unregistered(endpoint))
      }
      return .lost("closed with \(close.code.rawValue)")
    }

    static func unregistered(_ endpoint: RelayEndpoint) -> NotificationPreferencesError {
      NotificationPreferencesError(
        .deviceUnregistered,
        "the relay at \(endpoint.name) unregistered this device; its token is no longer valid")
    }

    /// A failed connect: worth another attempt, or final.
    static func classify(_ error: any Error, endpoint: RelayEndpoint) -> Ending {
      guard let transportError = error as? ServerBeeTransportError else {
        return .lost("\(error)")
      }
      let name = endpoint.name
      switch transportError.code {
      case .upgradeRejected:
        switch transportError.httpStatus {
        case 410?:
          return .terminal(unregistered(endpoint))
        case 400?:
          return .terminal(
            NotificationPreferencesError(
              .invalidDeviceToken,
              "the relay at \(name) refused this device's token or environment", httpStatus: 400,
              underlying: transportError))
        case 404?, 405?:
          return .terminal(
            NotificationPreferencesError(
              .relayRejected,
              "the relay at \(name) has no device stream (is it a serverbee-relay with local "
                + "devices?)", httpStatus: transportError.httpStatus, underlying: transportError))
        default:
          return .lost(LocalRelayDeviceTokenProvider.describe(transportError))
        }
      case .invalidURL:
        return .terminal(
          NotificationPreferencesError(
            .invalidRelayURL, "the relay URL \(name) is not usable", underlying: transportError))
      case .tlsUntrustedCertificate, .tlsHostnameMismatch, .tlsCertificateExpired, .tlsPinMismatch:
        return .terminal(
          NotificationPreferencesError(
            .relayRejected, "the relay at \(name) is not trusted: \(transportError.message)",
            underlying: transportError))
      default:
        return .lost(LocalRelayDeviceTokenProvider.describe(transportError))
      }
    }
  }
}
