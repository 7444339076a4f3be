// The fixed content key of the push fuzz targets (Tests/ServerBeeModelsTests/Fixtures/push/
// content-key.json, the contract's test key) and helpers to seal fuzzer-provided plaintext.
import Foundation
import FuzzSupport
import PushEnvelopeCrypto
import ServerBeeModels

/// The contract's test key; the contract's sample contents name its deployment and user.
public let testKey = PushContentKey(
  keyID: "0f8e7d6c-5b4a-4938-8271-6a5b4c3d2e1f",
  key: "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=",
  deploymentID: "https://serverbee.test", userID: "6a1f2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
  installationID: "test-install",
  scope: "8833a467a98f4e1c73b0e0b079d7243c735affe53d60f76bfe1d6870e6dc4ca7")

/// One second after the sample contents were created (`created_at` 2000000000).
public let testNow = Date(timeIntervalSince1970: 2_000_000_001)

/// Opens with the system cipher and the fixed clock.
public let testOpener = PushEnvelopeOpener(now: { testNow })

/// Seals with a fixed nonce, so a crash reproduces byte for byte.
public let testSealer = PushEnvelopeSealer(randomBytes: { Array(repeating: 7, count: $0) })

/// Seals `plaintext` (at most 2048 bytes) for the test key, as a server would.
public func sealForTestKey(_ plaintext: [UInt8]) -> PushEnvelope {
  do {
    return try testSealer.seal(
      plaintext: Data(plaintext.prefix(PushEnvelopeSealer.maximumPlaintextSize)),
      keyID: testKey.keyID, key: testKey.key, identity: PushIdentity.hash(of: testKey))
  } catch {
    fail("sealing failed: \(error)")
  }
}

/// Opens, checking that any failure is a PushEnvelopeCryptoError.
public func openChecked(
  _ envelope: PushEnvelope, for purpose: PushOpenPurpose
) -> Result<ValidatedPushContent, PushEnvelopeCryptoError> {
  do {
    return .success(try testOpener.open(envelope, with: testKey, for: purpose))
  } catch let error as PushEnvelopeCryptoError {
    return .failure(error)
  } catch {
    fail("untyped error \(error)")
  }
}
