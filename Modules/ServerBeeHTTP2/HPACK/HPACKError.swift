/// Why a header block could not be decoded. Any of them is a connection error of type
/// `COMPRESSION_ERROR` (RFC 9113 §4.3): the decoder's state can no longer be trusted.
package enum HPACKError: Error, Hashable, Sendable {
  /// The block ended inside a representation.
  case truncated
  /// An integer does not fit (RFC 7541 §5.1 leaves the bound to the implementation).
  case integerOverflow
  /// An index of 0 or past the end of both tables.
  case invalidIndex(Int)
  /// A Huffman string with the EOS symbol or bad padding.
  case invalidHuffman
  /// A dynamic table size update above the limit we announced, or after the first field.
  case invalidTableSizeUpdate(Int)
  /// The decoded header list is larger than the limit.
  case headerListTooLarge
}
