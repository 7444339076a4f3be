package import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The start-up and shutdown that `serverbee-simulator` and `serverbee-relay` share: log lines
/// on stderr, `--help` and `--version`, signals, the one JSON line on stdout, and the wait for
/// SIGINT or SIGTERM. Each `main.swift` only assembles its server.
///
/// ```swift
/// let process = ServerProcess(name: "serverbee-relay", usage: usage)
/// process.answerHelpAndVersion(CommandLine.arguments)
/// process.prepareSignals()                      // before any thread starts
/// let url = try relay.start(port: port)
/// try process.announce(url: url, controlToken: relay.controlToken)
/// process.waitForStopSignal()                   // logs "signal N: stopping"
/// relay.stop()
/// process.log("stopped")
/// ```
package struct ServerProcess: Sendable {
  /// The executable's name, the prefix of every log line.
  package let name: String
  /// What `--help` prints.
  package let usage: String
  /// What `--version` prints, if the executable has one.
  package let version: String?

  /// Creates the helper.
  /// - Parameters:
  ///   - name: The executable's name.
  ///   - usage: The `--help` text.
  ///   - version: The `--version` line, or `nil` when `--version` is not an option.
  package init(name: String, usage: String, version: String? = nil) {
    self.name = name
    self.usage = usage
    self.version = version
  }

  /// Writes `name: text` and a newline to stderr.
  /// - Parameter text: The line; never a secret.
  package func log(_ text: String) {
    FileHandle.standardError.write(Data("\(name): \(text)\n".utf8))
  }

  /// Logs `text` and exits with `status`.
  /// - Parameters:
  ///   - text: The one line.
  ///   - status: The exit status; 2 (bad option or failed start) by default.
  package func fail(_ text: String, status: Int32 = 2) -> Never {
    log(text)
    exit(status)
  }

  /// Prints the usage (`-h`, `--help`) or the version (`--version`) and exits 0 when asked,
  /// whatever else the arguments hold.
  /// - Parameter arguments: The command line, the executable first.
  package func answerHelpAndVersion(_ arguments: [String]) {
    let flags = arguments.dropFirst()
    if flags.contains(where: { $0 == "--help" || $0 == "-h" }) {
      FileHandle.standardOutput.write(Data(usage.utf8))
      exit(0)
    }
    if let version, flags.contains("--version") {
      FileHandle.standardOutput.write(Data((version + "\n").utf8))
      exit(0)
    }
  }

  /// Ignores SIGPIPE (for stdout and stderr, pipes to whoever started us that may close
  /// first; sockets never raise it) and blocks SIGINT and SIGTERM in every thread, so only
  /// ``waitForStopSignal()`` sees them. Call it before anything starts a thread.
  package func prepareSignals() {
    signal(SIGPIPE, SIG_IGN)
    var blocked = Self.stopSignals
    pthread_sigmask(SIG_BLOCK, &blocked, nil)
  }

  /// Writes the one line `{"url":…,"control_token":…}` (keys in this order) on stdout.
  /// - Parameters:
  ///   - url: The server's base URL.
  ///   - controlToken: Its control token.
  /// - Throws: When a string cannot be encoded (it always can).
  package func announce(url: URL, controlToken: String) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.withoutEscapingSlashes]
    func quoted(_ text: String) throws -> String {
      String(decoding: try encoder.encode(text), as: UTF8.self)
    }
    let line =
      "{\"url\":\(try quoted(url.absoluteString)),"
      + "\"control_token\":\(try quoted(controlToken))}\n"
    FileHandle.standardOutput.write(Data(line.utf8))
  }

  /// Waits for SIGINT or SIGTERM (blocked by ``prepareSignals()``) and logs it.
  /// - Returns: The signal.
  @discardableResult
  package func waitForStopSignal() -> Int32 {
    var blocked = Self.stopSignals
    var received: Int32 = 0
    sigwait(&blocked, &received)
    log("signal \(received): stopping")
    return received
  }

  private static var stopSignals: sigset_t {
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, SIGINT)
    sigaddset(&set, SIGTERM)
    return set
  }
}
