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
  private struct Entry {
    /// Where the string's bytes start in the frame; -1 for an empty entry.
    var start = -1
    var count = 0
    var string = ""
  }

  /// Open addressing over a power-of-two table; empty: caching is off.
  private var entries: [Entry]
  /// Strings longer than this are made anew (they are rarely repeated, and cost more to hash).
  static let maximumLength = 64
  /// Entries looked at per lookup before giving up.
  private static let probes = 4

  /// A cache of `capacity` entries (a power of two), or one that caches nothing (0).
  init(capacity: Int) {
    precondition(capacity == 0 || capacity.nonzeroBitCount == 1, "capacity: a power of two")
    entries = Array(repeating: Entry(), count: capacity)
  }

  /// The string of `bytes[start..<end]`, well-formed UTF-8 without escapes (the scanner checked
  /// it): the cached one when the frame had the same bytes before, else a new one, which is
  /// kept when there is room.
  mutating func string(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> String
  {
    let count = end - start
    let words = (count + 7) >> 3
    // Whole words are read, so the last one may run past the string, never past the frame.
    guard !entries.isEmpty, count > 0, count <= Self.maximumLength,
      start + words * 8 <= bytes.count, let base = bytes.baseAddress
    else {
      return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }
    let text = UnsafeRawPointer(base + start)
    let tail: UInt64 = count & 7 == 0 ? ~0 : (1 << UInt64((count & 7) * 8)) - 1
    var hash = UInt64(truncatingIfNeeded: count)
    for at in 0..<words {
      let word = text.loadUnaligned(fromByteOffset: at * 8, as: UInt64.self)
      hash = (hash ^ (at == words - 1 ? word & tail : word)) &* 0x9E37_79B9_7F4A_7C15
    }
    let mask = entries.count - 1
    var slot = Int(truncatingIfNeeded: hash >> 40) & mask
    for _ in 0..<Self.probes {
      let held = entries[slot].start
      if held < 0 {
        let string = String(
          decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        entries[slot] = Entry(start: start, count: count, string: string)
        return string
      }
      if entries[slot].count == count,
        Self.same(UnsafeRawPointer(base + held), text, words: words, tail: tail)
      {
        return entries[slot].string
      }
      slot = (slot + 1) & mask
    }
    return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
  }

  /// Whether `words` words at `a` and `b` are equal, the last one only in the bytes of `tail`.
  @inline(__always)
  private static func same(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, words: Int, tail: UInt64)
    -> Bool
  {
    var difference: UInt64 = 0
    for at in 0..<words - 1 {
      difference |=
        a.loadUnaligned(fromByteOffset: at * 8, as: UInt64.self)
        ^ b.loadUnaligned(fromByteOffset: at * 8, as: UInt64.self)
    }
    let last = (words - 1) * 8
    difference |=
      (a.loadUnaligned(fromByteOffset: last, as: UInt64.self)
        ^ b.loadUnaligned(fromByteOffset: last, as: UInt64.self)) & tail
    return difference == 0
  }
}
