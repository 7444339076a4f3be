import COpenSSL
package import Foundation
import ServerBeeModels
import ServerBeeTransport

/// A PEM certificate chain and private key for serving TLS 1.2+ (`https`/`wss`) on accepted
/// sockets; see ``HTTPServerConnection/init(socket:tls:handshakeTimeout:)``.
///
/// Load it once and share it between connections:
///
/// ```swift
/// let identity = try TLSServerIdentity(certificateChainFile: cert, privateKeyFile: key)
/// let connection = try await HTTPServerConnection(socket: socket, tls: identity)
/// ```
///
/// The handshake runs over memory BIOs with our own non-blocking `send(MSG_NOSIGNAL)`, so a
/// client that hangs up mid-handshake never raises SIGPIPE.
package final class TLSServerIdentity: @unchecked Sendable {
  // @unchecked: the SSL_CTX is immutable after init; OpenSSL allows SSL_new from many threads.
  let context: OpaquePointer

  /// Loads and checks the certificate chain and key.
  /// - Parameters:
  ///   - certificateChainFile: The leaf certificate followed by any intermediates (PEM).
  ///   - privateKeyFile: The leaf's private key (PEM).
  /// - Throws: ``ServerBeeTransportError`` with `tlsHandshakeFailed` when a file cannot be
  ///   loaded or the key does not match the certificate.
  package init(certificateChainFile: URL, privateKeyFile: URL) throws {
    guard let context = SSL_CTX_new(TLS_server_method()) else {
      throw ServerBeeTransportError(.tlsHandshakeFailed, "SSL_CTX_new failed")
    }
    guard SSL_CTX_use_certificate_chain_file(context, certificateChainFile.path) == 1,
      SSL_CTX_use_PrivateKey_file(context, privateKeyFile.path, SSL_FILETYPE_PEM) == 1,
      SSL_CTX_check_private_key(context) == 1
    else {
      SSL_CTX_free(context)
      throw ServerBeeTransportError(
        .tlsHandshakeFailed,
        "cannot load the TLS certificate \(certificateChainFile.lastPathComponent) or its key")
    }
    _ = copenssl_set_min_proto_version(context, TLS1_2_VERSION)
    self.context = context
  }

  deinit { SSL_CTX_free(context) }
}
