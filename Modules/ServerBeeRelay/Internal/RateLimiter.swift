/// Fixed one-minute windows (`now / 60`) counting requests per key; the whole table resets when
/// the window changes, so memory is bounded by the keys seen in one minute.
struct RateLimiter {
  private var window: Int64 = .min
  private var counts: [String: Int] = [:]

  /// Admits one request when every key is under its limit, counting it for all of them; a
  /// refused request counts for none.
  mutating func admit(_ keys: [(key: String, limit: Int)], now: Int64) -> Bool {
    let current = now >= 0 ? now / 60 : (now - 59) / 60
    if current != window {
      window = current
      counts = [:]
    }
    for (key, limit) in keys where counts[key, default: 0] >= limit { return false }
    for (key, _) in keys { counts[key, default: 0] += 1 }
    return true
  }
}
