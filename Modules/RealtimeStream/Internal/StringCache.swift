/// The strings of one frame by their bytes: a value that recurs across a frame's servers (an OS
/// or CPU name, a region, a group id, a tag) is checked, allocated and copied once, then shared.
///
/// A 1,000-server `full_sync` holds about 9,000 such strings but only a hundred or so distinct
/// ones. An entry names the bytes of the frame its string was made from, so a lookup compares
/// two ranges of the same frame: a cache is only valid for the frame it was filled from (one
/// ``FastFrameReader/read(_:)``). It is bounded: a fixed table, a few probes per lookup, and a
/// string that finds no place is simply made anew.
///
/// Only strings without escapes go through it, so equal bytes mean an equal `String`.
struct StringCache {
  /// Per entry: where its string's bytes start in the frame and how many there are, as
  /// `start << 7 | count` (a count is at most ``maximumLength``); -1 for an empty entry.
  private var keys: [Int]
  /// Per entry: the string.
  private var strings: [String]
  /// Strings longer than this are made anew (they are rarely repeated, and cost more to hash).
  static let maximumLength = 64
  /// Entries looked at per lookup before giving up.
  private static let probes = 4

  /// A cache of `capacity` entries (a power of two), or one that caches nothing (0).
  init(capacity: Int) {
    precondition(capacity == 0 || capacity.nonzeroBitCount == 1, "capacity: a power of two")
    keys = Array(repeating: -1, count: capacity)
    strings = Array(repeating: "", count: capacity)
  }

  /// The string of `bytes[start..<end]`, well-formed UTF-8 without escapes (the scanner checked
  /// it): the cached one when the frame had the same bytes before, else a new one, which is
  /// kept when there is room.
  mutating func string(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> String
  {
    let count = end - start
    let words = (count + 7) >> 3
    // Whole words are read, so the last one may run past the string, never past the frame.
    guard !keys.isEmpty, count > 0, count <= Self.maximumLength,
      start + words * 8 <= bytes.count, let base = bytes.baseAddress
    else {
      return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }
    let text = UnsafeRawPointer(base + start)
    let last = (words - 1) * 8
    // The bytes of the last word that belong to the string (1–8 of them).
    let tail: UInt64 = ~0 >> UInt64(64 - 8 * (count - last))
    var hash = UInt64(truncatingIfNeeded: count)
    var at = 0
    while at < last {
      hash =
        (hash ^ text.loadUnaligned(fromByteOffset: at, as: UInt64.self)) &* 0x9E37_79B9_7F4A_7C15
      at += 8
    }
    let final = text.loadUnaligned(fromByteOffset: last, as: UInt64.self) & tail
    hash = (hash ^ final) &* 0x9E37_79B9_7F4A_7C15
    let mask = keys.count - 1
    var slot = Int(truncatingIfNeeded: hash >> 40) & mask
    for _ in 0..<Self.probes {
      let key = keys[slot]
      if key < 0 {
        let string = String(
          decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        keys[slot] = start << 7 | count
        strings[slot] = string
        return string
      }
      if key & 127 == count,
        Self.same(base + (key >> 7), text, last: last, tail: tail, final: final)
      {
        return strings[slot]
      }
      slot = (slot + 1) & mask
    }
    return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
  }

  /// Whether the string at `a` has the bytes of the one at `b`: the words before `last` whole,
  /// then the word at `last` in the bytes of `tail`, which for `b` are `final`.
  @inline(__always)
  private static func same(
    _ a: UnsafePointer<UInt8>, _ b: UnsafeRawPointer, last: Int, tail: UInt64, final: UInt64
  ) -> Bool {
    let a = UnsafeRawPointer(a)
    var at = 0
    while at < last {
      if a.loadUnaligned(fromByteOffset: at, as: UInt64.self)
        != b.loadUnaligned(fromByteOffset: at, as: UInt64.self)
      {
        return false
      }
      at += 8
    }
    return a.loadUnaligned(fromByteOffset: last, as: UInt64.self) & tail == final
  }
}
