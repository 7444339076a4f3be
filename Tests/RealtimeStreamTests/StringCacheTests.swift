import Testing

@testable import RealtimeStream

/// The frame's string cache gives exactly the strings the scanner would make, shares repeated
/// ones, and stays correct when its table is full or a string sits at the end of the frame.
@Suite struct StringCacheTests {
  /// Reads every element of `strings` written as one JSON array, through a cache of `capacity`.
  private func readThroughCache(_ strings: [String], capacity: Int) throws -> [String] {
    let text = "[" + strings.map { "\"\($0)\"" }.joined(separator: ",") + "]"
    let bytes = Array(text.utf8)
    return try bytes.withUnsafeBufferPointer { buffer in
      var scanner = JSONScanner(buffer)
      var cache = StringCache(capacity: capacity)
      var read: [String] = []
      try scanner.readArray { (s) throws(JSONScanner.Failure) in
        read.append(try s.readString(cache: &cache))
      }
      try scanner.expectEnd()
      return read
    }
  }

  @Test(arguments: [0, 1, 8, 256])
  func givesTheStringsTheScannerReads(capacity: Int) throws {
    var generator = SystemRandomNumberGenerator()
    let pieces = ["a", "b", "Linux", "São", "新加坡", "-", "0123456789", "x y"]
    var strings = ["", "os", "Alpine Linux v3.20", "Alpine Linux v3.2", "Alpine Linux v3.200"]
    for _ in 0..<600 {
      let count = Int.random(in: 0...30, using: &generator)
      strings.append(
        (0..<count).map { _ in pieces.randomElement(using: &generator) ?? "" }.joined())
    }
    // Repeats, and strings ending at the last bytes of the frame.
    strings += strings.shuffled(using: &generator)
    strings += ["abcdefghijklmnopq", "a"]
    #expect(try readThroughCache(strings, capacity: capacity) == strings)
  }

  @Test func sharesTheStorageOfARepeatedString() throws {
    let name = "Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz"
    // Not last: a string whose last word would run past the frame is made anew.
    let read = try readThroughCache([name, "other", name, "end"], capacity: 256)
    var first = read[0]
    var third = read[2]
    #expect(first == name && third == name)
    let a = first.withUTF8 { $0.baseAddress }
    let b = third.withUTF8 { $0.baseAddress }
    #expect(a == b)
  }

  @Test func makesLongStringsAnew() throws {
    let long = String(repeating: "x", count: StringCache.maximumLength + 1)
    #expect(try readThroughCache([long, long], capacity: 256) == [long, long])
  }
}
