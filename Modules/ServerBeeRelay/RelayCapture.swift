public import Foundation
public import ServerBeeModels

/// One `POST /v1/send` the relay received, as recorded by ``RelayServer/received()`` and listed
/// by the control API (`GET /__relay/requests`).
///
/// ```swift
/// let last = relay.received().last
/// last?.request?.eventID
/// last?.verdict.reason  // "Accepted"
/// ```
public struct RelayCapture: Hashable, Sendable {
  /// When it was received, Unix seconds (the relay clock).
  public var receivedAt: Int64
  /// The client's IP address.
  public var clientAddress: String
  /// The body exactly as received.
  public var body: Data
  /// The request, when the body passed the schema.
  public var request: RelaySendRequest?
  /// The HTTP status the relay answered.
  public var status: Int
  /// The verdict the relay answered.
  public var verdict: RelayVerdict
}
