public import Foundation
public import ServerBeeModels

/// One push as the relay hands it to a ``PushProvider``: the validated relay request, the exact
/// APNs payload of Protocol/Push.md §3.1 and the APNs request headers.
///
/// ```swift
/// struct PrintingProvider: PushProvider {
///   func deliver(_ delivery: RelayDelivery) async -> ProviderAnswer {
///     print(delivery.headers["apns-id"] ?? "", delivery.payload.count)
///     return .accepted
///   }
/// }
/// ```
///
/// The payload is
/// `{"aps":{"alert":{"title":"ServerBee","body":"Open ServerBee to view this notification."},"mutable-content":1,"sound":"default"},"serverbee_envelope":{…}}`
/// with the envelope's keys in Protocol/Push.md §3.2 order (`version`, `key_id`, `identity`,
/// `nonce`, `ciphertext`). The relay never opens the envelope.
public struct RelayDelivery: Hashable, Sendable {
  /// The relay request as validated.
  public var request: RelaySendRequest
  /// The APNs headers, lowercased names: `apns-push-type: alert`, `apns-priority: 10`,
  /// `apns-expiration: <expires_at>`, `apns-id: <event_id>`, `apns-topic: <topic>`.
  public var headers: [String: String]
  /// The exact APNs payload bytes (compact UTF-8 JSON).
  public var payload: Data
  /// The relay request body exactly as received.
  public var body: Data
  /// The IP address the relay request came from.
  public var clientAddress: String
  /// When the relay received the request, Unix seconds.
  public var receivedAt: Int64

  /// The device token (lowercase hex).
  public var deviceToken: String { request.deviceToken }
  /// The APNs environment.
  public var environment: PushEnvironment { request.environment }
  /// The event id, sent as `apns-id`.
  public var eventID: String { request.eventID }
  /// The expiry, Unix seconds, sent as `apns-expiration`.
  public var expiresAt: Int64 { request.expiresAt }
  /// The payload as text (it is always UTF-8).
  public var payloadText: String { String(decoding: payload, as: UTF8.self) }

  /// Builds the delivery for a request: the payload and the headers.
  /// - Parameters:
  ///   - request: The validated relay request.
  ///   - topic: The `apns-topic`.
  ///   - body: The raw request body; empty by default.
  ///   - clientAddress: The client IP; empty by default.
  ///   - receivedAt: When it was received; 0 by default.
  public init(
    request: RelaySendRequest, topic: String, body: Data = Data(), clientAddress: String = "",
    receivedAt: Int64 = 0
  ) {
    self.init(
      request: request, topic: topic, body: body, clientAddress: clientAddress,
      receivedAt: receivedAt, envelopeIsPlain: false)
  }

  /// The public initializer, told whether the envelope's strings are known to need no JSON
  /// escape: true for a request ``SendValidator`` accepted (hex, a UUID and base64), which
  /// spares a scan of the ciphertext on every send.
  init(
    request: RelaySendRequest, topic: String, body: Data, clientAddress: String,
    receivedAt: Int64, envelopeIsPlain: Bool
  ) {
    self.request = request
    self.headers = [
      "apns-push-type": "alert",
      "apns-priority": "10",
      "apns-expiration": String(request.expiresAt),
      "apns-id": request.eventID,
      "apns-topic": topic,
    ]
    self.payload = Self.payload(for: request.envelope, isPlain: envelopeIsPlain)
    self.body = body
    self.clientAddress = clientAddress
    self.receivedAt = receivedAt
  }

  /// The exact APNs payload of Protocol/Push.md §3.1 for an envelope.
  /// - Parameter envelope: The envelope.
  /// - Returns: Compact UTF-8 JSON.
  public static func payload(for envelope: PushEnvelope) -> Data {
    payload(for: envelope, isPlain: false)
  }

  /// The payload, without checking the envelope's strings for escapes when `isPlain`.
  static func payload(for envelope: PushEnvelope, isPlain: Bool) -> Data {
    var payload = payloadPrefix
    payload.reserveCapacity(payloadPrefix.count + envelope.ciphertext.utf8.count + 200)
    // The envelope as WireJSON writes it (keys in Protocol/Push.md §3.2 order), by hand when no
    // string needs an escape, which is always the case for an envelope the relay accepted (hex, a
    // UUID and base64): the generic encoder was about 90 k instructions of each send.
    var strings = [envelope.keyID, envelope.identity, envelope.nonce, envelope.ciphertext]
    if isPlain || strings.allSatisfy(PlainText.isPlainJSON) {
      PlainText.append(#"{"version":"#, to: &payload)
      PlainText.append(String(envelope.version), to: &payload)
      for index in strings.indices {
        payload.append(contentsOf: envelopeKeys[index])
        strings[index].withUTF8 { payload.append(contentsOf: $0) }
      }
      payload.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: "}")])
    } else {
      payload += (try? WireJSON.encode(envelope)).map(Array.init) ?? Array("{}".utf8)
    }
    payload.append(UInt8(ascii: "}"))
    return Data(payload)
  }

  /// What comes before each string of the envelope, in Protocol/Push.md §3.2 order.
  private static let envelopeKeys = [
    #","key_id":""#, #"","identity":""#, #"","nonce":""#, #"","ciphertext":""#,
  ].map { Array($0.utf8) }

  private static let payloadPrefix = Array(
    (#"{"aps":{"alert":{"title":"ServerBee","body":"Open ServerBee to view this notification."},"#
      + #""mutable-content":1,"sound":"default"},"serverbee_envelope":"#).utf8)
}
