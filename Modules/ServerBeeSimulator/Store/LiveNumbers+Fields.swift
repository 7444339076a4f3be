import ServerBeeModels

// The one map from a live-stream field (`MetricField`) to the live number that feeds it
//: the `full_sync` writer, `ServerStatus` and the `update` entry all take the
// numbers through it, so a new live number is a stored property here and one case below.

extension LiveNumbers {
  /// A live number, in the form it is stored in.
  enum Value: Equatable {
    /// A count, a byte figure or a time in seconds.
    case integer(Int64)
    /// A percentage or a load average.
    case float(Double)
  }

  /// The number that feeds `field`; `nil` for a field that is not a live number (identity,
  /// presence, totals and the static facts come from the row).
  /// - Parameter field: A live-stream field.
  /// - Returns: Its value, or `nil`.
  // Inlined: as a call, the `full_sync` writer copied all 136 bytes of the numbers for each
  // field it asked for.
  @inline(__always)
  func value(_ field: MetricField) -> Value? {
    switch field {
    case .uptime: .integer(uptime)
    case .cpu: .float(cpu)
    case .memUsed: .integer(memUsed)
    case .swapUsed: .integer(swapUsed)
    case .diskUsed: .integer(diskUsed)
    case .netInSpeed: .integer(netInSpeed)
    case .netOutSpeed: .integer(netOutSpeed)
    case .netInTransfer: .integer(netInTransfer)
    case .netOutTransfer: .integer(netOutTransfer)
    case .load1: .float(load1)
    case .load5: .float(load5)
    case .load15: .float(load15)
    case .tcpConn: .integer(tcpConn)
    case .udpConn: .integer(udpConn)
    case .processCount: .integer(processCount)
    case .diskReadBytesPerSec: .integer(diskReadBytesPerSec)
    case .diskWriteBytesPerSec: .integer(diskWriteBytesPerSec)
    case .id, .name, .online, .lastActive, .memTotal, .swapTotal, .diskTotal, .cpuName, .os,
      .region, .countryCode, .groupID, .features, .tags, .cpuCores, .agentAuthority, .hasToken,
      .outstandingEnrollment:
      nil
    }
  }

  /// Stores the number that feeds `field` into a model through `writer`, as the field's kind
  /// wants it; nothing for a field that is not a live number.
  /// - Parameters:
  ///   - field: A field the model holds.
  ///   - writer: The model's field writer.
  func store(_ field: MetricField, into writer: MetricFieldWriter) {
    switch value(field) {
    case .integer(let number):
      if field.kind == .int {
        writer.setInt(Int(number), field)
      } else {
        writer.setInt64(number, field)
      }
    case .float(let number): writer.setMetric(number, field)
    case nil: break
    }
  }
}
