#if canImport(FoundationEssentials)
  public import FoundationEssentials
#else
  public import Foundation
#endif

/// Reads and writes ServerBee JSON.
///
/// - Decoding wraps Foundation's `JSONDecoder` and turns its errors into
///   ``ServerBeeModelsError`` values that name the field by path (`data.servers[3].id`). Input is
///   bounded by ``maximumInputSize``.
/// - Encoding writes exactly what a ServerBee server writes (Protocol/README.md §6): keys in
///   declaration order, `nil` optionals as `null`, whole floats as `0.0`, `/` unescaped, compact.
///
/// ```swift
/// let token = try WireJSON.decode(APIResponse<MobileTokenResponse>.self, from: body).data
/// let body = try WireJSON.encode(RefreshRequest(refreshToken: t, installationID: id))
/// ```
public enum WireJSON {
  /// The largest input accepted by ``decode(_:from:)``: 16 MiB.
  public static let maximumInputSize = 16 << 20

  /// Decodes a value.
  /// - Parameters:
  ///   - type: The type to decode.
  ///   - data: UTF-8 JSON, at most ``maximumInputSize`` bytes.
  /// - Returns: The decoded value.
  /// - Throws: ``ServerBeeModelsError`` with code `malformedJSON`, `missingField`,
  ///   `invalidField`, `invalidTimestamp` or `tooLarge`.
  public static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
    guard data.count <= maximumInputSize else {
      throw ServerBeeModelsError(.tooLarge, "JSON input of \(data.count) bytes exceeds the limit")
    }
    // JSON is UTF-8 (RFC 8259 §8.1). Refused up front because Foundation's decoder on Linux
    // reports invalid UTF-8 inconsistently, as `malformedJSON` on one call and as an invalid
    // field on the next for the same bytes (found by fuzz-live-decoder).
    guard String(validating: data, as: UTF8.self) != nil else {
      throw ServerBeeModelsError(.malformedJSON, "the body is not valid UTF-8")
    }
    do {
      return try JSONDecoder().decode(type, from: data)
    } catch let error as DecodingError {
      // Foundation's decoder reads lazily: broken JSON (a raw control character in a string,
      // say) may surface as a type error of whichever field it reaches first, and which one
      // that is varies from call to call (found by fuzz-live-decoder). So a failure is first
      // checked against the whole text: not JSON at all is always `malformedJSON`.
      // The check is `JSONSyntax`, which follows the rules of Foundation's JSONSerialization
      // (FoundationParityTests), so this module needs only FoundationEssentials.
      guard JSONSyntax.isWellFormed(Array(data)) else {
        throw ServerBeeModelsError(.malformedJSON, "the body is not valid JSON")
      }
      let mapped = modelsError(from: error)
      // Foundation reports a number that does not fit an integer field (`1.5`, `1e30`) as
      // "not valid JSON" at the root, without a path. Tell that apart from truly broken JSON.
      if mapped.code == .malformedJSON {
        throw ServerBeeModelsError(
          .invalidField, "a number does not fit its integer field (fraction or out of range)")
      }
      throw mapped
    } catch let error as ServerBeeModelsError {
      throw error
    } catch {
      throw ServerBeeModelsError(.malformedJSON, "JSON could not be read")
    }
  }

  /// Encodes a value the way a ServerBee server does.
  /// - Parameter value: The value.
  /// - Returns: Compact UTF-8 JSON.
  /// - Throws: ``ServerBeeModelsError`` with code `encodingFailed`.
  public static func encode(_ value: some Encodable) throws -> Data {
    do {
      return Data(try OrderedJSONEncoder.encode(value))
    } catch let error as ServerBeeModelsError {
      throw error
    } catch {
      throw ServerBeeModelsError(
        .encodingFailed, "a \(type(of: value)) could not be encoded: \(error)")
    }
  }

  /// The JSON path of a coding path, for example `data.servers[3].id`.
  static func path(_ codingPath: [any CodingKey], appending key: (any CodingKey)? = nil) -> String {
    var text = ""
    for component in codingPath + (key.map { [$0] } ?? []) {
      if let index = component.intValue {
        text += "[\(index)]"
      } else {
        text += text.isEmpty ? component.stringValue : "." + component.stringValue
      }
    }
    return text.isEmpty ? "(root)" : text
  }

  static func modelsError(from error: DecodingError) -> ServerBeeModelsError {
    switch error {
    case .keyNotFound(let key, let context):
      return ServerBeeModelsError(
        .missingField, "missing field '\(path(context.codingPath, appending: key))'")
    case .valueNotFound(_, let context):
      return ServerBeeModelsError(
        .invalidField, "field '\(path(context.codingPath))' is null but a value is required")
    case .typeMismatch(let type, let context):
      return ServerBeeModelsError(
        .invalidField, "field '\(path(context.codingPath))' is not a valid \(type)")
    case .dataCorrupted(let context):
      if context.codingPath.isEmpty {
        return ServerBeeModelsError(.malformedJSON, "the body is not valid JSON")
      }
      let code: ServerBeeModelsError.Code =
        context.debugDescription.contains("RFC 3339") ? .invalidTimestamp : .invalidField
      return ServerBeeModelsError(
        code, "field '\(path(context.codingPath))': \(context.debugDescription)")
    @unknown default:
      return ServerBeeModelsError(.malformedJSON, "JSON could not be decoded")
    }
  }
}
