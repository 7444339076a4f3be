import Foundation
import ServerBeeModels
import ServerBeeTestSupport
import Testing

@testable import RealtimeStream

/// The fast decoder and the Codable path must give the same answer on every input: the same
/// message, or both an error. Tables pin the known traps (invalid UTF-8 in keys, leading zeros,
/// repeated keys, aliases, escapes); a seeded generator mutates real frames byte by byte and
/// member by member.
@Suite struct LiveFrameDecoderDifferentialTests {
  enum Outcome: Equatable, CustomStringConvertible {
    case message(String)
    /// Unknown frames keep their JSON in a value whose member order is not stable: compared
    /// as values.
    case unknown(LiveStreamMessage)
    case failure(ServerBeeModelsError.Code)

    var description: String {
      switch self {
      case .message(let text): return "message \(text.prefix(300))"
      case .unknown(let message): return "unknown \(message.type ?? "(no type)")"
      case .failure(let code): return "failure \(code)"
      }
    }
  }

  /// Re-encoded with the server writer, so messages holding NaN compare too.
  private static func outcome(_ body: () throws -> LiveStreamMessage) -> Outcome {
    do {
      let message = try body()
      if case .unknown = message { return .unknown(message) }
      return .message(String(decoding: try WireJSON.encode(message), as: UTF8.self))
    } catch let error as ServerBeeModelsError {
      return .failure(error.code)
    } catch {
      return .failure(ServerBeeModelsError.Code(rawValue: "other: \(error)"))
    }
  }

