/// Numbered step headings.
struct DemoSteps {
  let console: Console
  private var number = 0

  init(console: Console) { self.console = console }

  /// Prints the next heading.
  mutating func begin(_ title: String) {
    number += 1
    console.line("")
    console.line(
      console.stdoutIsTerminal
        ? "\u{1B}[1m==> \(number). \(title)\u{1B}[0m" : "==> \(number). \(title)")
  }
}
