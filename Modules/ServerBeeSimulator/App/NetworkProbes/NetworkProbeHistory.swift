/// One probe of one target by one server: a raw record (Protocol/AppRoutes.md §6).
struct ProbeSample {
  /// Unix seconds.
  let time: Int64
  let avgLatency: Double?
  let minLatency: Double?
  let maxLatency: Double?
  let packetLoss: Double
  let packetSent: Int
  let packetReceived: Int
}

/// A target as the history needs it.
struct ProbeTargetInfo {
  let id: String
  let name: String
  let provider: String
  /// When the custom target was added (nanoseconds); `nil` for a preset.
  let createdAt: Int64?
}

/// The probes the simulator's made-up agents ran (Protocol/AppRoutes.md §6): not stored, but a
/// pure function of the server, the target and the sample's time on the simulator clock.
///
/// [inferred, the simulator's choice] A server probes every target once per `interval`
/// seconds, at the multiples of the interval since 1970, from 7 days before the server was
/// created (or from a custom target's creation) up to the clock. Each target has its own typical
/// latency (8 to 248 ms); about one probe in 125 loses every packet, one in 45 loses half or
/// more, one in 20 loses one or two, and one in 65 is slow (520 to 1,000 ms).
struct NetworkProbeHistory {
  let serverID: String
  /// Seconds between probes (the setting's `interval`).
  let interval: Int64
  /// Packets per probe (the setting's `packet_count`).
  let packetCount: Int
  /// The first second with probes for a preset target.
  let start: Int64
  /// The clock, in seconds.
  let now: Int64

  /// How far before a server's creation its probes start.
  static let daysBeforeCreation: Int64 = 7

  init(serverID: String, createdAt: Int64, now: Int64, interval: Int64, packetCount: Int) {
    self.serverID = serverID
    self.interval = max(1, interval)
    self.packetCount = max(1, packetCount)
    start = createdAt / SimulatorCore.second - Self.daysBeforeCreation * 86_400
    self.now = now / SimulatorCore.second
  }

  /// The samples of `target` with `from ≤ time ≤ to` (seconds), oldest first.
  func samples(_ target: ProbeTargetInfo, from: Int64, to: Int64) -> [ProbeSample] {
    guard let range = indices(target, from: from, to: to) else { return [] }
    return range.map { sample(target, $0) }
  }

  /// The newest sample of `target`, if any.
  func latest(_ target: ProbeTargetInfo) -> ProbeSample? {
    guard let range = indices(target, from: start, to: now) else { return nil }
    return sample(target, range.upperBound)
  }

  private func indices(_ target: ProbeTargetInfo, from: Int64, to: Int64) -> ClosedRange<Int64>? {
    var first = max(from, start)
    if let created = target.createdAt { first = max(first, created / SimulatorCore.second) }
    let last = min(to, now)
    guard first <= last else { return nil }
    let low = Self.ceilDiv(first, interval)
    let high = Self.floorDiv(last, interval)
    return low <= high ? low...high : nil
  }

  private func sample(_ target: ProbeTargetInfo, _ index: Int64) -> ProbeSample {
    let key = serverID + "/" + target.id
    let number = Int(index)
    func unit(_ salt: String) -> Double { SeededNoise.unit(key, salt, number) }
    let time = index * interval
    let roll = unit("loss")
    let lost: Int
    if roll < 0.008 {
      lost = packetCount
    } else if roll < 0.03 {
      let half = packetCount / 2
      lost = min(packetCount - 1, half + Int(unit("lost") * Double(half)))
    } else if roll < 0.08 {
      lost = min(packetCount - 1, 1 + Int(unit("lost") * 2))
    } else {
      lost = 0
    }
    let received = packetCount - lost
    let loss = Double(lost) / Double(packetCount)
    guard received > 0 else {
      return ProbeSample(
        time: time, avgLatency: nil, minLatency: nil, maxLatency: nil, packetLoss: 1,
        packetSent: packetCount, packetReceived: 0)
    }
    let base = 8 + 240 * SeededNoise.unit(key, "base", 0)
    let avg =
      unit("spike") < 1.0 / 65
      ? 520 + 480 * unit("spike-ms")
      : base * (0.85 + 0.3 * unit("jitter"))
    return ProbeSample(
      time: time, avgLatency: Self.round(avg),
      minLatency: Self.round(avg * (0.75 + 0.2 * unit("min"))),
      maxLatency: Self.round(avg * (1.05 + 0.5 * unit("max"))), packetLoss: loss,
      packetSent: packetCount, packetReceived: received)
  }

  /// Two decimals, as an agent's millisecond readings.
  static func round(_ value: Double) -> Double { (value * 100).rounded() / 100 }

  static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
    let q = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
  }

  static func ceilDiv(_ a: Int64, _ b: Int64) -> Int64 { -floorDiv(-a, b) }
}
