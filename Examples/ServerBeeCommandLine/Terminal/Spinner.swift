import Foundation
import ServerBeeModels

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
    try await run(label, console: console) { _ in try await work() }
  }

  /// Runs `work`, animating a label on stderr that `work` may change, and through which it
  /// prints result lines without tearing the spinner's frame (live progress).
  /// - Parameters:
  ///   - label: The first label.
  ///   - console: Tells whether stderr is a terminal.
  ///   - work: The wait; it gets the spinner's status.
  /// - Returns: What `work` returns.
  /// - Throws: What `work` throws.
  static func run<T: Sendable>(
    _ label: String, console: Console,
    _ work: @escaping @Sendable (SpinnerStatus) async throws -> T
  ) async throws -> T {
    let status = SpinnerStatus(label: label, console: console)
    guard console.stderrIsTerminal else { return try await work(status) }
    let result = await Result {
      try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await work(status) }
        group.addTask {
          await animate(status)
          return nil
        }
        defer { group.cancelAll() }
        while let next = try await group.next() {
          if let value = next { return value }
        }
        throw CancellationError()
      }
    }
    status.clear()
    return try result.get()
  }

  /// Draws the frames until the task is cancelled.
  private static func animate(_ status: SpinnerStatus) async {
    var index = 0
    while !Task.isCancelled {
      status.draw(frames[index % frames.count])
      index += 1
      try? await ContinuousClock().sleep(for: .milliseconds(100))
    }
  }
}

/// The label of a running spinner and the way its work prints lines while it spins: a line
/// clears the frame first (stdout and stderr often share one terminal), and the next frame
/// redraws below it.
final class SpinnerStatus: Sendable {
  private struct State {
    var label: String
    var drawn = false
  }

  /// Where lines go.
  let console: Console
  // Frames, lines and relabelling are serialised by this lock, so no frame lands in a line.
  private let state: Locked<State>

  init(label: String, console: Console) {
    self.console = console
    state = Locked(State(label: label))
  }

  /// Changes the label from the next frame on.
  func relabel(_ label: String) {
    state.withLock { $0.label = label }
  }

  /// Writes one line of results to stdout (through ``Console/line(_:)``).
  func line(_ text: String) {
    state.withLock { state in
      Self.erase(&state)
      console.line(text)
    }
  }

  /// Writes one JSON document to stdout (through ``Console/json(_:)``).
  func json(_ data: Data) {
    state.withLock { state in
      Self.erase(&state)
      console.json(data)
    }
  }

  fileprivate func draw(_ frame: String) {
    state.withLock { state in
      StandardStream.err("\r\u{1B}[2K\(frame) \(state.label)…")
      state.drawn = true
    }
  }

  fileprivate func clear() {
    state.withLock { Self.erase(&$0) }
  }

  private static func erase(_ state: inout State) {
    guard state.drawn else { return }
    StandardStream.err("\r\u{1B}[2K")
    state.drawn = false
  }
}

extension Result where Failure == any Error {
  /// Captures the outcome of async work.
  init(catching work: () async throws -> Success) async {
    do { self = .success(try await work()) } catch { self = .failure(error) }
  }
}
