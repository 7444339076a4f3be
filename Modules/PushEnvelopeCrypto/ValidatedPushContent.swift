public import ServerBeeModels

/// A push content that passed every rule of Protocol/Push.md §3.8 for a purpose.
///
/// Only ``PushEnvelopeOpener`` creates values of this type, so holding one proves the envelope
/// decrypted with the stored key, matched its identity, was within its validity window and
/// followed the per-kind rules. Render it with ``PushNotificationRenderer``; navigate with
/// ``tapTarget``.
public struct ValidatedPushContent: Hashable, Sendable {
  /// The decrypted content.
  public let content: PushContent
  /// The purpose it was validated for.
  public let purpose: PushOpenPurpose
  /// The id of the key that opened it.
  public let keyID: String
  /// Where a tap leads.
  public let tapTarget: PushTapTarget
}
