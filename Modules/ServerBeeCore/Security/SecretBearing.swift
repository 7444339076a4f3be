/// A value that holds a secret (token, password, code, key) and must never print it.
///
/// Conforming types get a `description`, `debugDescription` and mirror (used by `print`, string
/// interpolation, `dump` and debuggers) that show only ``redactedSummary``, so a value that ends up
/// in a log line by accident leaks nothing.
///
/// ```swift
/// print(tokens) // MobileTokenResponse(user: admin, session: 5b0f…, secrets redacted)
/// ```
public protocol SecretBearing: CustomStringConvertible, CustomDebugStringConvertible,
  CustomReflectable
{
  /// A summary with no secret in it.
  var redactedSummary: String { get }
}

extension SecretBearing {
  /// The ``redactedSummary``.
  public var description: String { redactedSummary }
  /// The ``redactedSummary``.
  public var debugDescription: String { redactedSummary }
  /// A mirror without children, so `dump` shows only the summary.
  public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
