public import ServerBeeModels
import ServerBeeTransport

extension RouteCatalogue {
  /// Adding a server and its agent's lifecycle: enrollment codes, re-enrolment, revoking the
  /// agent, the latest agent version, deleting a server (`Documentation/Protocol/Agents.md`).
  public enum Agents {
    /// `POST /api/servers`: idempotent per `onboarding_request_id`.
    public static let createServer = APIRoute<NoPath, CreateServerRequest, CreateServerResponse>(
      "createServer", .post, "/api/servers", .admin,
      summary: "add a pending server and mint its first enrollment code")
    /// `POST /api/servers/{id}/agent-authority/offers`.
    public static let issueEnrollment = APIRoute<
      PathID, EnrollmentOfferRequest, EnrollmentOfferResponse
    >(
      "issueEnrollment", .post, "/api/servers/{id}/agent-authority/offers", .admin,
      summary: "issue an enrollment code for an unclaimed server")
    /// `POST /api/servers/{id}/agent-authority/offers/{offer_id}/replace`: the server reads no
    /// body; `{}` is sent.
    public static let replaceEnrollment = APIRoute<
      PathIDPair, EnrollmentOfferRequest, EnrollmentOfferResponse
    >(
      "replaceEnrollment", .post,
      "/api/servers/{id}/agent-authority/offers/{offer_id}/replace", .admin,
      summary: "replace the open enrollment code with a fresh one")
    /// `DELETE /api/servers/{id}/agent-authority/offers/{offer_id}`.
    public static let revokeEnrollment = APIRoute<PathIDPair, NoBody, RevokeOfferResponse>(
      "revokeEnrollment", .delete, "/api/servers/{id}/agent-authority/offers/{offer_id}", .admin,
      summary: "revoke an enrollment code")
    /// `POST /api/servers/{id}/agent-authority/re-enrollment`.
    public static let reEnroll = APIRoute<PathID, ReEnrollmentRequest, EnrollmentOfferResponse>(
      "reEnroll", .post, "/api/servers/{id}/agent-authority/re-enrollment", .admin,
      summary: "re-enrol a claimed server's agent (graceful or emergency)")
    /// `DELETE /api/servers/{id}/agent-authority`.
    public static let revokeAgentAuthority = APIRoute<PathID, NoBody, RevokeAuthorityResponse>(
      "revokeAgentAuthority", .delete, "/api/servers/{id}/agent-authority", .admin,
      summary: "cut off a server's agent and leave it unclaimed")
    /// `GET /api/agent/latest-version`.
    public static let latestAgentVersion = APIRoute<NoPath, NoBody, LatestAgentVersion>(
      "latestAgentVersion", .get, "/api/agent/latest-version", .member,
      summary: "the newest agent release")
    /// `DELETE /api/servers/{id}`.
    public static let deleteServer = APIRoute<PathID, NoBody, String>(
      "deleteServer", .delete, "/api/servers/{id}", .admin,
      summary: "delete a server and everything recorded for it")

    /// `POST /api/servers/{id}/upgrade`: progress and the outcome come on the live stream.
    public static let upgradeAgent = APIRoute<PathID, UpgradeAgentRequest, String>(
      "upgradeAgent", .post, "/api/servers/{id}/upgrade", .admin,
      summary: "start upgrading a server's agent to a version")

    /// The area's routes.
    public static let all: [AnyAPIRoute] = [
      createServer.erased, issueEnrollment.erased, replaceEnrollment.erased,
      revokeEnrollment.erased, reEnroll.erased, revokeAgentAuthority.erased,
      latestAgentVersion.erased, deleteServer.erased, upgradeAgent.erased,
    ]
  }
}
