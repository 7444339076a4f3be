/// The newest `capacity` values in a fixed ring: appending is O(1) once full (the oldest value
/// is overwritten in place), where an array that drops its first element moves every other
/// one (216 k instructions a request at 1000 captures). A capacity of 0 keeps
/// nothing, so a caller can skip building values nobody will read (``isEnabled``).
struct CaptureRing<Element> {
  let capacity: Int
  private var storage: [Element] = []
  /// Where the next value goes once `storage` is full.
  private var next = 0

  init(capacity: Int) {
    self.capacity = max(0, capacity)
  }

  var isEnabled: Bool { capacity > 0 }

  var count: Int { storage.count }

  mutating func append(_ value: Element) {
    guard capacity > 0 else { return }
    if storage.count < capacity {
      storage.append(value)
    } else {
      storage[next] = value
      next = (next + 1) % capacity
    }
  }

  /// The values, oldest first.
  var elements: [Element] {
    Array(storage[next...] + storage[..<next])
  }

  mutating func removeAll() {
    storage = []
    next = 0
  }
}
