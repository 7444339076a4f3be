import Foundation
import ServerBeeModels
import ServerBeeRelay

/// `relay-bench apns COUNT`: COUNT accepted APNs sends through one HTTP/2 connection of
/// `APNsPushProvider` to a mock APNs (`Benchmarks/relay-bench/apns.sh` starts one), from
/// `APNS_BENCH_CONCURRENCY` tasks (50 by default); prints sends per second and the p50 and p99
/// latency of one send. Reads `APNS_BENCH_URL` (https://localhost:PORT), `APNS_BENCH_CA_FILE`
/// and `APNS_BENCH_KEY_FILE` (a PKCS#8 P-256 key; team TEAM123456, key id KEY1234567).
enum APNsBench {
  static func run(count: Int) -> Never {
    let environment = ProcessInfo.processInfo.environment
    guard let urlText = environment["APNS_BENCH_URL"], let url = URL(string: urlText),
      let caFile = environment["APNS_BENCH_CA_FILE"],
      let keyFile = environment["APNS_BENCH_KEY_FILE"],
      let pem = try? String(contentsOfFile: keyFile, encoding: .utf8)
    else { fail("apns needs APNS_BENCH_URL, APNS_BENCH_CA_FILE and APNS_BENCH_KEY_FILE") }
    let concurrency = max(1, Int(environment["APNS_BENCH_CONCURRENCY"] ?? "") ?? 50)
    let key: APNsSigningKey
    do {
      key = try APNsSigningKey(pem: pem, keyID: "KEY1234567", teamID: "TEAM123456")
    } catch { fail("the key: \(error)") }
    let provider = APNsPushProvider(
      configuration: .init(
        signingKey: key, endpoints: [.sandbox: url],
        additionalCAFile: URL(fileURLWithPath: caFile), sendTimeout: .seconds(30)))
    let ciphertext = Data((0..<1024).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
      .base64EncodedString()
    let envelope = PushEnvelope(
      keyID: "6b1f9c2e-3d4a-4b5c-8d6e-7f8091a2b3c4",
      identity: "40e9ea0a395dec3bafe5e84afbbe2e726ac53aa273f168b4ac650b208fdef51f",
      nonce: Data((1...12).map { UInt8($0) }).base64EncodedString(), ciphertext: ciphertext)
    let expiresAt = Int64(Date().timeIntervalSince1970) + 1200
    let deliveries = (0..<count).map { index in
      RelayDelivery(
        request: RelaySendRequest(
          deviceToken: String(format: "%064x", index), environment: .sandbox,
          eventID: UUID().uuidString.lowercased(), expiresAt: expiresAt, envelope: envelope),
        topic: "app.serverbee")
    }
    let result = Locked<(latencies: [Duration], accepted: Int)>(([], 0))
    let done = DispatchSemaphore(value: 0)
    let clock = ContinuousClock()
    let started = clock.now
    Task {
      // One send first, so the connection is open before the clock that counts.
      if let first = deliveries.first, await provider.deliver(first) != .accepted {
        fail("the first send was not accepted")
      }
      await withTaskGroup(of: Void.self) { group in
        let next = Locked(1)
        for _ in 0..<concurrency {
          group.addTask {
            while true {
              let index = next.withLock { value -> Int in
                defer { value += 1 }
                return value
              }
              guard index < deliveries.count else { return }
              let sent = clock.now
              let answer = await provider.deliver(deliveries[index])
              let took = clock.now - sent
              result.withLock {
                $0.latencies.append(took)
                if answer == .accepted { $0.accepted += 1 }
              }
            }
          }
        }
      }
      done.signal()
    }
    done.wait()
    let elapsed = clock.now - started
    let (latencies, accepted) = result.withLock { ($0.latencies.sorted(), $0.accepted + 1) }
    func percentile(_ p: Double) -> String {
      guard !latencies.isEmpty else { return "-" }
      let value = latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))]
      return String(
        format: "%.2f ms",
        Double(value.components.attoseconds) / 1e15
          + Double(value.components.seconds) * 1000)
    }
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    print(
      "relay-bench apns: \(accepted) of \(count) sends accepted in "
        + String(format: "%.2f s: %.0f sends/s", seconds, Double(count) / max(seconds, 1e-9))
        + ", p50 \(percentile(0.5)), p99 \(percentile(0.99)), "
        + "\(provider.connectionsOpened(.sandbox)) connection(s), concurrency \(concurrency)")
    exit(accepted == count && count > 0 ? 0 : 1)
  }
}
