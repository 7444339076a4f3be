public import ServerBeeModels

extension RelayServer {
  /// The schema check of `POST /v1/send` alone (Protocol/Relay.md), before any clock or
  /// device lookup. For the fuzz target `fuzz-relay-send`.
  /// - Parameter body: The request body.
  /// - Returns: The request, or `nil` when the relay answers 400 `InvalidRequest`.
  @_spi(Fuzzing) public static func validateSendBody(_ body: [UInt8]) -> RelaySendRequest? {
    SendValidator.parse(body)
  }

  /// The former schema check on Foundation's `JSONDecoder`, which ``validateSendBody(_:)`` is
  /// differentially tested and fuzzed against (they differ only on a repeated key, which only
  /// the reference accepts).
  /// - Parameter body: The request body.
  /// - Returns: The request, or `nil`.
  @_spi(Fuzzing) public static func referenceValidateSendBody(_ body: [UInt8])
    -> RelaySendRequest?
  {
    ReferenceSendValidator.parse(body)
  }
}
