import Testing

@testable import ServerBeeHTTP2

/// RFC 7541 Appendix C, byte for byte, through our encoder and our decoder; plus the error
/// cases a decoder must refuse.
@Suite struct HPACKTests {
  static func hex(_ text: String) -> [UInt8] {
    let digits = Array(text.filter { !$0.isWhitespace })
    return stride(from: 0, to: digits.count, by: 2).compactMap {
      UInt8(String(digits[$0...$0 + 1]), radix: 16)
    }
  }

  static let requests: [[HPACKField]] = [
    [
      HPACKField(":method", "GET"), HPACKField(":scheme", "http"), HPACKField(":path", "/"),
      HPACKField(":authority", "www.example.com"),
    ],
    [
      HPACKField(":method", "GET"), HPACKField(":scheme", "http"), HPACKField(":path", "/"),
      HPACKField(":authority", "www.example.com"), HPACKField("cache-control", "no-cache"),
    ],
    [
      HPACKField(":method", "GET"), HPACKField(":scheme", "https"),
      HPACKField(":path", "/index.html"), HPACKField(":authority", "www.example.com"),
      HPACKField("custom-key", "custom-value"),
    ],
  ]

  static let responses: [[HPACKField]] = [
    [
      HPACKField(":status", "302"), HPACKField("cache-control", "private"),
      HPACKField("date", "Mon, 21 Oct 2013 20:13:21 GMT"),
      HPACKField("location", "https://www.example.com"),
    ],
    [
      HPACKField(":status", "307"), HPACKField("cache-control", "private"),
      HPACKField("date", "Mon, 21 Oct 2013 20:13:21 GMT"),
      HPACKField("location", "https://www.example.com"),
    ],
    [
      HPACKField(":status", "200"), HPACKField("cache-control", "private"),
      HPACKField("date", "Mon, 21 Oct 2013 20:13:22 GMT"),
      HPACKField("location", "https://www.example.com"), HPACKField("content-encoding", "gzip"),
      HPACKField("set-cookie", "foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1"),
    ],
  ]

  /// C.3 (requests, no Huffman), C.4 (requests, Huffman), C.5 (responses, no Huffman, table
  /// 256), C.6 (responses, Huffman, table 256): blocks and table sizes after each.
  static let examples:
    [(
      name: String, huffman: Bool, tableSize: Int, fields: [[HPACKField]], blocks: [String],
      sizes: [Int]
    )] = [
      (
        "C.3", false, 4096, requests,
        [
          "828684410f7777772e6578616d706c652e636f6d", "828684be58086e6f2d6361636865",
          "828785bf400a637573746f6d2d6b65790c637573746f6d2d76616c7565",
        ], [57, 110, 164]
      ),
      (
        "C.4", true, 4096, requests,
        [
          "828684418cf1e3c2e5f23a6ba0ab90f4ff", "828684be5886a8eb10649cbf",
          "828785bf408825a849e95ba97d7f8925a849e95bb8e8b4bf",
        ], [57, 110, 164]
      ),
      (
        "C.5", false, 256, responses,
        [
          "4803333032580770726976617465611d4d6f6e2c203231204f637420323031332032303a31333a3231"
            + "20474d546e1768747470733a2f2f7777772e6578616d706c652e636f6d",
          "4803333037c1c0bf",
          "88c1611d4d6f6e2c203231204f637420323031332032303a31333a323220474d54c05a04677a69707738"
            + "666f6f3d4153444a4b48514b425a584f5157454f50495541585157454f49553b206d61782d6167653d"
            + "333630303b2076657273696f6e3d31",
        ], [222, 222, 215]
      ),
      (
        "C.6", true, 256, responses,
        [
          "488264025885aec3771a4b6196d07abe941054d444a8200595040b8166e082a62d1bff6e919d29ad1718"
            + "63c78f0b97c8e9ae82ae43d3",
          "4883640effc1c0bf",
          "88c16196d07abe941054d444a8200595040b8166e084a62d1bffc05a839bd9ab77ad94e7821dd7f2e6c7"
            + "b335dfdfcd5b3960d5af27087f3672c1ab270fb5291f9587316065c003ed4ee5b1063d5007",
        ], [222, 222, 215]
      ),
    ]

  @Test(arguments: 0..<4) func appendixCDecodes(_ example: Int) throws {
    let example = Self.examples[example]
    var decoder = HPACKDecoder(maximumTableSize: example.tableSize)
    for (index, block) in example.blocks.enumerated() {
      let fields = try decoder.decode(Self.hex(block))
      #expect(fields == example.fields[index], "\(example.name).\(index + 1)")
      #expect(decoder.tableSize == example.sizes[index], "\(example.name).\(index + 1)")
    }
  }

