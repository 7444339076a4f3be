// `servers.live_numbers`: the live numbers beside `live_json` as 17 fixed 8-byte fields, read
// without parsing (reading `live_json` was about 5 M of a 23 M-instruction
// `full_sync` miss at 1,000 servers). `live_json` stays the stored truth: migration 7's trigger
// clears `live_numbers` whenever `live_json` changes without it, and a missing or odd value is
// read from `live_json` as before.

extension LiveNumbers {
  /// The size of the packed form: one 8-byte field per key of ``keys``.
  static let packedSize = 17 * 8

  /// The fields in ``keys`` order, little-endian, floats as their bit patterns: the same
  /// values `live_json` holds, exactly (no decimal round trip).
  var packed: [UInt8] {
    let fields: [UInt64] = [
      UInt64(bitPattern: uptime), cpu.bitPattern, UInt64(bitPattern: memUsed),
      UInt64(bitPattern: swapUsed), UInt64(bitPattern: diskUsed), UInt64(bitPattern: netInSpeed),
      UInt64(bitPattern: netOutSpeed), UInt64(bitPattern: netInTransfer),
      UInt64(bitPattern: netOutTransfer), load1.bitPattern, load5.bitPattern, load15.bitPattern,
      UInt64(bitPattern: tcpConn), UInt64(bitPattern: udpConn), UInt64(bitPattern: processCount),
      UInt64(bitPattern: diskReadBytesPerSec), UInt64(bitPattern: diskWriteBytesPerSec),
    ]
    var bytes: [UInt8] = []
    bytes.reserveCapacity(Self.packedSize)
    for field in fields {
      withUnsafeBytes(of: field.littleEndian) { bytes.append(contentsOf: $0) }
    }
    return bytes
  }

  /// Reads ``packed``; `nil` unless `bytes` has exactly its size.
  init?(packed bytes: UnsafeRawBufferPointer) {
    guard bytes.count == Self.packedSize else { return nil }
    func field(_ index: Int) -> UInt64 {
      UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self))
    }
    self.init(
      uptime: Int64(bitPattern: field(0)), cpu: Double(bitPattern: field(1)),
      memUsed: Int64(bitPattern: field(2)), swapUsed: Int64(bitPattern: field(3)),
      diskUsed: Int64(bitPattern: field(4)), netInSpeed: Int64(bitPattern: field(5)),
      netOutSpeed: Int64(bitPattern: field(6)), netInTransfer: Int64(bitPattern: field(7)),
      netOutTransfer: Int64(bitPattern: field(8)), load1: Double(bitPattern: field(9)),
      load5: Double(bitPattern: field(10)), load15: Double(bitPattern: field(11)),
      tcpConn: Int64(bitPattern: field(12)), udpConn: Int64(bitPattern: field(13)),
      processCount: Int64(bitPattern: field(14)),
      diskReadBytesPerSec: Int64(bitPattern: field(15)),
      diskWriteBytesPerSec: Int64(bitPattern: field(16)))
  }
}
