import ServerBeeModels
import ServerBeeTransport

/// Simulated time (control API only): advancing the clock, which expires tokens, codes, grants
/// and pushes, and one simulated agent report for every online server.
///
/// The clock's offset is stored in `simulator_state` (migration 5, ``Schema/baseMigrations``) by
/// ``Simulator``, so it survives a restart.
struct ClockArea: SimulatorArea {
  let core: SimulatorCore

  static let routes: [Route] = []

  static let controlRoutes: [Route] = [
    control("POST", "__simulator/clock/advance", Self.controlAdvanceClock),
    control("POST", "__simulator/tick", Self.controlTick),
  ]

  static let migrations: [Migration] = []
}

extension ClockArea {
  /// `POST /__simulator/clock/advance {seconds}`: moves the clock → `{now}`.
  func controlAdvanceClock(_ context: RequestContext) throws -> HTTPResponse {
    let body = try context.controlBody()
    core.clock.advance(by: try body.double("seconds") ?? 0)
    return Reply.object([("now", .string(timestamp(now, .zulu).formatted(.zulu)))])
  }

  /// `POST /__simulator/tick`: one simulated agent report per online server → `{ok}`.
  func controlTick(_ context: RequestContext) throws -> HTTPResponse {
    try core.tick()
    return Reply.object([("ok", .bool(true))])
  }
}
