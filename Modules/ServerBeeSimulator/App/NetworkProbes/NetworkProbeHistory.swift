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
    let noise = Noise(serverID: serverID, target: target)
    return range.map { sample(noise, $0) }
  }

  /// The newest sample of `target`, if any.
  func latest(_ target: ProbeTargetInfo) -> ProbeSample? {
    guard let range = indices(target, from: start, to: now) else { return nil }
    return sample(Noise(serverID: serverID, target: target), range.upperBound)
  }

  /// The seeds of one server's probes of one target, one per salt, made once per list.
  private struct Noise {
    let loss, lost, spike, spikeMilliseconds, jitter, min, max: SeededNoise.Seed
    /// The target's typical latency.
    let base: Double

    init(serverID: String, target: ProbeTargetInfo) {
      let key = serverID + "/" + target.id
      loss = SeededNoise.Seed(key, "loss")
      lost = SeededNoise.Seed(key, "lost")
      spike = SeededNoise.Seed(key, "spike")
      spikeMilliseconds = SeededNoise.Seed(key, "spike-ms")
      jitter = SeededNoise.Seed(key, "jitter")
      min = SeededNoise.Seed(key, "min")
      max = SeededNoise.Seed(key, "max")
      base = 8 + 240 * SeededNoise.unit(key, "base", 0)
    }
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

  private func sample(_ noise: Noise, _ index: Int64) -> ProbeSample {
    let number = Int(index)
    let time = index * interval
    let roll = noise.loss.unit(number)
    let lost: Int
    if roll < 0.008 {
      lost = packetCount
    } else if roll < 0.03 {
      let half = packetCount / 2
      lost = min(packetCount - 1, half + Int(noise.lost.unit(number) * Double(half)))
    } else if roll < 0.08 {
      lost = min(packetCount - 1, 1 + Int(noise.lost.unit(number) * 2))
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
    let avg =
      noise.spike.unit(number) < 1.0 / 65
      ? 520 + 480 * noise.spikeMilliseconds.unit(number)
      : noise.base * (0.85 + 0.3 * noise.jitter.unit(number))
    return ProbeSample(
      time: time, avgLatency: Self.round(avg),
      minLatency: Self.round(avg * (0.75 + 0.2 * noise.min.unit(number))),
      maxLatency: Self.round(avg * (1.05 + 0.5 * noise.max.unit(number))), packetLoss: loss,
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
