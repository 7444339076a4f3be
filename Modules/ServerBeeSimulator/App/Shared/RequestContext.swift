import Foundation
import ServerBeeModels
import ServerBeeTransport

/// The parsed parts of one request.
struct RequestContext {
  let request: HTTPRequest
  let method: String
  let segments: [String]
  let query: [String: String]
  let remoteAddress: String
  /// Path parameters captured by `*` in the route pattern, in order.
  var parameters: [String] = []

  init(_ request: HTTPRequest, remoteAddress: String) {
    self.request = request
    self.method = request.method.rawValue
    self.remoteAddress = remoteAddress
    if let path = PlainURLPath.of(request.url) {
      // The same segments and no query, without `URLComponents` parsing the URL again.
      // Split as bytes: splitting the text by `Character` (grapheme breaking at every step)
      // cost about 25 k instructions a request; the path is ASCII, so the parts are the same.
      segments = path.utf8.split(separator: UInt8(ascii: "/")).map { String(Substring($0)) }
      query = [:]
      return
    }
    let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
    let path = components?.percentEncodedPath ?? request.url.path
    // Foundation's percent decoding (through CFString) only for a segment that has a `%`: it
    // returns any other segment unchanged, and cost ~40 k instructions a request.
    segments = path.split(separator: "/", omittingEmptySubsequences: true).map {
      $0.utf8.contains(UInt8(ascii: "%"))
        ? String($0).removingPercentEncoding ?? String($0) : String($0)
    }
    var query: [String: String] = [:]
    for item in components?.queryItems ?? [] where query[item.name] == nil {
      query[item.name] = item.value ?? ""
    }
    self.query = query
  }

  /// axum's text for a body that is not JSON (`JsonSyntaxError`).
  static let syntaxRejection = "Failed to parse the request body as JSON"

  func parameter(_ index: Int) -> String {
    parameters.indices.contains(index) ? parameters[index] : ""
  }

  /// The JSON object body, with axum's rejections (Protocol/README.md §5): 415 without a JSON
  /// content type, 400 for malformed JSON, 422 (plain text) for a body that is not an object.
  ///
  /// Every route that reads a body comes through here, so every one is as strict as
  /// `serde_json` (``StrictJSON``): a byte order mark or any other syntax `serde_json` refuses
  /// is the 400, and a key given twice is a 422 `duplicate field` (a deserialisation error in
  /// axum's terms, like a missing field), both plain text, without serde's "at line L column
  /// C" suffix, which the simulator leaves out of every such message.
  func jsonBody() throws -> JSONBody {
    let contentType = request.headers["content-type"]?.lowercased() ?? ""
    guard contentType.hasPrefix("application/json") else {
      throw APIError.plain(415, "Expected request with `Content-Type: application/json`")
    }
    let parsed: JSONValue?
    do {
      // The value in the same pass when its numbers allow (``StrictJSON/parse(_:)``):
      // `JSONDecoder` into a `JSONValue` after the check cost three times the check.
      parsed = try StrictJSON.parse(request.body)
    } catch .syntax {
      throw APIError.plain(400, Self.syntaxRejection)
    } catch .duplicateKey(let path, let key) {
      throw APIError.plain(
        422,
        "Failed to deserialize the JSON body into the target type: "
          + (path.isEmpty ? "" : "\(path): ") + "duplicate field `\(key)`")
    }
    // `WireJSON`'s size limit holds for both.
    guard request.body.count <= WireJSON.maximumInputSize,
      let value = parsed ?? (try? WireJSON.decode(JSONValue.self, from: request.body))
    else {
      throw APIError.plain(400, Self.syntaxRejection)
    }
    guard case .object = value else {
      throw APIError.plain(
        422, "Failed to deserialize the JSON body into the target type: invalid type")
    }
    return JSONBody(value: value)
  }

  /// The control API's body: as ``jsonBody()``, but an empty body reads as `{}`.
  func controlBody() throws -> JSONBody {
    request.body.isEmpty ? JSONBody(value: .object([])) : try jsonBody()
  }

  /// A non-negative integer query value (serde `u32`-like): anything else is a plain-text 400.
  func queryCount(_ name: String, default value: Int64) throws -> Int64 {
    guard let text = query[name] else { return value }
    guard let parsed = Int64(text), parsed >= 0 else {
      throw APIError.plain(400, "Failed to deserialize query string: \(name): invalid digit")
    }
    return parsed
  }

  /// A query value in RFC 3339, in simulator nanoseconds; a missing required one or one
  /// that does not parse is a plain-text 400, as serde reports it.
  func queryTime(_ name: String, required: Bool) throws -> Int64? {
    guard let text = query[name] else {
      if required {
        throw APIError.plain(400, "Failed to deserialize query string: missing field `\(name)`")
      }
      return nil
    }
    guard let parsed = try? RFC3339Timestamp(parsing: text) else {
      throw APIError.plain(400, "Failed to deserialize query string: \(name): invalid datetime")
    }
    return parsed.secondsSince1970 * SimulatorCore.second + Int64(parsed.nanoseconds)
  }
}
