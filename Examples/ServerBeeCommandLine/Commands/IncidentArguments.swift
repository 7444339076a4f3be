import Foundation
import ServerBeeModels

/// Option values of the incident, maintenance and status-page commands, read into the SDK's
/// types; a bad value is a usage error that names the option.
enum IncidentArguments {
  /// `--NAME IDS`: comma-separated ids; an empty value is the empty list.
  static func serverIDs(_ arguments: ParsedArguments, _ name: String = "servers") -> [String]? {
    arguments.values[name].map { text in
      text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        .filter { !$0.isEmpty }
    }
  }

  /// `--NAME TIME` as RFC 3339.
  static func time(_ arguments: ParsedArguments, _ name: String) throws -> RFC3339Timestamp? {
    guard let text = arguments.values[name] else { return nil }
    guard let time = try? RFC3339Timestamp(parsing: text) else {
      throw CommandLineError(
        .usage,
        "--\(name) expects an RFC 3339 time such as 2026-12-06T02:00:00Z, got "
          + "'\(TerminalText.safe(text))'")
    }
    return time
  }

  /// A required `--NAME TIME`.
  static func requiredTime(_ arguments: ParsedArguments, _ name: String) throws
    -> RFC3339Timestamp
  {
    guard let time = try time(arguments, name) else {
      throw CommandLineError(.usage, "--\(name) TIME is required")
    }
    return time
  }

  /// `--NAME yes|no` (also on/off, true/false).
  static func switchValue(_ arguments: ParsedArguments, _ name: String) throws -> Bool? {
    guard let text = arguments.values[name] else { return nil }
    switch text.lowercased() {
    case "yes", "on", "true": return true
    case "no", "off", "false": return false
    default:
      throw CommandLineError(
        .usage, "--\(name) expects yes or no, got '\(TerminalText.safe(text))'")
    }
  }

  /// `--NAME PCT` as a finite number.
  static func number(_ arguments: ParsedArguments, _ name: String) throws -> Double? {
    guard let text = arguments.values[name] else { return nil }
    guard let value = Double(text), value.isFinite else {
      throw CommandLineError(.usage, "--\(name) expects a number, got '\(TerminalText.safe(text))'")
    }
    return value
  }

  /// `--status S`, one of the four statuses.
  static func status(_ arguments: ParsedArguments) throws -> IncidentStatus? {
    guard let text = arguments.values["status"] else { return nil }
    guard IncidentStatus.all.map(\.rawValue).contains(text) else {
      throw CommandLineError(
        .usage,
        "--status expects investigating, identified, monitoring or resolved, got "
          + "'\(TerminalText.safe(text))'")
    }
    return IncidentStatus(rawValue: text)
  }

  /// A list of servers for a table cell: `all` for none, else the count.
  static func serversCell(_ ids: [String]?) -> String {
    guard let ids, !ids.isEmpty else { return "all" }
    return ids.count == 1 ? ids[0] : "\(ids.count) servers"
  }
}
