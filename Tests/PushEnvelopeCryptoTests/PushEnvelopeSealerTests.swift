import Foundation
import ServerBeeModels
import Testing

@testable import PushEnvelopeCrypto

@Suite struct PushEnvelopeSealerTests {
  @Test func sealingTheKnownContentGivesTheIndependentlyProducedEnvelope() throws {
    let envelope = try Known.sealer.seal(Known.content(.test), with: Known.key)
    #expect(envelope == Known.envelope)
  }

  @Test func envelopeIsWrittenWithItsFiveKeysInOrder() throws {
    let json = String(decoding: try WireJSON.encode(Known.envelope), as: UTF8.self)
    #expect(
      json.hasPrefix(
        #"{"version":1,"key_id":"0f8e7d6c-5b4a-4938-8271-6a5b4c3d2e1f","identity":"0f2bdb9b"#))
    #expect(json.contains(#","nonce":"oKGio6Slpqeoqaqr","ciphertext":"nToXRCuv"#))
  }

  @Test func freshNoncesDifferPerEnvelope() throws {
    let sealer = PushEnvelopeSealer()
    let first = try sealer.seal(Known.content(.test), with: Known.key)
    let second = try sealer.seal(Known.content(.test), with: Known.key)
    #expect(first.nonce != second.nonce)
    #expect(first.ciphertext != second.ciphertext)
  }

  @Test func plaintextOver2048BytesIsRefused() throws {
    #expect(
      throws: PushEnvelopeCryptoError.self,
      performing: {
        try Known.sealer.seal(
          plaintext: Data(count: 2049), keyID: Known.keyID, key: Known.keyBase64,
          identity: Known.identity)
      })
    let largest = try Known.sealer.seal(
      plaintext: Data(count: 2048), keyID: Known.keyID, key: Known.keyBase64,
      identity: Known.identity)
    #expect(Data(base64Encoded: largest.ciphertext)?.count == 2064)
    #expect(largest.ciphertext.count == 2752)
  }

  @Test(arguments: ["", "AAAA", "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8", "not base64!"])
  func sealingWithAnInvalidKeyFails(_ key: String) {
    do {
      _ = try Known.sealer.seal(
        plaintext: Data("{}".utf8), keyID: Known.keyID, key: key, identity: Known.identity)
      Issue.record("sealed with key \(key)")
    } catch let error as PushEnvelopeCryptoError {
      #expect(error.code == .invalidKey)
    } catch {
      Issue.record("unexpected \(error)")
    }
  }

  @Test func aNonceSourceReturningTheWrongLengthIsReported() {
    let sealer = PushEnvelopeSealer(randomBytes: { _ in [1, 2, 3] })
    do {
      _ = try sealer.seal(Known.content(.test), with: Known.key)
      Issue.record("sealed with a 3-byte nonce")
    } catch let error as PushEnvelopeCryptoError {
      #expect(error.code == .cryptoFailure)
    } catch {
      Issue.record("unexpected \(error)")
    }
  }
}
