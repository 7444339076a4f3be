import Foundation
import ServerBeeModels

/// A `serverbee-relay`'s base URL, checked once, and the device routes under it.
///
/// Only the scheme, host, port and path are kept: a user, query or fragment is refused rather
/// than silently dropped, so what error messages print is exactly what is used.
struct RelayEndpoint: Sendable, Hashable {
  /// The base URL, `http(s)://host[:port][/path]` without a trailing slash.
  let baseURL: URL

  /// Checks a base URL.
  /// - Throws: ``NotificationPreferencesError`` with `invalidRelayURL`.
  init(_ url: URL) throws {
    guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
      let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
      let host = components.host, !host.isEmpty,
      components.user == nil, components.password == nil, components.query == nil,
      components.fragment == nil
    else {
      throw NotificationPreferencesError(
        .invalidRelayURL,
        "the relay URL must be http(s)://host[:port] without a user, query or fragment")
    }
    components.scheme = scheme
    while components.path.hasSuffix("/") { components.path.removeLast() }
    guard let base = components.url else {
      throw NotificationPreferencesError(.invalidRelayURL, "the relay URL is not usable")
    }
    baseURL = base
  }

  /// Checks the text of a base URL.
  /// - Throws: ``NotificationPreferencesError`` with `invalidRelayURL`.
  init(text: String) throws {
    guard let url = URL(string: text.trimmingCharacters(in: .whitespaces)) else {
      throw NotificationPreferencesError(
        .invalidRelayURL, "the relay URL must be http(s)://host[:port]")
    }
    try self.init(url)
  }

  /// `POST` here issues a token.
  var devicesURL: URL { baseURL.appendingPathComponent("v1").appendingPathComponent("devices") }

  /// The device stream: `ws(s)://…/v1/devices/stream`.
  var streamURL: URL {
    let http = devicesURL.appendingPathComponent("stream")
    var components = URLComponents(url: http, resolvingAgainstBaseURL: false)
    components?.scheme = baseURL.scheme == "https" ? "wss" : "ws"
    return components?.url ?? http
  }

  /// How messages name the relay: its base URL.
  var name: String { baseURL.absoluteString }
}
