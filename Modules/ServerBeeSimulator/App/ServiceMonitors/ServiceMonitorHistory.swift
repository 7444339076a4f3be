import ServerBeeModels

/// A monitor as the history needs it: identity, schedule and type.
struct MonitorInfo {
  let id: String
  /// Its place among the monitors (creation order), which orders records of the same second.
  let ordinal: Int
  let type: String
  let target: String
  /// Seconds between scheduled checks.
  let interval: Int64
  let enabled: Bool
  /// Creation time, nanoseconds.
  let createdAt: Int64
}

/// A check an admin asked for (`POST /api/service-monitors/{id}/check`), as stored.
struct ManualCheck {
  let sequence: Int64
  let monitorID: String
  /// Nanoseconds.
  let time: Int64
}

/// One record as the wire writes it, with its time for ordering.
struct MonitorRecord {
  let id: Int64
  let monitorID: String
  /// Nanoseconds.
  let time: Int64
  let outcome: MonitorOutcome
}

/// What one check found.
struct MonitorOutcome {
  let success: Bool
  let latency: Double?
  let detail: JSONValue
  let error: String?
}

/// Every monitor's records on the simulator clock (Protocol/AppRoutes.md §11): a scheduled
/// check every `interval` seconds (at multiples of it since 1970) from the monitor's creation,
/// while it is enabled, plus the stored checks admins asked for. Nothing scheduled is stored:
/// each record is a pure function of the monitor, its time and ``SeededNoise``.
///
/// [inferred, the simulator's choices] Records older than ``retention`` are gone, as a server's
/// cleanup removes them. A record's id is its place among every monitor's records in time order
/// (a scheduled check before a requested one of the same instant, monitors in creation order),
/// like an auto-increment id on a server that inserts them as they happen.
struct ServiceMonitorHistory {
  let monitors: [MonitorInfo]
  /// Sorted by time, then sequence.
  let manual: [ManualCheck]
  /// Nanoseconds.
  let now: Int64

  /// How long records are kept: 7 days, in seconds.
  static let retention: Int64 = 7 * 86_400
  static let second: Int64 = 1_000_000_000

  /// The monitor's records with `from ≤ time ≤ to` (nanoseconds; both inside the kept window
  /// and not after the clock), newest first, at most `limit`.
  func records(_ monitor: MonitorInfo, from: Int64?, to: Int64?, limit: Int64?) -> [MonitorRecord] {
    let low = max(from ?? Int64.min, now - Self.retention * Self.second)
    let high = min(to ?? Int64.max, now)
    guard low <= high, limit != 0 else { return [] }
    var result: [MonitorRecord] = []
    let requested = manual.enumerated().filter {
      $0.element.monitorID == monitor.id && $0.element.time >= low && $0.element.time <= high
    }
    var nextManual = requested.count - 1
    var slot = slots(monitor, atOrBefore: high)
    let first = firstSlot(monitor)
    while limit.map({ Int64(result.count) < $0 }) ?? true {
      var scheduledTime: Int64?
      if let current = slot, current >= first, current * monitor.interval * Self.second >= low {
        scheduledTime = current * monitor.interval * Self.second
      }
      let pending = nextManual >= 0 ? requested[nextManual] : nil
      // Newest first: a requested check of the same instant came after the scheduled one.
      if let pending, scheduledTime.map({ pending.element.time >= $0 }) ?? true {
        result.append(record(manual: pending.element, index: pending.offset, monitor))
        nextManual -= 1
      } else if let time = scheduledTime, let current = slot {
        result.append(record(scheduled: current, at: time, monitor))
        slot = current - 1
      } else {
        break
      }
    }
    return result
  }

  /// The monitor with `id`, if there is one.
  func monitor(_ id: String) -> MonitorInfo? { monitors.first { $0.id == id } }

  /// The newest record of `monitor`, if it has one in the kept window.
  func latest(_ monitor: MonitorInfo) -> MonitorRecord? {
    records(monitor, from: nil, to: nil, limit: 1).first
  }

  /// Failed records in a row, newest first, up to the newest success (in the kept window).
  func consecutiveFailures(_ monitor: MonitorInfo) -> Int {
    var count = 0
    var to = now
    while true {
      let page = records(monitor, from: nil, to: to, limit: 64)
      for record in page {
        if record.outcome.success { return count }
        count += 1
      }
      guard page.count == 64, let last = page.last else { return count }
      to = last.time - 1
    }
  }

  // MARK: Ids

  private func record(scheduled slot: Int64, at time: Int64, _ monitor: MonitorInfo)
    -> MonitorRecord
  {
    var before = manual.prefix { $0.time < time }.count
    for other in monitors {
      before += Int(scheduledCount(other, before: time))
      if other.ordinal < monitor.ordinal, isSlot(other, time) { before += 1 }
    }
    return MonitorRecord(
      id: Int64(before + 1), monitorID: monitor.id, time: time,
      outcome: MonitorCheckPlan(monitor: monitor).outcome(
        "scheduled", slot, at: time / Self.second))
  }

  private func record(manual check: ManualCheck, index: Int, _ monitor: MonitorInfo)
    -> MonitorRecord
  {
    var before = index
    for other in monitors { before += Int(scheduledCount(other, before: check.time + 1)) }
    return MonitorRecord(
      id: Int64(before + 1), monitorID: monitor.id, time: check.time,
      outcome: MonitorCheckPlan(monitor: monitor).outcome(
        "requested", check.sequence, at: check.time / Self.second))
  }

  // MARK: Slots

  /// The first slot number (slot × interval = seconds) at or after the creation.
  private func firstSlot(_ monitor: MonitorInfo) -> Int64 {
    let created = Self.ceilDiv(monitor.createdAt, Self.second)
    return Self.ceilDiv(created, monitor.interval)
  }

  /// The last slot number whose time is at or before `time` (nanoseconds), or `nil` for a
  /// disabled monitor.
  private func slots(_ monitor: MonitorInfo, atOrBefore time: Int64) -> Int64? {
    guard monitor.enabled, monitor.interval > 0 else { return nil }
    return Self.floorDiv(Self.floorDiv(time, Self.second), monitor.interval)
  }

  /// How many scheduled records of `monitor` come strictly before `time` (nanoseconds).
  private func scheduledCount(_ monitor: MonitorInfo, before time: Int64) -> Int64 {
    guard let last = slots(monitor, atOrBefore: time - 1) else { return 0 }
    return max(0, last - firstSlot(monitor) + 1)
  }

  private func isSlot(_ monitor: MonitorInfo, _ time: Int64) -> Bool {
    guard monitor.enabled, monitor.interval > 0, time % Self.second == 0 else { return false }
    let seconds = time / Self.second
    return seconds % monitor.interval == 0 && seconds / monitor.interval >= firstSlot(monitor)
  }

  static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
    let q = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
  }

  static func ceilDiv(_ a: Int64, _ b: Int64) -> Int64 { -floorDiv(-a, b) }
}
