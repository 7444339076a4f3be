public import ServerBeeModels

extension LiveFrameDecoder {
  /// The fast path alone: the message it reads, or `nil` when it leaves the frame to the
  /// Codable models. For the differential fuzz target `fuzz-live-decoder`, which checks that
  /// any answer equals `LiveStreamMessage(decoding:)`'s.
  /// - Parameter frame: The frame's UTF-8 bytes.
  /// - Returns: The fast path's message, or `nil`.
  @_spi(Fuzzing) public static func fastPathMessage(_ frame: [UInt8]) -> LiveStreamMessage? {
    frame.withUnsafeBufferPointer { FastFrameReader.read($0) }
  }
}
