import Foundation

/// Where `serverbee` keeps its state: `--home`, else `$SERVERBEE_HOME`, else `~/.serverbee`.
enum HomeDirectory {
  /// Resolves the home directory.
  /// - Parameters:
  ///   - option: The `--home` value.
  ///   - environment: The process environment.
  /// - Returns: The directory URL (not created here).
  static func resolve(option: String?, environment: [String: String]) -> URL {
    if let option, !option.isEmpty { return URL(fileURLWithPath: expand(option, environment)) }
    if let variable = environment["SERVERBEE_HOME"], !variable.isEmpty {
      return URL(fileURLWithPath: expand(variable, environment))
    }
    let user = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
    return URL(fileURLWithPath: user).appendingPathComponent(".serverbee", isDirectory: true)
  }

  private static func expand(_ path: String, _ environment: [String: String]) -> String {
    guard path == "~" || path.hasPrefix("~/"), let home = environment["HOME"] else { return path }
    return home + path.dropFirst()
  }
}