  @Test(arguments: 0..<4) func appendixCEncodesByteForByte(_ example: Int) {
    let example = Self.examples[example]
    var encoder = HPACKEncoder(maximumTableSize: example.tableSize, usesHuffman: example.huffman)
    for (index, fields) in example.fields.enumerated() {
      #expect(
        encoder.encode(fields) == Self.hex(example.blocks[index]), "\(example.name).\(index + 1)")
      #expect(encoder.tableSize == example.sizes[index], "\(example.name).\(index + 1)")
    }
  }

  /// C.2: one representation each; C.6.1's table holds the four fields newest first.
  @Test func appendixC2Representations() throws {
    var decoder = HPACKDecoder()
    let indexing = try decoder.decode(
      Self.hex("400a637573746f6d2d6b65790d637573746f6d2d686561646572"))
    #expect(indexing == [HPACKField("custom-key", "custom-header")])
    #expect(decoder.tableSize == 55)
    let withoutIndexing = try decoder.decode(Self.hex("040c2f73616d706c652f70617468"))
    #expect(withoutIndexing == [HPACKField(":path", "/sample/path")])
    #expect(withoutIndexing.first?.indexing == HPACKField.Indexing.none)
    let never = try decoder.decode(Self.hex("100870617373776f726406736563726574"))
    #expect(never == [HPACKField("password", "secret")])
    #expect(never.first?.indexing == .never)
    #expect(try decoder.decode([0x82]) == [HPACKField(":method", "GET")])
    #expect(decoder.tableSize == 55)
    var encoder = HPACKEncoder(usesHuffman: false)
    #expect(
      encoder.encode([HPACKField("password", "secret", indexing: .never)])
        == Self.hex("100870617373776f726406736563726574"))
    #expect(
      encoder.encode([HPACKField(":path", "/sample/path", indexing: .none)])
        == Self.hex("040c2f73616d706c652f70617468"))
    #expect(encoder.tableSize == 0)
  }

  @Test func huffmanRoundTripsEveryOctet() throws {
    let all = (0...255).map { UInt8($0) }
    var coded: [UInt8] = []
    HPACKHuffman.encode(all, into: &coded)
    #expect(coded.count == HPACKHuffman.encodedLength(all))
    #expect(try HPACKHuffman.decode(coded[...]) == all)
  }

  @Test func huffmanRefusesBadPaddingAndEOS() {
    // "a" is 00011 (5 bits); padding of zeros instead of ones.
    #expect(throws: HPACKError.invalidHuffman) { try HPACKHuffman.decode([0b0001_1000][...]) }
    // Eight bits of padding (a whole byte of ones after a complete symbol).
    #expect(throws: HPACKError.invalidHuffman) {
      try HPACKHuffman.decode([0b0001_1111, 0xff][...])
    }
    // EOS itself: 30 ones.
    #expect(throws: HPACKError.invalidHuffman) {
      try HPACKHuffman.decode([0xff, 0xff, 0xff, 0xff][...])
    }
  }

  @Test func decoderRefusesBadBlocks() {
    var decoder = HPACKDecoder()
    #expect(throws: HPACKError.invalidIndex(0)) { try decoder.decode([0x80]) }
    #expect(throws: HPACKError.invalidIndex(62)) { try decoder.decode([0xbe]) }
    #expect(throws: HPACKError.truncated) { try decoder.decode([0x41, 0x05, 0x61]) }
    #expect(throws: HPACKError.integerOverflow) {
      try decoder.decode([0xff, 0xff, 0xff, 0xff, 0xff, 0x7f])
    }
    // A size update above our SETTINGS_HEADER_TABLE_SIZE, and one after a field.
    #expect(throws: HPACKError.invalidTableSizeUpdate(4097)) {
      try decoder.decode([0x3f, 0xe2, 0x1f])
    }
    #expect(throws: HPACKError.invalidTableSizeUpdate(-1)) { try decoder.decode([0x82, 0x20]) }
    var small = HPACKDecoder(maximumHeaderListSize: 40)
    #expect(throws: HPACKError.headerListTooLarge) {
      try small.decode(Self.hex("400a637573746f6d2d6b65790d637573746f6d2d686561646572"))
    }
  }

  /// A lowered SETTINGS_HEADER_TABLE_SIZE evicts at once and is signalled at the start of the
  /// next block, which our decoder (standing for the peer) accepts and mirrors.
  @Test func encoderSignalsTableSizeChanges() throws {
    var encoder = HPACKEncoder()
    var decoder = HPACKDecoder()
    let fields = [
      HPACKField("apns-topic", "app.serverbee"), HPACKField("authorization", "bearer x"),
    ]
    _ = try decoder.decode(encoder.encode(fields))
    #expect(encoder.tableSize > 0)
    encoder.peerAllowsTableSize(0)
    #expect(encoder.tableSize == 0)
    let block = encoder.encode(fields)
    #expect(block.first == 0x20)
    #expect(try decoder.decode(block) == fields)
    #expect(decoder.tableSize == 0)
    encoder.peerAllowsTableSize(0)
    encoder.peerAllowsTableSize(4096)
    let grown = encoder.encode(fields)
    #expect(Array(grown.prefix(4)) == [0x20, 0x3f, 0xe1, 0x1f])
    #expect(try decoder.decode(grown) == fields)
    #expect(decoder.tableSize == encoder.tableSize)
  }
}
