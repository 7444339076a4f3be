/// Numbered step headings.
struct DemoSteps {
  let console: Console
  private var number = 0

  init(console: Console) { self.console = console }

  /// Prints the next heading.
  mutating func begin(_ title: String) {
    number += 1
    console.line("")
    console.line(console.bold("==> \(number). \(title)"))
  }
}
