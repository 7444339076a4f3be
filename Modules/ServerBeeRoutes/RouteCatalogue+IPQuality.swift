public import ServerBeeModels
import ServerBeeTransport

extension RouteCatalogue {
  /// IP quality: reputation and service reachability per server
  /// (`Documentation/Protocol/AppRoutes.md §9`). Reads for any member, changes for admins.
  public enum IPQuality {
    /// `GET /api/ip-quality/overview`.
    public static let ipQualityOverview = APIRoute<NoPath, NoBody, [ServerIPQuality]>(
      "ipQualityOverview", .get, "/api/ip-quality/overview", .member,
      summary: "every server's IP quality")
    /// `GET /api/ip-quality/services`.
    public static let unlockServices = APIRoute<NoPath, NoBody, [UnlockService]>(
      "unlockServices", .get, "/api/ip-quality/services", .member,
      summary: "the services the agents probe")
    /// `GET /api/ip-quality/servers/{id}`.
    public static let serverIPQuality = APIRoute<PathID, NoBody, ServerIPQuality>(
      "serverIPQuality", .get, "/api/ip-quality/servers/{id}", .member,
      summary: "one server's IP quality")
    /// `POST /api/ip-quality/servers/{id}/check`.
    public static let checkIPQuality = APIRoute<PathID, NoBody, String>(
      "checkIPQuality", .post, "/api/ip-quality/servers/{id}/check", .admin,
      summary: "ask a server's agent to check its IP again")
    /// `GET /api/ip-quality/settings`.
    public static let ipQualitySettings = APIRoute<NoPath, NoBody, IPQualitySettings>(
      "ipQualitySettings", .get, "/api/ip-quality/settings", .member,
      summary: "how often IPs are checked")
    /// `PUT /api/ip-quality/settings`.
    public static let updateIPQualitySettings = APIRoute<
      NoPath, IPQualitySettings, IPQualitySettings
    >(
      "updateIPQualitySettings", .put, "/api/ip-quality/settings", .admin,
      summary: "change how often IPs are checked")
    /// `PUT /api/ip-quality/services/{id}`.
    public static let updateUnlockService = APIRoute<PathID, UnlockServiceUpdate, UnlockService>(
      "updateUnlockService", .put, "/api/ip-quality/services/{id}", .admin,
      summary: "enable or disable a probed service")
    /// `DELETE /api/ip-quality/services/{id}`.
    public static let deleteUnlockService = APIRoute<PathID, NoBody, String>(
      "deleteUnlockService", .delete, "/api/ip-quality/services/{id}", .admin,
      summary: "delete a custom probed service")

    /// The area's routes.
    public static let all: [AnyAPIRoute] = [
      ipQualityOverview.erased, unlockServices.erased, serverIPQuality.erased,
      checkIPQuality.erased, ipQualitySettings.erased, updateIPQualitySettings.erased,
      updateUnlockService.erased, deleteUnlockService.erased,
    ]
  }
}
