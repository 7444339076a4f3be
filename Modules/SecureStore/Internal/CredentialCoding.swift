internal import Foundation
internal import ServerBeeModels

/// The JSON encoding of typed values, shared by the store extension and ``CredentialBatch``.
///
/// Foundation's coder pair rather than `WireJSON`: stored records are ours, not the server's, and
/// the pair round-trips `Data` (base64) and `Date` symmetrically.
enum CredentialCoding {
  static func encode(_ value: some Encodable, key: CredentialKey) throws(SecureStoreError) -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    do {
      return try encoder.encode(value)
    } catch {
      // The underlying error is dropped on purpose: an EncodingError can quote the value.
      throw SecureStoreError(
        .encodingFailed, "a \(type(of: value)) for '\(key)' could not be encoded as JSON")
    }
  }

  static func decode<Value: Decodable>(
    _ type: Value.Type, from data: Data, key: CredentialKey
  ) throws(SecureStoreError) -> Value {
    do {
      return try JSONDecoder().decode(type, from: data)
    } catch let error as DecodingError {
      // Only the coding path is reported: DecodingError descriptions can quote stored content.
      throw SecureStoreError(
        .decodingFailed,
        "the value for '\(key)' is not a valid \(type) at '\(path(of: error))'")
    } catch {
      throw SecureStoreError(.decodingFailed, "the value for '\(key)' is not a valid \(type)")
    }
  }

  private static func path(of error: DecodingError) -> String {
    var codingPath: [any CodingKey]
    switch error {
    case .keyNotFound(let key, let context): codingPath = context.codingPath + [key]
    case .valueNotFound(_, let context), .typeMismatch(_, let context),
      .dataCorrupted(let context):
      codingPath = context.codingPath
    @unknown default: codingPath = []
    }
    let text = codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
      .joined(separator: ".")
    return text.isEmpty ? "(root)" : text
  }
}
