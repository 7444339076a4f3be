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
  /// - Parameters:
  ///   - label: What is being waited for.
  ///   - console: Tells whether stderr is a terminal.
  ///   - work: The wait.
  /// - Returns: What `work` returns.
  /// - Throws: What `work` throws.
  static func run<T: Sendable>(
    _ label: String, console: Console, _ work: @escaping @Sendable () async throws -> T
  ) async throws -> T {
    guard console.stderrIsTerminal else { return try await work() }
    let result = await Result {
      try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await work() }
        group.addTask {
          await animate(label)
          return nil
        }
        defer { group.cancelAll() }
        while let next = try await group.next() {
          if let value = next { return value }
        }
        throw CancellationError()
      }
    }
    StandardStream.err("\r\u{1B}[2K")
    return try result.get()
  }

  /// Draws the frames until the task is cancelled.
  private static func animate(_ label: String) async {
    var index = 0
    while !Task.isCancelled {
      StandardStream.err("\r\(frames[index % frames.count]) \(label)…")
      index += 1
      try? await ContinuousClock().sleep(for: .milliseconds(100))
    }
  }
}

extension Result where Failure == any Error {
  /// Captures the outcome of async work.
  init(catching work: () async throws -> Success) async {
    do { self = .success(try await work()) } catch { self = .failure(error) }
  }
}
