import ServerBeeModels

/// What the simulator's made-up checker finds for one check of a monitor
/// (Protocol/AppRoutes.md §11): a pure function of the monitor, the kind and number of the
/// check, and its time, through ``SeededNoise``.
///
/// [inferred, the simulator's choices] `detail_json` has the members the server's checker of
/// each type writes. A TCP check fails about once in 40 (connection refused), an HTTP keyword
/// check about once in 30 (a 503 without the keyword), a DNS lookup about once in 50, a
/// certificate handshake about once in 100; a WHOIS lookup always finds the registration. The
/// certificate is renewed every 60 days for 90, the domain a year at a time 60 days before it
/// expires, so neither comes near its thresholds.
struct MonitorCheckPlan {
  let monitor: MonitorInfo

  /// The outcome of check `number` of `kind` (`scheduled` or `requested`) at `seconds`.
  func outcome(_ kind: String, _ number: Int64, at seconds: Int64) -> MonitorOutcome {
    let key = "\(monitor.id)|\(kind)"
    func unit(_ salt: String) -> Double { SeededNoise.unit(key, salt, Int(number)) }
    func latency(_ low: Double, _ high: Double) -> Double {
      ((low + unit("latency") * (high - low)) * 1000).rounded() / 1000
    }
    let failed = unit("fails")
    switch monitor.type {
    case "tcp":
      guard failed >= 1.0 / 40 else {
        return MonitorOutcome(
          success: false, latency: latency(0.2, 2), detail: .object([("connected", .bool(false))]),
          error: "TCP connection failed: Connection refused (os error 111)")
      }
      return MonitorOutcome(
        success: true, latency: latency(3, 40), detail: .object([("connected", .bool(true))]),
        error: nil)
    case "http_keyword":
      let keyword = "All systems operational"
      let time = latency(80, 400)
      guard failed >= 1.0 / 30 else {
        return MonitorOutcome(
          success: false, latency: time,
          detail: .object([
            ("status_code", .integer(503)), ("keyword_found", .bool(false)),
            ("response_time_ms", .number(time)),
          ]),
          error: "Status code 503 not in expected [200]; Keyword '\(keyword)' not found in response"
        )
      }
      return MonitorOutcome(
        success: true, latency: time,
        detail: .object([
          ("status_code", .integer(200)), ("keyword_found", .bool(true)),
          ("response_time_ms", .number(time)),
        ]), error: nil)
    case "dns":
      guard failed >= 1.0 / 50 else {
        return MonitorOutcome(
          success: false, latency: latency(1000, 5000),
          detail: .object([
            ("record_type", .string("A")), ("values", .array([])),
            ("nameserver", .string("system default")),
          ]), error: "DNS resolution failed: request timed out")
      }
      return MonitorOutcome(
        success: true, latency: latency(2, 30),
        detail: .object([
          ("record_type", .string("A")), ("values", .array([.string("93.184.215.14")])),
          ("nameserver", .string("system default")), ("changed", .bool(false)),
        ]), error: nil)
    case "ssl":
      guard failed >= 1.0 / 100 else {
        return MonitorOutcome(
          success: false, latency: latency(10_000, 10_050), detail: .null,
          error: "TLS handshake timed out")
      }
      let renewal: Int64 = 60 * 86_400
      let issued = ServiceMonitorHistory.floorDiv(seconds, renewal) * renewal
      let expires = issued + 90 * 86_400
      let fingerprint = (0..<32).map { index in
        let byte = SeededNoise.bits(monitor.id, "certificate", Int(issued) &+ index) % 256
        let hex = String(byte, radix: 16, uppercase: true)
        return hex.count == 1 ? "0" + hex : hex
      }
      return MonitorOutcome(
        success: true, latency: latency(40, 200),
        detail: .object([
          ("subject", .string("CN=\(host(monitor.target))")),
          ("issuer", .string("C=US, O=Let's Encrypt, CN=R11")),
          ("not_before", .string(Self.rfc2822(issued))),
          ("not_after", .string(Self.rfc2822(expires))),
          ("days_remaining", .integer(Int((expires - seconds) / 86_400))),
          ("sha256_fingerprint", .string(fingerprint.joined(separator: ":"))),
        ]), error: nil)
    case "whois":
      let day = CalendarDate(RFC3339Timestamp(secondsSince1970: seconds + 60 * 86_400))
      var expiry = (try? CalendarDate(year: day.year, month: 8, day: 13)) ?? day
      if expiry <= day {
        expiry = (try? CalendarDate(year: day.year + 1, month: 8, day: 13)) ?? day
      }
      let left = (Int64(expiry.daysSince1970) * 86_400 - seconds) / 86_400
      return MonitorOutcome(
        success: true, latency: latency(300, 1500),
        detail: .object([
          ("registrar", .string("RESERVED-Internet Assigned Numbers Authority")),
          ("expiry_date", .string(expiry.description)), ("days_remaining", .integer(Int(left))),
        ]), error: nil)
    default:
      return MonitorOutcome(
        success: false, latency: nil, detail: .null,
        error: "Unknown monitor type: \(monitor.type)")
    }
  }

  /// The host of a `host`, `host:port` or `[v6]:port` target.
  private func host(_ target: String) -> String {
    if target.hasPrefix("["), let end = target.firstIndex(of: "]") {
      return String(target[target.index(after: target.startIndex)..<end])
    }
    if let colon = target.lastIndex(of: ":"), Int(target[target.index(after: colon)...]) != nil {
      return String(target[..<colon])
    }
    return target
  }

  /// Unix seconds as RFC 2822 in UTC (`Mon, 01 Dec 2026 00:00:00 +0000`), as the server's
  /// certificate parser writes validity times.
  static func rfc2822(_ seconds: Int64) -> String {
    let days = Int(ServiceMonitorHistory.floorDiv(seconds, 86_400))
    let date = CalendarDate(daysSince1970: days)
    let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
    let months = [
      "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]
    let weekday = weekdays[((days % 7) + 7) % 7]
    let rest = seconds - Int64(days) * 86_400
    func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return "\(weekday), \(two(Int64(date.day))) \(months[date.month - 1]) \(date.year) "
      + "\(two(rest / 3600)):\(two(rest / 60 % 60)):\(two(rest % 60)) +0000"
  }
}
