import Foundation
import Testing

@testable import ServerBeeCommandLine

@Suite struct HomeDirectoryTests {
  @Test func theOptionWinsOverTheEnvironment() {
    let url = HomeDirectory.resolve(
      option: "/srv/bee", environment: ["SERVERBEE_HOME": "/env/bee", "HOME": "/home/ada"])
    #expect(url.path == "/srv/bee")
  }

  @Test func theEnvironmentVariableWinsOverTheDefault() {
    let url = HomeDirectory.resolve(
      option: nil, environment: ["SERVERBEE_HOME": "/env/bee", "HOME": "/home/ada"])
    #expect(url.path == "/env/bee")
  }

  @Test func theDefaultIsDotServerbeeInTheUsersHome() {
    let url = HomeDirectory.resolve(option: nil, environment: ["HOME": "/home/ada"])
    #expect(url.path == "/home/ada/.serverbee")
  }

  @Test func aTildeIsExpanded() {
    let url = HomeDirectory.resolve(option: "~/bee", environment: ["HOME": "/home/ada"])
    #expect(url.path == "/home/ada/bee")
  }
}