  /// Compares the two paths; returns whether the fast path itself answered.
  @discardableResult
  private static func expectAgreement(
    _ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation
  ) -> Bool {
    let data = Data(bytes)
    let fastOnly = bytes.withUnsafeBufferPointer { FastFrameReader.read($0) }
    let decoded = outcome { try LiveFrameDecoder.decode(data) }
    let reference = outcome { try LiveStreamMessage(decoding: data) }
    #expect(
      decoded == reference, "input: \(String(decoding: bytes, as: UTF8.self).prefix(400))",
      sourceLocation: sourceLocation)
    if let fastOnly {
      let fast = outcome { fastOnly }
      #expect(
        fast == reference,
        "fast path answered differently for: \(String(decoding: bytes, as: UTF8.self).prefix(400))",
        sourceLocation: sourceLocation)
    }
    return fastOnly != nil
  }

  static let server =
    #"{"id":"652b142a-bca8-45f5-97f1-1a8ac4abf0ad","name":"新加坡-BGP-000","online":true,"last_active":1774692930,"uptime":33663723,"cpu":28.528587341308594,"mem_used":266756096,"mem_total":529199104,"swap_used":0,"swap_total":0,"disk_used":111429473277,"disk_total":291134474115,"net_in_speed":493677,"net_out_speed":3565487,"net_in_transfer":16583212,"net_out_transfer":11126617438,"load1":0.53,"load5":0.53,"load15":0.58,"tcp_conn":9,"udp_conn":223,"process_count":886,"cpu_name":"Apple M2 Pro","os":"Alpine Linux v3.20","region":"São Paulo","country_code":"BR","group_id":"4ba71ab7-ac05-44a5-acc6-be1805fdf179","features":["docker"],"disk_read_bytes_per_sec":0,"disk_write_bytes_per_sec":55684,"tags":["monitoring","web"],"cpu_cores":1,"agent_authority":{"status":"unclaimed","outstanding_offer":{"id":"o1","code_prefix":"sb_enr_ab","expires_at":"2026-03-28T10:31:43.899524057+00:00","created_at":"2026-03-28T09:31:43+00:00"}},"has_token":false,"outstanding_enrollment":null}"#
  static let fullSync =
    #"{"type":"full_sync","servers":["# + server
    + #",{"id":"b","name":"offline","online":false,"cpu":null,"load1":null,"tags":[]}],"upgrades":[{"server_id":"s1","job_id":"j1","target_version":"1.2.0","stage":"installing","status":"running","error":null,"backup_path":null,"started_at":"2026-03-28T10:15:30.123456789Z","finished_at":null}]}"#
  static let update =
    #"{"type":"update","servers":[{"id":"c2f1","name":"vps-a","online":true,"last_active":1774692930,"uptime":86400,"cpu":12.5,"mem_used":2147483648,"swap_used":0,"disk_used":21474836480,"net_in_speed":10240,"net_out_speed":2048,"net_in_transfer":987654321,"net_out_transfer":123456789,"load1":0.42,"load5":0.3,"load15":0.25,"tcp_conn":37,"udp_conn":4,"process_count":182,"disk_read_bytes_per_sec":0,"disk_write_bytes_per_sec":40960}]}"#

  private static func entry(_ members: String) -> [UInt8] {
    Array(#"{"type":"update","servers":[{"id":"a","name":"n","#.utf8) + Array(members.utf8)
      + Array("}]}".utf8)
  }

  /// Known traps, each on both paths.
  static let table: [[UInt8]] = [
    Array(fullSync.utf8), Array(update.utf8),
    // Leading zeros, in a read value and in a skipped one.
    entry(#""tcp_conn":073"#), entry(#""cpu":-01.5"#), entry(#""extra":073"#),
    entry(#""tcp_conn":0"#), entry(#""cpu":-0.0"#),
    // Repeated keys: the first wins on both paths, also with a bad second value.
    entry(#""cpu":1.0,"cpu":2.0"#), entry(#""cpu":1.0,"cpu":"x""#),
    Array(#"{"type":"update","servers":[{"id":"a","id":"b","name":"n"}]}"#.utf8),
    Array(#"{"type":"update","servers":[],"servers":[{"id":"a","name":"n"}]}"#.utf8),
    Array(#"{"type":"update","type":"full_sync","servers":[]}"#.utf8),
    // Aliases in both orders, and an alias repeated.
    entry(#""cpu":1.0,"cpu_usage":2.0"#), entry(#""cpu_usage":2.0,"cpu":1.0"#),
    entry(#""memory_used":5,"mem_used":6,"memory_used":7"#), entry(#""cpu_usage":null,"cpu":1"#),
    entry(#""cpu":"x","cpu_usage":2.0"#),
    // Invalid UTF-8 in a key, in a read string and in a skipped one.
    entry(#""na"#) + [0xFF] + Array(#"me":1"#.utf8),
    Array(#"{"type":"update","servers":[{"id":"a","name":""#.utf8) + [0xC3, 0x28]
      + Array(#""}]}"#.utf8),
    entry(#""x":""#) + [0xED, 0xA0, 0x80] + Array(#"""#.utf8),
    entry(#""x":""#) + [0xC0, 0xAF] + Array(#"""#.utf8),
    // Escapes: lone surrogates, unknown escapes, a key spelled with escapes.
    entry(#""x":"\ud800""#), entry(#""x":"\q""#), entry(#""\u0063pu":3.5"#),
    Array(#"{"type":"update","servers":[{"id":"a","name":"\ud83d\ude00"}]}"#.utf8),
    Array(#"{"type":"update","servers":[{"id":"a","name":"\ud800"}]}"#.utf8),
    // Numbers at the edges.
    entry(#""cpu":1e400"#), entry(#""cpu":1e-400"#), entry(#""cpu":1e-320"#),
    entry(#""uptime":9223372036854775807"#), entry(#""uptime":-9223372036854775808"#),
    entry(#""uptime":9223372036854775808"#), entry(#""uptime":9.22e18"#),
    entry(#""uptime":1.5"#), entry(#""uptime":10e-1"#),
    entry(#""uptime":9007199254740991.8"#), entry(#""uptime":9007199254740993.0"#),
    entry(#""uptime":4.00000000000000001"#), entry(#""uptime":12345678901234567.8"#),
    entry(#""uptime":9007199254740992.5"#), entry(#""uptime":1e3"#), entry(#""uptime":4.5"#),
    entry(#""uptime":9007199254740993e0"#), entry(#""uptime":-9007199254740991.8"#),
    entry(#""last_active":1.5"#), entry(#""last_active":-9223372036854775808"#),
    entry(#""last_active":"2026-03-28T10:15:30Z""#), entry(#""last_active":[1]"#),
    // Structure JSONDecoder is lax about (the fast path refuses, the slow path decides).
    Array(#"{"type":"update","servers":[{"id":"a","name":"n",}]}"#.utf8),
    [0xEF, 0xBB, 0xBF] + Array(#"{"type":"update","servers":[]}"#.utf8),
    Array(#"{"type":"update","servers":[]} x"#.utf8),
    Array(#"{"type":"update","servers":[]}"#.utf8) + [0],
    // Entries without identity are dropped on both paths.
    Array(#"{"type":"update","servers":[{"name":"n"},{"id":"a"},{"id":1,"name":"n"},5]}"#.utf8),
    Array(#"{"type":"full_sync","servers":[{"id":"a","name":null}]}"#.utf8),
    Array(#"{"type":"alert_event","alert_key":"r1:s1","status":"firing"}"#.utf8),
  ]

  @Test(arguments: table)
  func bothPathsAgreeOnKnownTraps(frame: [UInt8]) {
    Self.expectAgreement(frame)
  }

  @Test func theContractFramesTakeTheFastPath() {
    #expect(Self.expectAgreement(Array(Self.fullSync.utf8)))
    #expect(Self.expectAgreement(Array(Self.update.utf8)))
  }

  /// Mutations that keep a frame plausible enough to reach the field rules.
  private static func mutate(_ frame: [UInt8], using rng: inout SeededRandom) -> [UInt8] {
    var bytes = frame
    let interesting: [UInt8] =
      Array(#"0123456789"{}[],:-.eEnull\u"#.utf8) + [0xFF, 0xC3, 0xED, 0x80]
    let rounds = Int.random(in: 1...3, using: &rng)
    for _ in 0..<rounds {
      guard !bytes.isEmpty else { break }
      let at = Int.random(in: 0..<bytes.count, using: &rng)
      switch Int.random(in: 0..<9, using: &rng) {
      case 0: bytes.remove(at: at)
      case 1: bytes.insert(interesting.randomElement(using: &rng) ?? 0x30, at: at)
      case 2: bytes[at] = interesting.randomElement(using: &rng) ?? 0x30
      case 3:
        // A digit after a number start: leading zeros and longer numbers.
        if let colon = bytes[at...].firstIndex(of: UInt8(ascii: ":")), colon + 1 < bytes.count,
          bytes[colon + 1] &- 0x30 < 10
        {
          bytes.insert(UInt8(ascii: "0"), at: colon + 1)
        }
      case 4, 5:
        // Repeat a member right after itself (a duplicate key), possibly with a new value.
        if let start = bytes[at...].firstIndex(of: UInt8(ascii: ",")),
          let end = bytes[(start + 1)...].firstIndex(where: { $0 == UInt8(ascii: ",") })
        {
          var member = Array(bytes[start..<end])
          if Bool.random(using: &rng), let colon = member.firstIndex(of: UInt8(ascii: ":")) {
            member.replaceSubrange((colon + 1)..., with: Array("7".utf8))
          }
          bytes.insert(contentsOf: member, at: end)
        }
      case 6:
        // Rename a key to a legacy alias, or the other way round.
        let renames: [(String, String)] = [
          (#""cpu""#, #""cpu_usage""#), (#""mem_used""#, #""memory_used""#),
          (#""mem_total""#, #""memory_total""#), (#""net_in_speed""#, #""network_in""#),
          (#""tcp_conn""#, #""tcp_count""#), (#""country_code""#, #""country""#),
          (#""name""#, #""nam""#), (#""id""#, #""ID""#),
        ]
        let (from, to) = renames.randomElement(using: &rng) ?? renames[0]
        bytes = Array(
          String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: from, with: to).utf8)
      case 7:
        // Invalid UTF-8 inside the next key.
        if let quote = bytes[at...].firstIndex(of: UInt8(ascii: "\"")) {
          bytes.insert(0xFF, at: quote + 1)
        }
      default:
        // Drop a member.
        if let start = bytes[at...].firstIndex(of: UInt8(ascii: ",")),
          let end = bytes[(start + 1)...].firstIndex(where: {
            $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "}")
          })
        {
          bytes.removeSubrange(start..<end)
        }
      }
    }
    return bytes
  }

  @Test func bothPathsAgreeOnSeededRandomMutationsOfRealFrames() {
    var rng = SeededRandom(seed: 20_261_201)
    let bases = [Array(Self.fullSync.utf8), Array(Self.update.utf8)]
    var fastAnswered = 0
    let count = 4_000
    for i in 0..<count {
      let frame = Self.mutate(bases[i % bases.count], using: &rng)
      if Self.expectAgreement(frame) { fastAnswered += 1 }
    }
    // The generator must exercise the fast path, not only the fallback.
    #expect(fastAnswered > count / 10)
  }

  @Test func everyFieldHasAtMostTwoKeysAndTheCanonicalOneLast() {
    // FastFrameReader's precedence tracking relies on it.
    for field in MetricField.allCases {
      #expect((1...2).contains(field.keys.count))
      #expect(field.canonicalKey.description == field.keys[field.keys.count - 1].description)
    }
  }
}
