public import Foundation
public import PushEnvelopeCrypto
public import SecureStore
import ServerBeeModels

/// What a notification service extension does with one push: read the content key of the
/// login signed in now from the extension-shared group, open and validate the envelope of the
/// raw APNs payload for delivery, and render the text to show — the generic fallback text for
/// anything that does not open (no key, another login's key, a rejected envelope, a store that
/// cannot be read). It needs nothing else: no bearer token, no network, no app-private value.
///
/// ```swift
/// // UNNotificationServiceExtension.didReceive(_:withContentHandler:)
/// let store = KeychainCredentialStore(…)  // the app group's shared items
/// let language = PushNotificationLanguage(preferredLanguages: Locale.preferredLanguages)
/// let step = NotificationExtensionStep(store: store, language: language)
/// let result = step.process(apnsPayload: payloadData)
/// content.title = result.notification.title
/// content.body = result.notification.body
/// ```
///
/// A payload opens only with a key whose scope is the shared group's current-login scope
/// (`CredentialKey.currentLoginScope`, kept by the auth client with the login): after a
/// logout, another account's sign-in or a rejected session nothing opens, even if a key of
/// the ended login were somehow still stored.
public struct NotificationExtensionStep: Sendable {
  /// One processed push.
  public struct Result: Sendable, Hashable {
    /// The validated content, or `nil` when the payload did not open.
    public var content: ValidatedPushContent?
    /// The text to show (the fallback text when `content` is `nil`).
    public var notification: RenderedPushNotification
    /// Why the payload did not open (`nil` when it did): a sentence without secrets.
    public var failure: String?
  }

  private let store: any CredentialStore
  private let renderer: PushNotificationRenderer
  private let opener: PushEnvelopeOpener

  /// Creates the step.
  /// - Parameters:
  ///   - store: The credential store; only its extension-shared group is read.
  ///   - language: The language of the rendered text.
  ///   - opener: Opens envelopes (inject one with a fixed clock in tests).
  public init(
    store: any CredentialStore, language: PushNotificationLanguage,
    opener: PushEnvelopeOpener = PushEnvelopeOpener()
  ) {
    self.store = store
    self.renderer = PushNotificationRenderer(language: language)
    self.opener = opener
  }

  /// Opens, validates and renders one raw APNs payload; never throws (a failure shows the
  /// fallback text, as the extension must always show something).
  /// - Parameter apnsPayload: The payload JSON as APNs delivered it.
  /// - Returns: The content, the text to show and why it did not open.
  public func process(apnsPayload: Data) -> Result {
    let key: PushContentKey?
    do {
      key = try store.currentPushContentKey()
    } catch {
      return fallback("the content key could not be read")
    }
    guard let key else { return fallback("no content key of the current login is stored") }
    do {
      let content = try opener.open(apnsPayload: apnsPayload, with: key, for: .delivery)
      return Result(content: content, notification: renderer.render(content), failure: nil)
    } catch let error as PushEnvelopeCryptoError {
      return fallback("the notification did not validate (\(error.code.rawValue))")
    } catch {
      return fallback("the notification did not validate")
    }
  }

  private func fallback(_ reason: String) -> Result {
    Result(content: nil, notification: renderer.fallback, failure: reason)
  }
}
