import COpenSSL
import Foundation
import ServerBeeModels
import ServerBeeTransport

/// Server side of `/api/ws/servers` (v1 §4): header auth, `full_sync` first, hub frames, a fresh
/// `full_sync` after lag, and close 4001 `token expired` at a mobile token's fixed expiry.
///
/// The connection thread writes; a second thread reads client frames (answers pings, ignores
/// text and binary, ends on close). Writes share one lock.
struct WebSocketSession {
  let stream: any ByteStream
  let core: SimulatorCore
  let head: HTTPConnection.Head
  let remote: String

  static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
  static let maximumMessage = 1 << 20

  func run() {
    let connection = HTTPConnection(stream: stream, core: core, port: 0, remote: remote, tls: false)
    guard let key = head.headers["sec-websocket-key"],
      head.headers["sec-websocket-version"] == "13",
      head.headers["connection"]?.lowercased().contains("upgrade") == true
    else {
      _ = connection.write(HTTPResponse(status: 400), close: true)
      return
    }
    let caller = try? core.db.serial { try core.authenticate(head.headers) }
    guard let caller = caller ?? nil, !caller.user.mustChangePassword else {
      _ = connection.write(HTTPResponse(status: 401), close: true)
      return
    }
    let accept = Self.acceptValue(key)
    let response =
      "HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nconnection: Upgrade\r\n"
      + "sec-websocket-accept: \(accept)\r\n\r\n"
    guard stream.write(Array(response.utf8)) else { return }
    // Mobile tokens die at their fixed expiry; cookies and API keys are never closed for it.
    let expiry: Int64? = caller.source == "mobile" ? caller.expiresAt : nil
    let subscriber = core.hub.subscribe()
    defer { core.hub.unsubscribe(subscriber) }
    let writer = FrameWriter(stream: stream)
    let readerDone = Locked(false)
    let reader = Thread { [stream] in
      Self.readLoop(stream: stream, writer: writer)
      readerDone.withLock { $0 = true }
      subscriber.wake()
    }
    reader.stackSize = 256 * 1024
    reader.start()
    defer {
      stream.shutdown()
      while !readerDone.withLock({ $0 }) { Thread.sleep(forTimeInterval: 0.005) }
    }
    guard let sync = try? core.db.serial({ try core.fullSync() }), writer.text(sync) else { return }
    while true {
      if let expiry, core.clock.nowNanos >= expiry {
        _ = writer.close(code: 4001, reason: "token expired")
        return
      }
      var wait: TimeInterval = 1
      if let expiry {
        let remaining = Double(expiry - core.clock.nowNanos) / 1e9
        wait = max(0.001, min(wait, remaining))
      }
      let (frames, resync, closed) = subscriber.next(timeout: wait)
      if closed {
        _ = writer.close(code: 1001, reason: "")
        return
      }
      if readerDone.withLock({ $0 }) { return }
      if resync {
        guard let sync = try? core.db.serial({ try core.fullSync() }), writer.text(sync) else {
          return
        }
      }
      for frame in frames where !writer.text(frame) { return }
    }
  }

  static func acceptValue(_ key: String) -> String {
    let input = Array((key + guid).utf8)
    var digest = [UInt8](repeating: 0, count: Int(SHA_DIGEST_LENGTH))
    _ = input.withUnsafeBufferPointer { SHA1($0.baseAddress, input.count, &digest) }
    return Data(digest).base64EncodedString()
  }

  /// Reads client frames until close or error; answers pings; ignores data frames.
  static func readLoop(stream: any ByteStream, writer: FrameWriter) {
    var buffer: [UInt8] = []
    var messageSize = 0
    while true {
      guard let (opcode, payload, consumed) = parseFrame(buffer) else {
        guard buffer.count <= maximumMessage + 14 else {
          _ = writer.close(code: 1009, reason: "message too big")
          return
        }
        guard let chunk = stream.read(upTo: 64 * 1024, timeout: 3600) else { continue }
        guard !chunk.isEmpty else { return }
        buffer += chunk
        continue
      }
      buffer.removeFirst(consumed)
      switch opcode {
      case 0x8:
        _ = writer.frame(opcode: 0x8, payload: Array(payload.prefix(2)))
        return
      case 0x9:
        _ = writer.frame(opcode: 0xA, payload: payload)
      case 0x0, 0x1, 0x2:
        messageSize = opcode == 0 ? messageSize + payload.count : payload.count
        if messageSize > maximumMessage {
          _ = writer.close(code: 1009, reason: "message too big")
          return
        }
      default:
        continue
      }
    }
  }

  /// One complete client frame: (opcode, unmasked payload, bytes consumed), or nil if partial.
  static func parseFrame(_ bytes: [UInt8]) -> (UInt8, [UInt8], Int)? {
    guard bytes.count >= 2 else { return nil }
    let opcode = bytes[0] & 0x0f
    let masked = bytes[1] & 0x80 != 0
    var length = Int(bytes[1] & 0x7f)
    var offset = 2
    if length == 126 {
      guard bytes.count >= 4 else { return nil }
      length = Int(bytes[2]) << 8 | Int(bytes[3])
      offset = 4
    } else if length == 127 {
      guard bytes.count >= 10 else { return nil }
      length = bytes[2..<10].reduce(0) { $0 << 8 | Int($1) }
      offset = 10
      guard length <= maximumMessage else { return (0x8, [], bytes.count) }
    }
    let maskLength = masked ? 4 : 0
    guard bytes.count >= offset + maskLength + length else { return nil }
    var payload = Array(bytes[(offset + maskLength)..<(offset + maskLength + length)])
    if masked {
      let mask = Array(bytes[offset..<(offset + 4)])
      for index in payload.indices { payload[index] ^= mask[index % 4] }
    }
    return (opcode, payload, offset + maskLength + length)
  }
}

/// Writes unmasked server frames; one lock serialises the writer and the reader's pongs.
final class FrameWriter: Sendable {
  private let stream: any ByteStream
  private let lock = Locked(false)

  init(stream: any ByteStream) { self.stream = stream }

  func text(_ data: Data) -> Bool { frame(opcode: 0x1, payload: Array(data)) }

  func close(code: UInt16, reason: String) -> Bool {
    frame(opcode: 0x8, payload: [UInt8(code >> 8), UInt8(code & 0xff)] + Array(reason.utf8))
  }

  func frame(opcode: UInt8, payload: [UInt8]) -> Bool {
    var bytes: [UInt8] = [0x80 | opcode]
    if payload.count < 126 {
      bytes.append(UInt8(payload.count))
    } else if payload.count <= 0xffff {
      bytes += [126, UInt8(payload.count >> 8), UInt8(payload.count & 0xff)]
    } else {
      bytes.append(127)
      for shift in stride(from: 56, through: 0, by: -8) {
        bytes.append(UInt8((payload.count >> shift) & 0xff))
      }
    }
    bytes += payload
    return lock.withLock { sent in
      // After a close frame nothing else may be sent (RFC 6455 §5.5.1).
      guard !sent else { return false }
      if opcode == 0x8 { sent = true }
      return stream.write(bytes)
    }
  }
}
