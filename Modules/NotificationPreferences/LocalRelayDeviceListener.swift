public import Foundation
public import PushEnvelopeCrypto
public import SecureStore
import ServerBeeModels
public import ServerBeeTransport

/// The notifications of this installation as a local device of a `serverbee-relay`, opened and
/// ready to show: the device's stream (``LocalRelayDeviceStream``), each push opened with the
/// current login's content key (``NotificationExtensionStep``), each event shown once.
///
/// What a Linux desktop client or a bot needs after `enable()`: it finds the stored device (the
/// token and the relay that issued it, ``LocalRelayDevice``), or asks the named relay for a
/// token when none is stored, and listens. A retried delivery of an event already seen (the
/// server retries after an ambiguous failure) is left out. A push that does not open is still
/// reported, with the fallback text and the reason, as a notification extension would show it.
/// When the relay unregistered the device, the stored device is forgotten (so the next
/// `enable()` gets a new token) and the stream ends with `deviceUnregistered`.
///
/// `ServerBeeClient.localRelayListener(relay:language:)` of ServerBeeKit builds one over the
/// client's store and transports (and so its TLS trust):
///
/// ```swift
/// let listener = try await LocalRelayDeviceListener(
///   store: store, relay: relayURL, http: http, webSocket: webSocket, language: .english)
/// for try await event in listener.events() {
///   switch event {
///   case .connected: print("listening for pushes from \(listener.relayURL)")
///   case .reconnecting(let delay, let reason): print("relay went away (\(reason)); retry in \(delay)")
///   case .push(let push): print("\(push.notification.title): \(push.notification.body)")
///   }
/// }
/// ```
///
/// ## Topics
///
/// ### Listening
/// - ``init(store:relay:http:webSocket:language:configuration:)``
/// - ``events()``
/// - ``Event``
/// - ``ReceivedPush``
/// - ``stop()``
/// - ``relayURL``
public final class LocalRelayDeviceListener: Sendable {
  /// What a listener reports.
  public enum Event: Sendable, Hashable {
    /// The relay accepted the stream (first connection or a reconnection).
    case connected
    /// The relay went away or could not be reached, for the reason given in a few words; the
    /// next attempt comes after the delay.
    case reconnecting(after: Duration, reason: String)
    /// One push, opened (or not) and rendered.
    case push(ReceivedPush)
  }

  /// One push as it arrived and as the notification extension step made it.
  public struct ReceivedPush: Sendable, Hashable {
    /// The APNs payload as the relay delivered it (encrypted; what a tap hands to `TapRouter`).
    public var payload: Data
    /// The validated content, or `nil` when the payload did not open.
    public var content: ValidatedPushContent?
    /// The text to show (the fallback text when `content` is `nil`).
    public var notification: RenderedPushNotification
    /// Why the payload did not open (`nil` when it did): a sentence without secrets.
    public var failure: String?
  }

  /// The relay listened to (its base URL), for messages.
  public let relayURL: URL

  private let stream: LocalRelayDeviceStream
  private let step: NotificationExtensionStep
  private let store: any CredentialStore
  private let deviceToken: PushDeviceToken

  /// Finds this installation's device and prepares a listener for it; nothing connects until
  /// ``events()`` is iterated.
  ///
  /// The device is the stored one (listened to at `relay` when given, else at the relay that
  /// issued it); with none stored, `relay` issues a token (`POST /v1/devices`), which is stored.
  /// - Parameters:
  ///   - store: The credential store: the device (app-private) and the content key
  ///     (extension-shared).
  ///   - relay: The relay's base URL, `http(s)://host[:port]`; `nil` uses the stored device's.
  ///   - http: HTTP for a token the relay issues (no session token is sent).
  ///   - webSocket: The stream's transport (`SocketWebSocketTransport` on Linux); its TLS
  ///     trust is what `wss` relays are checked against.
  ///   - language: The language of the rendered text.
  ///   - configuration: Reconnect timing.
  /// - Throws: ``NotificationPreferencesError``: `invalidRelayURL` when no relay is named and
  ///   the stored device names none (or none is stored), `storageFailed`, and what
  ///   ``LocalRelayDeviceTokenProvider/deviceToken()`` throws for a token it asks for.
  public convenience init(
    store: any CredentialStore, relay: URL?, http: any HTTPTransport,
    webSocket: any WebSocketTransport, language: PushNotificationLanguage,
    configuration: LocalRelayDeviceStream.Configuration = .init()
  ) async throws {
    let (relayURL, token) = try await Self.device(store: store, relay: relay, http: http)
    self.init(
      relayURL: relayURL, deviceToken: token, store: store,
      step: NotificationExtensionStep(store: store, language: language),
      stream: LocalRelayDeviceStream(
        relay: relayURL, deviceToken: token, transport: webSocket, configuration: configuration))
  }

