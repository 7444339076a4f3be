import Testing

@testable import ServerBeeSimulator

/// The made-up histories are pure functions of their seeds: the values are pinned (computed
/// with the algorithm's definition: FNV-1a over key, 0, salt, 0 and the number's eight
/// little-endian bytes, then splitmix64's avalanche), so a faster implementation cannot move
/// every chart, probe and anomaly the simulator has shown before.
@Suite struct SeededNoiseTests {
  @Test(arguments: [
    ("server-1/preset-google-dns", "loss", 29_000_000, UInt64(7_599_626_519_110_611_683)),
    ("k", "s", -1, UInt64(12_740_976_264_460_511_618)),
    ("", "", 0, UInt64(14_404_843_587_335_259_784)),
  ])
  func theBitsArePinned(key: String, salt: String, number: Int, expected: UInt64) {
    #expect(SeededNoise.bits(key, salt, number) == expected)
    #expect(SeededNoise.Seed(key, salt).bits(number) == expected)
  }

  @Test func aSeedMadeOnceGivesTheSameUnitsAsEachCall() {
    let seed = SeededNoise.Seed("server-1/preset-quad9-dns", "jitter")
    for number in 0..<1_000 {
      #expect(seed.unit(number) == SeededNoise.unit("server-1/preset-quad9-dns", "jitter", number))
      #expect((0..<1).contains(seed.unit(number)))
    }
    let unit = SeededNoise.unit("server-1/preset-google-dns", "loss", 29_000_000)
    #expect(unit == 0.4119765791049088)
  }
}
