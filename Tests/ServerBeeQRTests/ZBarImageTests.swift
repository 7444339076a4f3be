import Testing

@Suite struct ZBarImageTests {
  @Test func missingZbarimgFailsWithTheInstallHint() throws {
    let error = try #require(throws: ZBarImage.Failure.self) {
      try ZBarImage(searchPath: "/nonexistent-serverbee-bin")
    }
    #expect(error.description.contains("zbar-tools"))
  }
}