  /// Every seam: the step (with a fixed clock in tests) and the stream (with its clock and
  /// jitter).
  init(
    relayURL: URL, deviceToken: PushDeviceToken, store: any CredentialStore,
    step: NotificationExtensionStep, stream: LocalRelayDeviceStream
  ) {
    self.relayURL = relayURL
    self.deviceToken = deviceToken
    self.store = store
    self.step = step
    self.stream = stream
  }

  /// Connects and yields connection changes and opened pushes until the consumer stops (or
  /// ``stop()`` is called).
  /// - Returns: The events; the stream throws ``NotificationPreferencesError`` like
  ///   ``LocalRelayDeviceStream/events()`` (`deviceUnregistered` after forgetting the device).
  public func events() -> AsyncThrowingStream<Event, any Error> {
    let source = stream.events()
    // Bounded like `source`: the task waits for the consumer before it takes the next push,
    // so a flood backs up to the relay instead of into memory.
    let channel = BackpressuredStream<Event>(capacity: LocalRelayDeviceStream.bufferedEvents)
    let events = channel.makeStream()
    let (step, store, token) = (step, store, deviceToken)
    // Owned by the consumer: cancelled when it stops, which ends `source` and its connection;
    // `stop()` and releasing the listener end `source`, and so this task.
    let task = Task {
      var seen = RecentEventIDs()
      do {
        for try await event in source {
          let forwarded: Event
          switch event {
          case .connected: forwarded = .connected
          case .reconnecting(let delay, let reason):
            forwarded = .reconnecting(after: delay, reason: reason)
          case .push(let payload):
            // On the store's thread: the step reads the content key synchronously.
            let result = try await store.callerExecutor.run {
              step.process(apnsPayload: payload)
            }
            if let id = result.content?.content.eventID, !seen.insert(id) { continue }
            forwarded = .push(
              ReceivedPush(
                payload: payload, content: result.content, notification: result.notification,
                failure: result.failure))
          }
          guard await channel.send(forwarded) else { break }
        }
        channel.finish()
      } catch let error as NotificationPreferencesError where error.code == .deviceUnregistered {
        await Self.forget(token, in: store)
        channel.finish(throwing: error)
      } catch {
        channel.finish(throwing: error)
      }
    }
    channel.setOnTermination { task.cancel() }
    return events
  }

  /// Ends every stream of this listener: their connections close and their consumers see the
  /// end.
  public func stop() { stream.stop() }

  /// The relay and token to listen with (see the initialiser).
  private static func device(store: any CredentialStore, relay: URL?, http: any HTTPTransport)
    async throws -> (URL, PushDeviceToken)
  {
    let stored = try await LocalRelayDeviceTokenProvider(store: store).storedDevice()
    guard let relayURL = relay ?? stored?.relayURL else {
      throw NotificationPreferencesError(
        .invalidRelayURL,
        "no relay is known for this device: name the relay, or enable notifications with one "
          + "first")
    }
    if let stored { return (relayURL, stored.pushDeviceToken) }
    let issued = LocalRelayDeviceTokenProvider(store: store, relay: relayURL, transport: http)
    return (relayURL, try await issued.deviceToken())
  }

  /// Forgets the stored device when it is still the unregistered one: a revoked token never
  /// comes back, and a device another process stored meanwhile stays.
  private static func forget(_ token: PushDeviceToken, in store: any CredentialStore) async {
    let tokens = LocalRelayDeviceTokenProvider(store: store)
    guard let stored = try? await tokens.storedDevice(), stored.pushDeviceToken == token else {
      return
    }
    try? await tokens.forgetStoredDevice()
  }
}

/// The event ids seen last, bounded so that a listener running for months does not grow: a
/// retried delivery comes within minutes, far fewer than `limit` events later.
struct RecentEventIDs {
  private var order: [String] = []
  private var members: Set<String> = []
  let limit: Int

  init(limit: Int = 1024) { self.limit = limit }

  /// Adds `id`; `false` when it was seen already.
  mutating func insert(_ id: String) -> Bool {
    guard members.insert(id).inserted else { return false }
    order.append(id)
    if order.count > limit { members.remove(order.removeFirst()) }
    return true
  }
}
