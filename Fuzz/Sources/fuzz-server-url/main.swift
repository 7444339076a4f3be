// ServerURL normalisation (Protocol/Auth.md §9) of what a user types or a QR code holds.
// Invariants: failures are ServerBeeModelsError with code invalidServerURL only; normalising
// twice is idempotent (the normalised text parses to an equal value with the same text); the
// parts obey the rules (http/https, lower-case host, no default port, no trailing /, no user
// info, query or fragment); `url`, `endpoint` and the WebSocket URL keep the normalised text;
// the Codable form round-trips.
import Foundation
import FuzzSupport
import ServerBeeModels

func fuzzOne(_ bytes: [UInt8]) {
  let text = String(decoding: bytes, as: UTF8.self)
  let server: ServerURL
  do {
    server = try ServerURL(text)
  } catch let error as ServerBeeModelsError {
    check(error.code == .invalidServerURL, "code \(error.code)")
    return
  } catch {
    fail("untyped error \(error)")
  }
  let normalised = server.string
  guard let again = try? ServerURL(normalised) else {
    fail("the normalised \(normalised.debugDescription) of \(text.debugDescription) is refused")
  }
  check(again == server && again.string == normalised, "normalising twice changes \(normalised)")
  check(server.scheme == "http" || server.scheme == "https", "scheme \(server.scheme)")
  check(server.host == server.host.lowercased() && !server.host.isEmpty, "host \(server.host)")
  if let port = server.port {
    check((1...65535).contains(port), "port \(port)")
    check(port != (server.isSecure ? 443 : 80), "a default port kept")
  }
  check(!server.path.hasSuffix("/"), "a trailing / kept in \(normalised)")
  check(
    !normalised.contains("?") && !normalised.contains("#") && !server.host.contains("@"),
    "query, fragment or user info kept in \(normalised)")
  check(server.url.absoluteString == normalised, "url \(server.url) for \(normalised)")
  check(
    server.endpoint("/api/servers").absoluteString == normalised + "/api/servers",
    "endpoint of \(normalised)")
  let webSocket = server.webSocketEndpoint("/api/ws/servers").absoluteString
  check(
    webSocket == (server.isSecure ? "wss" : "ws") + normalised.dropFirst(server.scheme.count)
      + "/api/ws/servers",
    "WebSocket endpoint \(webSocket) of \(normalised)")
  guard let encoded = try? WireJSON.encode(server),
    let decoded = try? WireJSON.decode(ServerURL.self, from: encoded)
  else { fail("\(normalised) does not round-trip through JSON") }
  check(decoded == server, "JSON round trip changes \(normalised)")
}

runFuzzer(fuzzOne)
