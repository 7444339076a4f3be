// The pairing QR payload (Protocol/Auth.md §5.3) as scanned. Invariants: failures are
// ServerBeeModelsError with code invalidPairingPayload or invalidServerURL only; an accepted
// payload has the rules' shape (normalised server, non-empty code); its QR text, as the web
// app writes it, scans back to the same payload and decodes to it with Codable; the Codable
// reading of the scanned text agrees with the scanner whenever the scanner accepts.
import Foundation
import FuzzSupport
import ServerBeeModels

func fuzzOne(_ bytes: [UInt8]) {
  let text = String(decoding: bytes, as: UTF8.self)
  let payload: PairingPayload
  do {
    payload = try PairingPayload(scanned: text)
  } catch let error as ServerBeeModelsError {
    check(
      error.code == .invalidPairingPayload || error.code == .invalidServerURL, "code \(error.code)")
    return
  } catch {
    fail("untyped error \(error)")
  }
  check(!payload.code.isEmpty, "an empty code accepted")
  check((try? ServerURL(payload.server.string)) == payload.server, "the server is not normalised")
  let qr = payload.qrText
  guard let rescanned = try? PairingPayload(scanned: qr) else {
    fail("our own QR text \(qr.debugDescription) does not scan")
  }
  check(rescanned == payload, "QR text round trip differs: \(qr.debugDescription)")
  check(rescanned.qrText == qr, "the QR text is not stable")
  check(
    (try? WireJSON.decode(PairingPayload.self, from: Data(qr.utf8))) == payload,
    "Codable disagrees with the scanner on \(qr.debugDescription)")
  check(
    payload.redactedSummary == "PairingPayload(server: \(payload.server), code redacted)",
    "the summary is not redacted")
}

runFuzzer(fuzzOne)
