public import ServerBeeCore
public import ServerBeeModels

/// The error domain of ServerBeeRoutes.
public enum ServerBeeRoutesDomain: ServerBeeErrorDomain {
  /// `"ServerBeeRoutes"`.
  public static let name = "ServerBeeRoutes"
}

/// What ``RouteClient`` throws (besides `CancellationError`, untouched).
///
/// ```swift
/// do {
///   _ = try await routes.send(RouteCatalogue.Account.currentUser)
/// } catch let error as ServerBeeRoutesError where error.code == .rejected {
///   print(error.failure?.kind as Any)  // .unauthorized, .notFound, …
/// }
/// ```
public typealias ServerBeeRoutesError = ServerBeeError<ServerBeeRoutesDomain>

extension ServerBeeError.Code where Domain == ServerBeeRoutesDomain {
  /// A path value, query name or body could not be used; nothing was sent.
  public static let invalidArgument = Self("invalid_argument")
  /// The transport threw: nothing, or no whole answer, came back. ``underlying`` holds the
  /// transport's (or a decorator's) error.
  public static let transport = Self("transport")
  /// The server answered with another status than the route's success status. ``failure``
  /// says what it means.
  public static let rejected = Self("rejected")
  /// A success answer whose payload could not be read. ``underlying`` holds the decoding
  /// error.
  public static let undecodable = Self("undecodable")
}

extension ServerBeeError where Domain == ServerBeeRoutesDomain {
  /// The server's refusal, for `.rejected`.
  public var failure: APIFailure? { underlying as? APIFailure }
}
