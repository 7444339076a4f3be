import Foundation

/// Text from a server or a push, made safe for a terminal: control characters (escape
/// sequences, carriage returns, bidirectional overrides) become spaces, so a server name can
/// never move the cursor, recolour the screen or hide text.
/// - Parameter text: Untrusted text.
/// - Returns: The text with every control or format character replaced by a space.
public func terminalSafe(_ text: String) -> String {
  String(
    String.UnicodeScalarView(
      text.unicodeScalars.map { scalar in
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: " "
        default: scalar
        }
      }))
}

/// Writes one line on standard output at once (no buffering, so a script reading the output
/// sees it while the recipe runs), after ``terminalSafe(_:)``.
/// - Parameter line: The line.
public func say(_ line: String) {
  FileHandle.standardOutput.write(Data((terminalSafe(line) + "\n").utf8))
}

/// Writes one line on standard error (progress and warnings), after ``terminalSafe(_:)``.
/// - Parameter line: The line.
public func note(_ line: String) {
  FileHandle.standardError.write(Data((terminalSafe(line) + "\n").utf8))
}

/// Runs a recipe and exits: 0 when `body` returns; otherwise the error as one sentence on
/// standard error (`localizedDescription`, which every ServerBeeKit error makes readable) and
/// status 64 for a usage mistake, 1 for anything else. `--help` prints `usage` and exits 0.
/// - Parameters:
///   - usage: The help text.
///   - flags: The option names that take no value.
///   - body: The recipe, given its options.
/// - Returns: Never; the process exits.
public func runRecipe(
  usage: String, flags: Set<String> = [], _ body: (Options) async throws -> Void
) async -> Never {
  let arguments = CommandLine.arguments.dropFirst()
  if arguments.first == "--help" || arguments.first == "-h" {
    print(usage)
    exit(0)
  }
  do {
    try await body(try Options(arguments, flags: flags))
    exit(0)
  } catch {
    let name = CommandLine.arguments.first.map { URL(fileURLWithPath: $0).lastPathComponent }
    var sentence = error.localizedDescription
    if sentence.hasSuffix(".") { sentence.removeLast() }
    note("\(name ?? "error"): \(sentence).")
    if (error as? StarterError)?.isUsage == true {
      FileHandle.standardError.write(Data((usage + "\n").utf8))  // our own text: kept as is
      exit(64)
    }
    exit(1)
  }
}
