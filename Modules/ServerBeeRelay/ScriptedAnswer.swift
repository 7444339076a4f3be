/// One scripted provider answer for ``ScriptedPushProvider``: an answer, optionally after a
/// delay or held until ``ScriptedPushProvider/release()``.
///
/// ```swift
/// provider.enqueue(ScriptedAnswer(.accepted))
/// provider.enqueue(.delayed(.serverError(status: 503), by: .seconds(20)))  // exceeds a timeout
/// provider.enqueue(.held(.accepted))  // stays in flight until release()
/// ```
public struct ScriptedAnswer: Hashable, Sendable {
  /// The answer given.
  public var answer: ProviderAnswer
  /// How long to wait before answering; zero by default.
  public var delay: Duration
  /// Whether to wait for ``ScriptedPushProvider/release()`` (after the delay) before answering.
  public var holdsUntilReleased: Bool

  /// Creates a scripted answer.
  /// - Parameters:
  ///   - answer: The answer.
  ///   - delay: The wait before answering.
  ///   - holdsUntilReleased: Whether to wait for a release.
  public init(_ answer: ProviderAnswer, delay: Duration = .zero, holdsUntilReleased: Bool = false) {
    self.answer = answer
    self.delay = delay
    self.holdsUntilReleased = holdsUntilReleased
  }

  /// An answer given after a delay.
  /// - Parameters:
  ///   - answer: The answer.
  ///   - delay: The wait.
  /// - Returns: The scripted answer.
  public static func delayed(_ answer: ProviderAnswer, by delay: Duration) -> ScriptedAnswer {
    ScriptedAnswer(answer, delay: delay)
  }

  /// An answer given only after ``ScriptedPushProvider/release()``.
  /// - Parameter answer: The answer.
  /// - Returns: The scripted answer.
  public static func held(_ answer: ProviderAnswer) -> ScriptedAnswer {
    ScriptedAnswer(answer, holdsUntilReleased: true)
  }
}
