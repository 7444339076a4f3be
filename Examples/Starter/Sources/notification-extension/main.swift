// notification-extension: what a notification service extension does with one push.
//
//   notification-extension payload.json          # or: … < payload.json
//
// A raw APNs payload in, the notification to show out (title, then body), opened with the
// content key of the login signed in now and nothing else: no token, no network.
import Foundation
import ServerBeeKit
import StarterSupport

let usage = """
  usage: notification-extension [--home DIR] [--lang en|zh-Hans] [FILE|-]

  Reads one APNs payload (FILE, or standard input), opens it with the content key of the login
  in --home (default ~/.serverbee-starter, as alert-notifier keeps it) and prints the
  notification's title and body. A payload that does not open prints the generic text an
  extension would show, then fails with the reason.
  """

await runRecipe(usage: usage) { options in
  let language =
    switch options.value("lang") {
    case nil: PushNotificationLanguage(preferredLanguages: Locale.preferredLanguages)
    case "en": PushNotificationLanguage.english
    case "zh-Hans", "zh": PushNotificationLanguage.simplifiedChinese
    case let other?: throw StarterError(usage: "--lang takes en or zh-Hans, not '\(other)'")
    }
  let source = options.positionals.first ?? "-"
  let payload =
    source == "-"
    ? FileHandle.standardInput.readDataToEndOfFile()
    : try Data(contentsOf: URL(fileURLWithPath: source))
  // APNs payloads are at most 4 KiB; refuse anything far larger before parsing it.
  guard payload.count <= 65_536 else { throw StarterError("the payload is larger than 64 KiB") }

  // The app's store; the step reads only its extension-shared group (the content key of the
  // current login). In an iOS extension this is the Keychain store of the app group.
  let store = try EncryptedSQLiteCredentialStore(directory: options.home())
  let result = NotificationExtensionStep(store: store, language: language)
    .process(apnsPayload: payload)
  say(result.notification.title)
  say(result.notification.body)
  if let failure = result.failure { throw StarterError("the payload did not open: \(failure)") }
}
