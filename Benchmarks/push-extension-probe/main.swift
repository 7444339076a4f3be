import PushEnvelopeCrypto
import ServerBeeModels

// push-extension-probe KEY.json PAYLOAD.json [LANGUAGE]
//
// Does exactly what a notification service extension does with one push — read the stored
// content key and the received APNs payload, open the envelope for delivery, render the text —
// and exits, so `/usr/bin/time -v` shows the peak RSS of such a process
// (Documentation/Performance.md §1: < 24 MB). `serverbee-bench push write-fixture DIR` writes a
// fresh key and payload to try it with. Like the SDK modules it links, it needs only
// FoundationEssentials where that exists, so the process never loads Foundation and ICU.
#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

#if canImport(COpenSSL)
  import COpenSSL

  // An extension-sized process needs no system-wide OpenSSL configuration (engines, providers,
  // TLS policy): skipping openssl.cnf saves about 3.5 MB of resident memory. This is a
  // process-wide choice, so it belongs to the host process, not to PushEnvelopeCrypto.
  _ = OPENSSL_init_crypto(UInt64(OPENSSL_INIT_NO_LOAD_CONFIG), nil)
#endif

let arguments = CommandLine.arguments
guard arguments.count >= 3,
  let keyData = FileManager.default.contents(atPath: arguments[1]),
  let payload = FileManager.default.contents(atPath: arguments[2])
else {
  let usage = Array("usage: push-extension-probe KEY.json PAYLOAD.json [en|zh-Hans]\n".utf8)
  _ = write(2, usage, usage.count)
  exit(2)
}
let language = PushNotificationLanguage(preferredLanguages: [
  arguments.count > 3 ? arguments[3] : "en"
])
let renderer = PushNotificationRenderer(language: language)
let shown = renderer.render(
  Result {
    let key = try WireJSON.decode(PushContentKey.self, from: keyData)
    return try PushEnvelopeOpener().open(apnsPayload: payload, with: key, for: .delivery)
  })
print("\(shown.title) — \(shown.body)")
