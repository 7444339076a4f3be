public import Foundation

/// A recipe's command line: `--name value` (or `--name=value`) options, `--flag`s, positional
/// arguments, and everything after `--` kept as it is (a command to run).
///
/// ```swift
/// let options = try Options(CommandLine.arguments.dropFirst(), flags: ["sign-out"])
/// let seconds = try options.seconds("seconds")       // --seconds 5 → 5 s, absent → nil
/// let password = try options.required("password", env: "SERVERBEE_PASSWORD")
/// ```
public struct Options: Sendable {
  /// The options that took a value, by name without the dashes.
  public private(set) var values: [String: String] = [:]
  /// The flags given.
  public private(set) var flags: Set<String> = []
  /// The arguments that are not options, in order.
  public private(set) var positionals: [String] = []
  /// Everything after a lone `--`.
  public private(set) var rest: [String] = []
  private let environment: [String: String]

  /// Parses arguments.
  /// - Parameters:
  ///   - arguments: The arguments without the program name.
  ///   - flags: The option names that take no value.
  ///   - environment: Where ``value(_:env:)`` looks when an option is missing.
  /// - Throws: ``StarterError`` for an option without its value.
  public init(
    _ arguments: some Sequence<String>, flags: Set<String> = [],
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws {
    self.environment = environment
    var remaining = Array(arguments)[...]
    while let argument = remaining.popFirst() {
      if argument == "--" {
        rest = Array(remaining)
        break
      }
      guard argument.hasPrefix("--"), argument.count > 2 else {
        positionals.append(argument)
        continue
      }
      let name = String(argument.dropFirst(2))
      if let equals = name.firstIndex(of: "=") {
        values[String(name[..<equals])] = String(name[name.index(after: equals)...])
        continue
      }
      if flags.contains(name) {
        self.flags.insert(name)
        continue
      }
      guard let value = remaining.popFirst() else {
        throw StarterError(usage: "--\(name) needs a value")
      }
      values[name] = value
    }
  }

  /// An option's value, else the environment variable `env`, else `nil`.
  /// - Parameters:
  ///   - name: The option name without dashes.
  ///   - env: An environment variable to fall back on.
  /// - Returns: The value.
  public func value(_ name: String, env: String? = nil) -> String? {
    values[name] ?? env.flatMap { environment[$0] }.flatMap { $0.isEmpty ? nil : $0 }
  }

  /// An option's value (or environment variable) that must be there.
  /// - Parameters:
  ///   - name: The option name without dashes.
  ///   - env: An environment variable to fall back on.
  /// - Returns: The value.
  /// - Throws: ``StarterError`` naming what is missing.
  public func required(_ name: String, env: String? = nil) throws -> String {
    guard let value = value(name, env: env) else {
      throw StarterError(usage: "give --\(name)" + (env.map { " (or set $\($0))" } ?? ""))
    }
    return value
  }

  /// A secret (password, API key) from the environment only: command-line arguments show in
  /// `ps` and in shell histories.
  /// - Parameter env: The environment variable.
  /// - Returns: Its value.
  /// - Throws: ``StarterError`` when it is not set.
  public func secret(env: String) throws -> String {
    guard let value = environment[env], !value.isEmpty else {
      throw StarterError(usage: "set $\(env)")
    }
    return value
  }

  /// Whether a flag was given.
  /// - Parameter name: The flag without dashes.
  /// - Returns: `true` when given.
  public func flag(_ name: String) -> Bool { flags.contains(name) }

  /// A positive whole number option.
  /// - Parameter name: The option name without dashes.
  /// - Returns: The number, or `nil` when absent.
  /// - Throws: ``StarterError`` when it is not a positive number.
  public func count(_ name: String) throws -> Int? {
    guard let text = values[name] else { return nil }
    guard let value = Int(text), value > 0 else {
      throw StarterError(usage: "--\(name) expects a positive number, got '\(text)'")
    }
    return value
  }

  /// A positive number of seconds.
  /// - Parameter name: The option name without dashes.
  /// - Returns: The duration, or `nil` when absent.
  /// - Throws: ``StarterError`` when it is not a positive number up to one year.
  public func seconds(_ name: String) throws -> Duration? {
    guard let text = values[name] else { return nil }
    guard let value = Double(text), value > 0, value <= 31_536_000 else {
      throw StarterError(usage: "--\(name) expects a positive number of seconds, got '\(text)'")
    }
    return .milliseconds(Int64((value * 1000).rounded(.up)))
  }

  /// An `http(s)` URL option.
  /// - Parameters:
  ///   - name: The option name without dashes.
  ///   - env: An environment variable to fall back on.
  /// - Returns: The URL.
  /// - Throws: ``StarterError`` when missing or not an `http(s)` URL.
  public func url(_ name: String, env: String? = nil) throws -> URL {
    let text = try required(name, env: env)
    guard let url = URL(string: text), ["http", "https"].contains(url.scheme), url.host != nil
    else { throw StarterError(usage: "--\(name) expects an http(s) URL") }
    return url
  }

  /// The state directory, shared by the recipes as an app shares it with its extension:
  /// `--home`, else `$SERVERBEE_STARTER_HOME`, else `~/.serverbee-starter`.
  /// - Returns: The directory (the encrypted store creates it when missing).
  public func home() -> URL {
    if let path = value("home", env: "SERVERBEE_STARTER_HOME") {
      return URL(fileURLWithPath: path, isDirectory: true)
    }
    return FileManager.default.homeDirectoryForCurrentUser
      .appendingPathComponent(".serverbee-starter", isDirectory: true)
  }
}
