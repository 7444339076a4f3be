public import ServerBeeModels

/// The error domain of ``ServerBeeClient``.
public enum ServerBeeClientDomain: ServerBeeErrorDomain {
  /// `"ServerBeeKit"`.
  public static let name = "ServerBeeKit"
}

/// What ``ServerBeeClient`` itself reports; the modules it wires report their own errors, all of
/// which conform to `ServerBeeErrorProtocol`, so one `catch` handles everything:
///
/// ```swift
/// do {
///   let fleet = try await client.watchFleet()
///   _ = try await fleet.firstSync()
/// } catch let error as any ServerBeeErrorProtocol {
///   print(error.localizedDescription)
/// }
/// ```
public typealias ServerBeeClientError = ServerBeeError<ServerBeeClientDomain>

extension ServerBeeError.Code where Domain == ServerBeeClientDomain {
  /// No login is stored, or the stored one must be recovered first.
  public static let notSignedIn = Self("not_signed_in")
  /// The live stream failed before its first `full_sync`, or none came in time.
  public static let streamFailed = Self("stream_failed")
}
