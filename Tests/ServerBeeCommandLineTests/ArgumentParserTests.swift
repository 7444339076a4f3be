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

  /// `servers upgrade --version V` takes a value; everywhere else `--version` is the flag.
  @Test func aCommandsOwnOptionWinsOverAGlobalOfTheSameName() throws {
    let upgrade = try ArgumentParser.parse(["servers", "upgrade", "web-1", "--version", "1.5.0"])
    #expect(upgrade.command == "servers upgrade")
    #expect(upgrade.values == ["version": "1.5.0"])
    #expect(upgrade.flags.isEmpty && upgrade.positionals == ["web-1"])
    #expect(try ArgumentParser.parse(["--version"]).flags == ["version"])
    #expect(try ArgumentParser.parse(["servers", "--version"]).flags == ["version"])
    #expect(
      usageMessage(["servers", "upgrade", "web-1", "--version"])
        == "option '--version' needs a value (V)")
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
    #expect(usageMessage(["watch", "extra"]) == "unexpected argument 'extra' for 'watch'")
    // 'servers' and 'groups' are also groups ('servers records', 'groups create'), so a word
    // after them names a command.
    #expect(
      usageMessage(["servers", "extra"])
        == "unknown command 'servers extra' (see 'serverbee help servers')")
    #expect(
      usageMessage(["groups", "extra"])
        == "unknown command 'groups extra' (see 'serverbee help groups')")
    // 'servers tags' takes a SERVER, so a word after it is one, unless it is 'set'.
    #expect(usageMessage(["servers", "tags", "web-1"]) == nil)
    #expect(usageMessage(["servers", "tags", "set", "web-1", "a", "b"]) == nil)
    #expect(
      usageMessage(["groups", "rename", "id"])
        == "missing argument: usage: serverbee groups rename ID NAME [--api-key KEY]")
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

  @Test func everyCommandHasHelpWithUsageAndExamples() throws {
    let global = HelpText.global()
    for declaration in CommandCatalog.all {
      #expect(global.contains("  \(declaration.fullName) "))
      let help = HelpText.command(declaration)
      #expect(help.hasPrefix("usage: serverbee \(declaration.usage)\n"))
      #expect(!declaration.examples.isEmpty, "\(declaration.fullName)")
      for option in declaration.options { #expect(help.contains("--\(option.name)")) }
      // `serverbee help WORDS…` is the same text.
      #expect(try HelpText.text(for: declaration.words) == help)
    }
  }

  @Test func subCommandWordsNameOneDeclarationAndTheRestAreItsArguments() throws {
    let enable = try ArgumentParser.parse(["account", "2fa", "enable", "--code", "123456"])
    #expect(enable.words == ["account", "2fa", "enable"])
    #expect(enable.command == "account 2fa enable")
    #expect(enable.values["code"] == "123456")
    #expect(enable.positionals.isEmpty)
    let delete = try ArgumentParser.parse(["users", "delete", "delete", "--yes"])
    #expect(delete.words == ["users", "delete"])
    #expect(delete.positionals == ["delete"])
    #expect(delete.flags == ["yes"])
    // An option of a sub-command may come before its word.
    let show = try ArgumentParser.parse(["alerts", "--api-key", "k", "show", "v1.x"])
    #expect(show.words == ["alerts", "show"])
    #expect(show.positionals == ["v1.x"])
  }

  @Test func groupsAndUnknownSubCommandsAreUsageErrorsThatPointToTheHelp() {
    #expect(
      usageMessage(["account"])
        == "'account' needs one of: password, 2fa, api-keys (see 'serverbee help account')")
    #expect(
      usageMessage(["account", "2fa"])
        == "'account 2fa' needs one of: status, setup, enable, disable "
        + "(see 'serverbee help account 2fa')")
    #expect(
      usageMessage(["account", "frob"])
        == "unknown command 'account frob' (see 'serverbee help account')")
    #expect(
      usageMessage(["alerts", "frob"])
        == "unknown command 'alerts frob' (see 'serverbee help alerts')")
    #expect(
      usageMessage(["users", "delete"]) == "missing argument: usage: serverbee users "
        + "delete ID [--api-key KEY] [--yes]")
  }

  @Test func onlyDestructiveCommandsTakeYes() {
    #expect(usageMessage(["users", "--yes"]) == "unknown option '--yes' for 'users'")
    #expect(usageMessage(["alerts", "rules", "enable", "r", "--yes"]) != nil)
    #expect(usageMessage(["alerts", "rules", "disable", "r", "--yes"]) == nil)
  }

  @Test func helpNamesAGroupsCommandsAndRefusesUnknownWords() throws {
    let group = try HelpText.text(for: ["account", "2fa"])
    #expect(group.hasPrefix("usage: serverbee account 2fa COMMAND [OPTIONS]\n"))
    for name in ["status", "setup", "enable", "disable"] {
      #expect(group.contains("  account 2fa \(name) "))
    }
    #expect(try HelpText.text(for: []) == HelpText.global())
    // A command that is also a group lists its sub-commands.
    #expect(try HelpText.text(for: ["alerts"]).contains("  alerts rules disable "))
    #expect(throws: CommandLineError.self) { try HelpText.text(for: ["account", "nope"]) }
    let parsed = try ArgumentParser.parse(["help", "account", "2fa", "enable"])
    #expect(parsed.words == ["help"])
    #expect(parsed.positionals == ["account", "2fa", "enable"])
  }

  @Test func helpAndVersionNeedNoCommandArguments() async throws {
    #expect(await ServerBeeCommand.main(["--version"]) == 0)
    #expect(await ServerBeeCommand.main(["account", "--help"]) == 0)
    #expect(await ServerBeeCommand.main(["users", "delete", "--help"]) == 0)
    #expect(await ServerBeeCommand.main(["help", "account", "2fa", "enable"]) == 0)
    #expect(await ServerBeeCommand.main(["help", "nope"]) == 64)
    #expect(CommandCatalog.version.hasPrefix("serverbee "))
  }

  @Test func aMissingCommandIsAUsageErrorButABareCallShowsTheHelp() async {
    #expect(await ServerBeeCommand.main([]) == 0)
    #expect(await ServerBeeCommand.main(["--json"]) == 64)
    #expect(await ServerBeeCommand.main(["--nope"]) == 64)
  }
}
