import ServerBeeModels
import Testing

@testable import ServerBeeCommandLine

@Suite struct ArgumentParserTests {
  private func usageMessage(_ arguments: [String]) -> String? {
    do {
      _ = try ArgumentParser.parse(arguments)
      return nil
    } catch let error as CommandLineError {
      return error.code == .usage ? error.message : "not a usage error: \(error)"
    } catch {
      return "unexpected \(error)"
    }
  }

  @Test func globalOptionsAreAcceptedBeforeAndAfterTheCommand() throws {
    let parsed = try ArgumentParser.parse([
      "--home", "/tmp/h", "watch", "--once", "--json", "--server=https://bee.example",
    ])
    #expect(parsed.command == "watch")
    #expect(parsed.values == ["home": "/tmp/h", "server": "https://bee.example"])
    #expect(parsed.flags == ["once", "json"])
    #expect(parsed.json)
  }

  @Test func positionalArgumentsFollowTheCommand() throws {
    let parsed = try ArgumentParser.parse(["pair", #"{"type":"serverbee_pair"}"#])
    #expect(parsed.positionals == [#"{"type":"serverbee_pair"}"#])
  }

  @Test func doubleDashEndsOptionsSoAValueMayStartWithDashes() throws {
    let parsed = try ArgumentParser.parse(["pair", "--", "--looks-like-an-option"])
    #expect(parsed.positionals == ["--looks-like-an-option"])
  }

  @Test func valuesMayStartWithASingleDash() throws {
    let parsed = try ArgumentParser.parse(["login", "--password", "-secret-"])
    #expect(parsed.values["password"] == "-secret-")
  }

  @Test func unknownOptionsNameTheOptionAndTheCommand() {
    #expect(usageMessage(["watch", "--bogus"]) == "unknown option '--bogus' for 'watch'")
    #expect(usageMessage(["--bogus"]) == "unknown option '--bogus'")
    #expect(usageMessage(["watch", "-x"]) == "unknown option '-x'")
  }

  @Test func optionsOfOtherCommandsAreRefused() {
    #expect(usageMessage(["servers", "--once"]) == "unknown option '--once' for 'servers'")
  }

  @Test func aMissingValueIsAUsageError() {
    #expect(usageMessage(["login", "--username"]) == "option '--username' needs a value (U)")
    #expect(usageMessage(["login", "--username", "--password", "x"]) != nil)
  }

  @Test func aFlagWithAValueIsAUsageError() {
    #expect(usageMessage(["watch", "--once=yes"]) == "option '--once' takes no value")
  }

  @Test func unknownCommandsPointToTheHelp() {
    #expect(usageMessage(["frobnicate"]) == "unknown command 'frobnicate' (see 'serverbee --help')")
  }

  @Test func positionalCountsAreChecked() {
    #expect(usageMessage(["pair"]) == "missing argument: usage: serverbee pair 'QR-PAYLOAD-JSON'")
    #expect(usageMessage(["pair", "a", "b"]) == "unexpected argument 'b' for 'pair'")
    #expect(usageMessage(["servers", "extra"]) == "unexpected argument 'extra' for 'servers'")
  }

  @Test func helpSkipsThePositionalCheck() throws {
    let parsed = try ArgumentParser.parse(["pair", "-h"])
    #expect(parsed.wantsHelp)
    #expect(parsed.command == "pair")
  }

  @Test func secondsMustBePositiveNumbers() throws {
    #expect(try ArgumentParser.parse(["demo", "--duration", "2.5"]).seconds("duration") == 2.5)
    #expect(try ArgumentParser.parse(["demo"]).seconds("duration") == nil)
    for bad in ["0", "-1", "soon", "inf"] {
      let parsed = try ArgumentParser.parse(["demo", "--duration=\(bad)"])
      #expect(throws: CommandLineError.self) { try parsed.seconds("duration") }
    }
  }

  @Test func everyCommandHasHelpWithUsageAndExamples() {
    let global = HelpText.global()
    for spec in CommandCatalog.commands {
      #expect(global.contains("  \(spec.name) "))
      let help = HelpText.command(spec)
      #expect(help.hasPrefix("usage: serverbee \(spec.usage)\n"))
      #expect(!spec.examples.isEmpty)
      for option in spec.options { #expect(help.contains("--\(option.name)")) }
    }
  }

  @Test func aMissingCommandIsAUsageErrorButABareCallShowsTheHelp() async {
    #expect(await ServerBeeCommand.main([]) == 0)
    #expect(await ServerBeeCommand.main(["--json"]) == 64)
    #expect(await ServerBeeCommand.main(["--nope"]) == 64)
  }
}
