/// Frames drawn over each other on a terminal: each frame after the first starts by moving the
/// cursor back up over the previous one and erasing to the end of the screen.
///
/// The caller keeps every line shorter than the terminal: a wrapped line would take two rows
/// and the cursor would not get back to the top.
///
/// ```swift
/// var frames = InPlaceFrames()
/// console.write(frames.frame(["line 1", "line 2"]))
/// ```
struct InPlaceFrames: Sendable {
  private var previousLineCount = 0

  /// The text for `lines`, each ending with a newline, preceded by what erases the previous
  /// frame.
  mutating func frame(_ lines: [String]) -> String {
    let erase = previousLineCount > 0 ? "\u{1B}[\(previousLineCount)F\u{1B}[J" : ""
    previousLineCount = lines.count
    return erase + lines.map { $0 + "\n" }.joined()
  }
}
