#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension APIFailure {
  /// The open offer a domain conflict names in `details.current_offer` (Protocol/Agents.md §1),
  /// or `nil` when the failure carries none.
  ///
  /// ```swift
  /// catch let failure as APIFailure where failure.code == .enrollmentOfferOutstanding {
  ///   print("a code is open already: \(failure.currentOffer?.codePrefix ?? "?")…")
  /// }
  /// ```
  public var currentOffer: OutstandingOffer? {
    guard case .envelope(let error) = body, case .object(let members)? = error.details,
      let offer = members.first(where: { $0.key == "current_offer" })?.value,
      let data = try? WireJSON.encode(offer)
    else { return nil }
    return try? WireJSON.decode(OutstandingOffer.self, from: data)
  }
}

extension APIErrorCode {
  /// 409 on `POST /api/servers`: the request id was used with another body.
  public static let onboardingIdempotencyConflict: Self = "ONBOARDING_IDEMPOTENCY_CONFLICT"
  /// 409: the agent holds the server already; re-enrol instead.
  public static let agentAuthorityAlreadyClaimed: Self = "AGENT_AUTHORITY_ALREADY_CLAIMED"
  /// 409: no agent holds the server; issue a code instead.
  public static let agentAuthorityUnclaimed: Self = "AGENT_AUTHORITY_UNCLAIMED"
  /// 409: a code is open already (``APIFailure/currentOffer`` names it).
  public static let enrollmentOfferOutstanding: Self = "ENROLLMENT_OFFER_OUTSTANDING"
  /// 409: the offer has ended (consumed, revoked, replaced or expired).
  public static let enrollmentOfferTerminal: Self = "ENROLLMENT_OFFER_TERMINAL"
  /// 409: the offer is not the current open one.
  public static let enrollmentOfferStale: Self = "ENROLLMENT_OFFER_STALE"
}
