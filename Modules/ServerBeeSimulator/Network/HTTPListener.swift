import Foundation
import ServerBeeModels

/// Placeholder until the socket front-end lands.
final class HTTPListener: Sendable {
  let port: UInt16 = 0
  init(core: SimulatorCore, port: UInt16, tls: Simulator.TLSFiles?) throws {
    throw ServerBeeSimulatorError(.listenFailed, "not yet")
  }
  func stop() {}
}
