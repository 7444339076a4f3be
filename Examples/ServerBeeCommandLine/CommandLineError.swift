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
}
