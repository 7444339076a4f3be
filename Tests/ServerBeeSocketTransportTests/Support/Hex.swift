/// Bytes from a hex string such as `"81 05 48"` (spaces ignored); test vectors only.
func hex(_ text: String) -> [UInt8] {
  let digits = Array(text.filter { !$0.isWhitespace })
  return stride(from: 0, to: digits.count - 1, by: 2).compactMap {
    UInt8(String(digits[$0...$0 + 1]), radix: 16)
  }
}
