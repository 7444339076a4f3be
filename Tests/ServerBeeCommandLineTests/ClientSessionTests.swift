import Foundation
import ServerBeeKit
import ServerBeeTransport
import Testing

@testable import ServerBeeCommandLine

@Suite struct ClientSessionTests {
  @Test func theDeviceNameTellsTwoInstallationsOnOneHostApart() {
    // Paths only name homes here (nothing is read or written), under the temp directory.
    let base = FileManager.default.temporaryDirectory
    let adaHome = base.appendingPathComponent("ada/.serverbee")
    let first = ClientSession.deviceName(
      host: "build-01", user: "ada", home: adaHome)
    let again = ClientSession.deviceName(
      host: "build-01", user: "ada", home: URL(fileURLWithPath: adaHome.path + "/"))
    let otherHome = ClientSession.deviceName(
      host: "build-01", user: "ada", home: base.appendingPathComponent("ci/.serverbee"))
    let otherUser = ClientSession.deviceName(
      host: "build-01", user: "grace", home: adaHome)
    #expect(first.hasPrefix("serverbee CLI on build-01 (ada, "))
    #expect(first == again)
    #expect(first != otherHome)
    #expect(otherUser.hasPrefix("serverbee CLI on build-01 (grace, "))
    let shortID = first.dropFirst("serverbee CLI on build-01 (ada, ".count).dropLast()
    #expect((1...6).contains(shortID.count))
    #expect(shortID.allSatisfy { $0.isHexDigit })
  }

  /// One place reads `SERVERBEE_CA_FILE`, and every transport of a session is built from it.
  @Test func theCAFileOfTheEnvironmentIsWhatEveryConnectionTrusts() {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("ca/.serverbee")
    let named = ClientSession.configuration(
      home: home, environment: ["SERVERBEE_CA_FILE": "/etc/serverbee/ca.pem"])
    #expect(named.tls == TLSTrust(additionalCAFile: URL(fileURLWithPath: "/etc/serverbee/ca.pem")))
    #expect(ClientSession.configuration(home: home, environment: [:]).tls == TLSTrust())
    #expect(
      ClientSession.configuration(home: home, environment: ["SERVERBEE_CA_FILE": ""]).tls
        == TLSTrust())
  }
}
