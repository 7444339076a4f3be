public import ServerBeeModels

/// The error domain of the `serverbee` command line.
public enum CommandLineDomain: ServerBeeErrorDomain {
  /// `"serverbee"`.
  public static let name = "serverbee"
}

/// The one error type of the command line: one clear line on stderr and a non-zero exit code.
public typealias CommandLineError = ServerBeeError<CommandLineDomain>

extension ServerBeeError.Code where Domain == CommandLineDomain {
  /// The arguments are wrong (unknown option, missing value); exit code 64.
  public static let usage = Self("usage")
  /// The command needs a signed-in session and there is none.
  public static let notSignedIn = Self("not_signed_in")
  /// The server refused the sign-in (wrong password or TOTP code).
  public static let signInRefused = Self("sign_in_refused")
  /// The live stream did not deliver its first full sync.
  public static let streamFailed = Self("stream_failed")
  /// The server answered something the command cannot use.
  public static let unexpectedAnswer = Self("unexpected_answer")
  /// A local resource (the home directory, the embedded simulator) could not be used.
  public static let localFailure = Self("local_failure")
  /// The item asked for (an alert, a device, a task run, a security event) does not exist, or
  /// no longer does.
  public static let notFound = Self("not_found")
  /// The account may not do this (an admin-only route, or another user's session).
  public static let notPermitted = Self("not_permitted")
  /// A notification payload opens nothing: it is not for this login, or it did not validate.
  public static let nothingToOpen = Self("nothing_to_open")
  /// A notification payload given to `open` or `push decrypt` is larger than the command reads.
  public static let payloadTooLarge = Self("payload_too_large")
  /// The user answered no to a destructive command's question; nothing was sent.
  public static let declined = Self("declined")
  /// The server refused the change for a reason the command names (a firewall guard rail, an
  /// entry that exists already).
  public static let refused = Self("refused")
}
