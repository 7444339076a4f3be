import Foundation
import Testing

@testable import ServerBeeCommandLine

@Suite struct ClientSessionTests {
  @Test func theDeviceNameTellsTwoInstallationsOnOneHostApart() {
    let first = ClientSession.deviceName(
      host: "build-01", user: "ada", home: URL(fileURLWithPath: "/home/ada/.serverbee"))
    let again = ClientSession.deviceName(
      host: "build-01", user: "ada", home: URL(fileURLWithPath: "/home/ada/.serverbee/"))
    let otherHome = ClientSession.deviceName(
      host: "build-01", user: "ada", home: URL(fileURLWithPath: "/srv/ci/.serverbee"))
    let otherUser = ClientSession.deviceName(
      host: "build-01", user: "grace", home: URL(fileURLWithPath: "/home/ada/.serverbee"))
    #expect(first.hasPrefix("serverbee CLI on build-01 (ada, "))
    #expect(first == again)
    #expect(first != otherHome)
    #expect(otherUser.hasPrefix("serverbee CLI on build-01 (grace, "))
    let shortID = first.dropFirst("serverbee CLI on build-01 (ada, ".count).dropLast()
    #expect((1...6).contains(shortID.count))
    #expect(shortID.allSatisfy { $0.isHexDigit })
  }
}
