public import ServerBeeModels
import ServerBeeTransport

extension RouteCatalogue {
  /// Network probes: per-server summaries, records and anomalies, the fleet overview, the
  /// targets and the settings (`Documentation/Protocol/AppRoutes.md §6`). Any member reads;
  /// changing targets and settings is for admins.
  public enum NetworkProbes {
    /// `GET /api/servers/{id}/network-probes/summary`.
    public static let serverProbeSummary = APIRoute<PathID, NoBody, NetworkProbeServerSummary>(
      "serverProbeSummary", .get, "/api/servers/{id}/network-probes/summary", .member,
      summary: "one server's latest probe of each target")
    /// `GET /api/servers/{id}/network-probes/targets`.
    public static let serverProbeTargets = APIRoute<PathID, NoBody, [NetworkProbeTarget]>(
      "serverProbeTargets", .get, "/api/servers/{id}/network-probes/targets", .member,
      summary: "the targets one server probes")
    /// `GET /api/servers/{id}/network-probes/records`.
    public static let serverProbeRecords = APIRoute<PathID, NoBody, [NetworkProbeRecord]>(
      "serverProbeRecords", .get, "/api/servers/{id}/network-probes/records", .member,
      query: ["from", "to", "target_id"],
      summary: "one server's probe records in a window")
    /// `GET /api/servers/{id}/network-probes/anomalies`.
    public static let serverProbeAnomalies = APIRoute<PathID, NoBody, [NetworkProbeAnomaly]>(
      "serverProbeAnomalies", .get, "/api/servers/{id}/network-probes/anomalies", .member,
      query: ["from", "to"], summary: "one server's probe anomalies in a window")
    /// `GET /api/network-probes/overview`.
    public static let probeOverview = APIRoute<NoPath, NoBody, [NetworkProbeFleetOverview]>(
      "probeOverview", .get, "/api/network-probes/overview", .member,
      summary: "every server's probes with sparklines")
    /// `GET /api/network-probes/targets`.
    public static let probeTargets = APIRoute<NoPath, NoBody, [NetworkProbeTarget]>(
      "probeTargets", .get, "/api/network-probes/targets", .member,
      summary: "every probe target, presets first")
    /// `POST /api/network-probes/targets`.
    public static let createProbeTarget = APIRoute<
      NoPath, NetworkProbeTargetRequest, NetworkProbeTarget
    >(
      "createProbeTarget", .post, "/api/network-probes/targets", .admin,
      summary: "add a custom probe target")
    /// `PUT /api/network-probes/targets/{id}`.
    public static let updateProbeTarget = APIRoute<
      PathID, NetworkProbeTargetRequest, NetworkProbeTarget
    >(
      "updateProbeTarget", .put, "/api/network-probes/targets/{id}", .admin,
      summary: "change a custom probe target")
    /// `DELETE /api/network-probes/targets/{id}`.
    public static let deleteProbeTarget = APIRoute<PathID, NoBody, Ignored>(
      "deleteProbeTarget", .delete, "/api/network-probes/targets/{id}", .admin,
      summary: "delete a custom probe target")
    /// `GET /api/network-probes/setting`.
    public static let probeSetting = APIRoute<NoPath, NoBody, NetworkProbeSetting>(
      "probeSetting", .get, "/api/network-probes/setting", .member,
      summary: "the probe interval, packet count and default targets")
    /// `PUT /api/network-probes/setting`.
    public static let updateProbeSetting = APIRoute<
      NoPath, NetworkProbeSetting, NetworkProbeSetting
    >(
      "updateProbeSetting", .put, "/api/network-probes/setting", .admin,
      summary: "change the probe settings")

    /// The area's routes.
    public static let all: [AnyAPIRoute] = [
      serverProbeSummary.erased, serverProbeTargets.erased, serverProbeRecords.erased,
      serverProbeAnomalies.erased, probeOverview.erased, probeTargets.erased,
      createProbeTarget.erased, updateProbeTarget.erased, deleteProbeTarget.erased,
      probeSetting.erased, updateProbeSetting.erased,
    ]
  }
}
