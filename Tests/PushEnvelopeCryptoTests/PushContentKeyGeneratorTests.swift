import Foundation
import ServerBeeModels
import Testing

@testable import PushEnvelopeCrypto

@Suite struct PushContentKeyGeneratorTests {
  @Test func scopeHashesServerUserInstallationAndLoginSecret() {
    // Python: sha256("https://serverbee.test|<user>|test-install|Xk3revocation").hexdigest()
    #expect(
      PushContentKeyGenerator.scope(
        serverURL: Known.deploymentID, userID: Known.userID, installationID: Known.installationID,
        loginSecret: "Xk3revocation") == Known.scope)
  }

  @Test func generatedKeyHasALowercaseV4KeyIDAnd32Bytes() throws {
    let key = try PushContentKeyGenerator().makeKey(
      deploymentID: Known.deploymentID, userID: Known.userID,
      installationID: Known.installationID, scope: Known.scope)
    let uuid = try #require(UUID(uuidString: key.keyID))
    #expect(key.keyID == uuid.uuidString.lowercased())
    #expect(Array(key.keyID)[14] == "4")
    #expect("89ab".contains(Array(key.keyID)[19]))
    #expect(Data(base64Encoded: key.key)?.count == 32)
    #expect(key.deploymentID == Known.deploymentID && key.scope == Known.scope)
  }

  @Test func twoGeneratedKeysDiffer() throws {
    let make = {
      try PushContentKeyGenerator().makeKey(
        deploymentID: "d", userID: "u", installationID: "i", scope: "s")
    }
    let first = try make()
    let second = try make()
    #expect(first.keyID != second.keyID)
    #expect(first.key != second.key)
  }

  @Test func injectedRandomBytesGiveAnExactKey() throws {
    let key = try PushContentKeyGenerator(randomBytes: { count in (0..<count).map { UInt8($0) } })
      .makeKey(deploymentID: "d", userID: "u", installationID: "i", scope: "s")
    #expect(key.keyID == "00010203-0405-4607-8809-0a0b0c0d0e0f")
    #expect(Array(Data(base64Encoded: key.key) ?? Data()) == Array(16..<48).map { UInt8($0) })
  }

  @Test func aFailingRandomSourceIsReported() {
    struct NoEntropy: Error {}
    #expect(throws: NoEntropy.self) {
      try PushContentKeyGenerator(randomBytes: { _ in throw NoEntropy() }).makeKey(
        deploymentID: "d", userID: "u", installationID: "i", scope: "s")
    }
    do {
      _ = try PushContentKeyGenerator(randomBytes: { _ in [1, 2, 3] }).makeKey(
        deploymentID: "d", userID: "u", installationID: "i", scope: "s")
      Issue.record("accepted 3 random bytes")
    } catch let error as PushEnvelopeCryptoError {
      #expect(error.code == .cryptoFailure)
    } catch {
      Issue.record("unexpected \(error)")
    }
  }

  @Test func generatedKeyOpensWhatItSeals() throws {
    let key = try PushContentKeyGenerator().makeKey(
      deploymentID: Known.deploymentID, userID: Known.userID,
      installationID: Known.installationID, scope: Known.scope)
    let envelope = try PushEnvelopeSealer().seal(Known.content(.test), with: key)
    #expect(try Known.opener().open(envelope, with: key, for: .delivery).tapTarget == .home)
  }
}
