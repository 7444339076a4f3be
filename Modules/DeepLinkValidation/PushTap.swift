public import Foundation
import PushEnvelopeCrypto
public import ServerBeeModels

/// A notification tap as the app received it, before any validation (Protocol/Push.md §7).
///
/// Only ``envelope(_:)`` can ever lead anywhere; the other forms are kept so the validator can
/// say why a tap does not navigate.
///
/// ```swift
/// // In userNotificationCenter(_:didReceive:):
/// let payload = try JSONSerialization.data(withJSONObject: response.notification.request.content.userInfo)
/// await router.receive(PushTap(apnsPayload: payload))
/// ```
public enum PushTap: Hashable, Sendable {
  /// The callback carried a `serverbee_envelope` object.
  case envelope(PushEnvelope)
  /// The callback carried a `serverbee_envelope` that is not a valid envelope object, or the
  /// payload is too large or not JSON.
  case malformed
  /// The callback carried only legacy keys (`server_id`, `serverbee_target`): never a target.
  case legacyOnly
  /// The callback carried neither an envelope nor legacy keys.
  case empty

  /// The legacy payload keys that never create a target.
  public static let legacyKeys = ["server_id", "serverbee_target"]

  /// Reads a tap from the notification's APNs payload JSON (`userInfo`).
  /// - Parameter apnsPayload: The payload JSON, at most
  ///   `PushEnvelopeOpener.maximumPayloadSize` bytes.
  public init(apnsPayload: Data) {
    guard apnsPayload.count <= PushEnvelopeOpener.maximumPayloadSize,
      let payload = try? WireJSON.decode(JSONValue.self, from: apnsPayload),
      case .object = payload
    else {
      self = .malformed
      return
    }
    if payload["serverbee_envelope"] != nil {
      if let envelope = try? PushEnvelopeOpener.envelope(fromAPNSPayload: apnsPayload) {
        self = .envelope(envelope)
      } else {
        self = .malformed
      }
    } else if Self.legacyKeys.contains(where: { payload[$0] != nil }) {
      self = .legacyOnly
    } else {
      self = .empty
    }
  }
}
