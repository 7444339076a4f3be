public import Foundation

/// A recipe's own failure: a sentence for the user, and whether it is a usage mistake (exit
/// status 64) or something that went wrong (1).
public struct StarterError: LocalizedError, Sendable {
  /// The sentence, without a final period.
  public var message: String
  /// Whether the command line was wrong.
  public var isUsage: Bool

  /// A failure.
  /// - Parameter message: What went wrong.
  public init(_ message: String) {
    self.message = message
    isUsage = false
  }

  /// A usage mistake.
  /// - Parameter message: What is wrong with the command line.
  public init(usage message: String) {
    self.message = message
    isUsage = true
  }

  /// The sentence.
  public var errorDescription: String? { message }
}
