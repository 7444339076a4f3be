/// The scalar writers behind ``WireJSON/encode(_:)``, for package code that writes a known wire
/// shape straight into bytes (the simulator's server lists and `full_sync`) and must
/// stay byte-identical to the encoder: one definition of string escaping and float formatting.
extension WireJSON {
  /// Appends `text` as a JSON string, escaped as ``encode(_:)`` escapes it.
  /// - Parameters:
  ///   - text: The string.
  ///   - out: The bytes to append to.
  package static func appendString(_ text: String, to out: inout [UInt8]) {
    OrderedJSONEncoder.writeString(text, into: &out)
  }

  /// Appends `value` as ``encode(_:)`` writes a `Double` (`0.0` for whole values, `null` when
  /// not finite).
  /// - Parameters:
  ///   - value: The number.
  ///   - out: The bytes to append to.
  package static func appendFloat(_ value: Double, to out: inout [UInt8]) {
    out.append(contentsOf: OrderedJSONEncoder.formatFloat(value).utf8)
  }
}
