import Foundation
import StarterSupport
import Testing

@Suite(.timeLimit(.minutes(1))) struct RecipeToolsTests {
  @Test func optionsFlagsPositionalsAndTheCommandAfterTheDashes() throws {
    let options = try Options(
      ["--server", "https://a.example", "--seconds=2.5", "--sign-out", "file", "--", "cmd", "--x"],
      flags: ["sign-out"], environment: ["SERVERBEE_PASSWORD": "pw"])
    #expect(options.value("server") == "https://a.example")
    #expect(try options.seconds("seconds") == .milliseconds(2500))
    #expect(options.flag("sign-out"))
    #expect(options.positionals == ["file"])
    #expect(options.rest == ["cmd", "--x"])
    #expect(try options.secret(env: "SERVERBEE_PASSWORD") == "pw")
  }

  @Test(arguments: [["--count", "0"], ["--count", "x"], ["--count"]])
  func badNumbersAreUsageErrors(_ arguments: [String]) {
    #expect(throws: StarterError.self) { try Options(arguments).count("count") }
  }

  @Test func aMissingSecretNamesTheVariableOnly() {
    let error = #expect(throws: StarterError.self) {
      try Options([], environment: [:]).secret(env: "SERVERBEE_API_KEY")
    }
    #expect(error?.localizedDescription == "set $SERVERBEE_API_KEY")
    #expect(error?.isUsage == true)
  }

  @Test func controlCharactersNeverReachTheTerminal() {
    #expect(terminalSafe("web\u{1B}[2J-1\r\u{202E}x") == "web [2J-1  x")
    #expect(terminalSafe("Hoch CPU auf 数据库") == "Hoch CPU auf 数据库")
  }

  @Test func theCommandGetsTitleAndBodyAsArgumentsNeverThroughAShell() async throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("starter-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let record = directory.appendingPathComponent("record").path
    let command = try NotificationCommand([
      "sh", "-c", #"printf '%s|%s' "$1" "$2" > "$0"; echo open"#, record,
    ])

    let title = "High CPU on $(touch \(directory.path)/pwned); web-1"
    let result = try await command.run(title: title, body: "`id` 'quoted'")

    #expect(result.status == 0)
    #expect(result.opens)
    #expect(try String(contentsOfFile: record, encoding: .utf8) == title + "|`id` 'quoted'")
    #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("pwned").path))
  }
}
