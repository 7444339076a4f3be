public import ServerBeeModels

#if canImport(FoundationEssentials)
  public import FoundationEssentials
#else
  public import Foundation
#endif

/// Decodes `/api/ws/servers` frames fast, with the same results as
/// `LiveStreamMessage(decoding:)`.
///
/// `full_sync` and `update` — nearly all the traffic — are read by a forward-only scanner
/// straight into `ServerStatus` and `LiveMetrics`, about 10–20× faster than `JSONDecoder`
/// (see `serverbee-bench realtime`). Every other type, and any frame the fast path does not
/// recognise (for example `type` not being the first key, or a required field missing), goes
/// through the Codable models, so errors still name the field and unknown types still decode
/// as `.unknown`.
///
/// Both paths give the same answer for every input — the same message, or an error — including
/// aliases, absent keys, repeated keys (the first wins), numbers with leading zeros and invalid
/// UTF-8 (both refuse them); `LiveFrameDecoderDifferentialTests` checks it on tables and on
/// seeded random mutations of real frames. A server entry without `id` or `name` is dropped
/// from its frame on both paths, so one odd server never blanks the fleet.
///
/// ```swift
/// for try await message in connection.inbound {
///   guard case .text(let text) = message else { continue }
///   switch try LiveFrameDecoder.decode(Data(text.utf8)) {
///   case .fullSync(let sync): fleet.replace(with: sync)
///   case .update(let update): fleet.merge(update)
///   default: break
///   }
/// }
/// ```
public enum LiveFrameDecoder {
  /// Decodes one text frame.
  /// - Parameter frame: The frame's UTF-8 bytes (at most 16 MiB).
  /// - Returns: The message; unknown or missing types give `.unknown`.
  /// - Throws: `ServerBeeModelsError` when a known type has a malformed body.
  public static func decode(_ frame: Data) throws -> LiveStreamMessage {
    guard frame.count <= WireJSON.maximumInputSize else {
      return try LiveStreamMessage(decoding: frame)
    }
    let fast: LiveStreamMessage? = frame.withUnsafeBytes { raw in
      guard let base = raw.bindMemory(to: UInt8.self).baseAddress else { return nil }
      return FastFrameReader.read(UnsafeBufferPointer(start: base, count: raw.count))
    }
    if let fast { return fast }
    return try LiveStreamMessage(decoding: frame)
  }

  /// Decodes one text frame given as a string.
  /// - Parameter frame: The frame.
  /// - Returns: The message.
  /// - Throws: `ServerBeeModelsError` when a known type has a malformed body.
  public static func decode(_ frame: String) throws -> LiveStreamMessage {
    var frame = frame
    guard frame.utf8.count <= WireJSON.maximumInputSize else {
      return try LiveStreamMessage(decoding: Data(frame.utf8))
    }
    let fast: LiveStreamMessage?? = frame.withUTF8 { FastFrameReader.read($0) }
    if let fast, let fast { return fast }
    return try LiveStreamMessage(decoding: Data(frame.utf8))
  }
}
