import Foundation

/// Shows that something is going on during a long wait: a spinner on stderr when it is a
/// terminal, nothing otherwise.
///
/// ```swift
/// let value = try await Spinner.run("Waiting for the first full sync", console: console) {
///   try await loader.firstSync()
/// }
/// ```
enum Spinner {
  private static let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

  /// Runs `work`, animating `label` on stderr until it finishes.
  static func run<T: Sendable>(
    _ label: String, console: Console, _ work: @Sendable () async throws -> T
  ) async throws -> T {
    guard console.stderrIsTerminal else { return try await work() }
    let animation = Task {
      var index = 0
      while !Task.isCancelled {
        StandardStream.err("\r\(frames[index % frames.count]) \(label)…")
        index += 1
        try? await ContinuousClock().sleep(for: .milliseconds(100))
      }
    }
    let result = await Result(catching: work)
    animation.cancel()
    await animation.value
    StandardStream.err("\r\u{1B}[2K")
    return try result.get()
  }
}

extension Result where Failure == any Error {
  /// Captures the outcome of async work.
  init(catching work: () async throws -> Success) async {
    do { self = .success(try await work()) } catch { self = .failure(error) }
  }
}
