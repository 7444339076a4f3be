import Foundation
import ServerBeeModels
import ServerBeeTransport

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// What both URLSession adapters share: their error mapping and duration conversion.
enum URLSessionFailure {
  static func seconds(_ duration: Duration) -> TimeInterval {
    let (seconds, attoseconds) = duration.components
    return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
  }

  /// Maps a URLSession failure to the transport's typed errors; `what` names the operation in
  /// the message ("the request", "the WebSocket connection").
  static func mapped(_ error: any Error, what: String) -> any Error {
    if error is CancellationError || Task.isCancelled { return CancellationError() }
    guard let urlError = error as? URLError else {
      return ServerBeeTransportError(.connectionFailed, "\(what) failed")
    }
    switch urlError.code {
    case .cancelled: return CancellationError()
    case .timedOut:
      return ServerBeeTransportError(.timedOut, "\(what) timed out", underlying: urlError)
    case .cannotConnectToHost:
      return ServerBeeTransportError(
        .connectionRefused, "the server refused the connection", underlying: urlError)
    case .cannotFindHost, .dnsLookupFailed:
      return ServerBeeTransportError(
        .nameResolutionFailed, "the host name did not resolve", underlying: urlError)
    case .networkConnectionLost:
      return ServerBeeTransportError(
        .connectionLost, "the connection was lost", underlying: urlError)
    case .serverCertificateUntrusted, .serverCertificateHasUnknownRoot:
      return ServerBeeTransportError(
        .tlsUntrustedCertificate, "the server certificate is not trusted", underlying: urlError)
    case .serverCertificateHasBadDate, .serverCertificateNotYetValid:
      return ServerBeeTransportError(
        .tlsCertificateExpired, "the server certificate is expired or not yet valid",
        underlying: urlError)
    case .secureConnectionFailed:
      return ServerBeeTransportError(
        .tlsHandshakeFailed, "the TLS handshake failed", underlying: urlError)
    default:
      return ServerBeeTransportError(
        .connectionFailed, "\(what) failed (\(urlError.code.rawValue))", underlying: urlError)
    }
  }
}
