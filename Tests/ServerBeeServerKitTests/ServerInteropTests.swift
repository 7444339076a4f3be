import Foundation
import ServerBeeModels
import ServerBeeTestHarness
import Testing

@testable import ServerBeeServerKit
@testable import ServerBeeSocketTransport
@testable import ServerBeeTransport

/// Our server side (TCPListener + WebSocketServerUpgrade) against the Python `websockets` client
/// (Peers/ws_client_peer.py).
///
/// Neither side has a deadline a slow machine can reach: the peer's opening and
/// closing waits are `PATIENCE`, and ours (reading the request, the close handshake) are
/// ``PeerProcess/patience``, so each step waits for the other side's event.
@Suite(.timeLimit(.minutes(5))) struct ServerInteropTests {
  func start(_ scenario: String, compression: Bool) async throws -> (TCPListener, PeerProcess) {
    let listener = try TCPListener()
    var arguments = ["ws://127.0.0.1:\(listener.port)/api/ws/servers", scenario]
    if !compression { arguments.append("--no-compression") }
    return (listener, try await PeerProcess.python("ws_client_peer.py", arguments))
  }

  /// The upgrade request of the next connection, however long the peer takes to send it.
  func request(_ listener: TCPListener) async throws -> HTTPServerRequest {
    try await HTTPServerRequest.read(
      from: try await listener.accept(), timeout: PeerProcess.patience)
  }

  /// Server options whose close handshake waits for the peer's close frame (its reply, or its
  /// own close) instead of giving up after the default 5 s.
  func options(compression: Bool = true) -> WebSocketServerOptions {
    WebSocketServerOptions(compression: compression, closeTimeout: PeerProcess.patience)
  }

  @Test(arguments: [true, false])
  func echoesEverythingThePythonClientSendsAndCompletesItsClose(compression: Bool) async throws {
    let (listener, peer) = try await start("echo", compression: compression)
    let upgrade = try await request(listener)
    #expect(upgrade.head.target == "/api/ws/servers")
    let connection = try await upgrade.acceptWebSocket(options: options(compression: compression))
    var received = 0
    for try await message in connection.inbound {
      received += 1
      try await connection.send(message)
    }
    #expect(received == 3)
    #expect(await connection.receivedClose == WebSocketClose(code: .normalClosure, reason: "bye"))
    let result = await peer.finish()
    #expect(result.status == 0, "\(result.output)")
    #expect(
      result.output.contains("text ok\nbinary ok\nfragmented ok\nping ok\nok"), "\(result.output)")
  }

  @Test(arguments: [true, false])
  func serverInitiatedClose4001ReachesThePythonClient(compression: Bool) async throws {
    let (listener, peer) = try await start("server-close", compression: compression)
    let upgrade = try await request(listener)
    let connection = try await upgrade.acceptWebSocket(options: options(compression: compression))
    try await connection.send(.text("full_sync"))
    await connection.close(code: .tokenExpired, reason: "token expired")
    for try await _ in connection.inbound {}
    #expect(await connection.receivedClose?.code == .tokenExpired)
    let result = await peer.finish()
    #expect(
      result.output.contains("message full_sync\nclosed 4001 token expired\nok"), "\(result.output)"
    )
  }

  @Test func negotiatesNoContextTakeoverAndWindowBitsWithThePythonClient() async throws {
    let listener = try TCPListener()
    let peer = try await PeerProcess.python(
      "ws_client_peer.py",
      ["ws://127.0.0.1:\(listener.port)/", "echo", "--no-context-takeover"])
    let upgrade = try await request(listener)
    let connection = try await upgrade.acceptWebSocket(options: options())
    for try await message in connection.inbound { try await connection.send(message) }
    let result = await peer.finish()
    #expect(result.status == 0, "\(result.output)")
    #expect(
      result.output.contains(
        "extensions permessage-deflate; server_no_context_takeover; client_no_context_takeover; "
          + "server_max_window_bits=10"), "\(result.output)")
    #expect(result.output.contains("ping ok\nok"), "\(result.output)")
  }

  @Test func rejectingBeforeTheUpgradeSendsThePlainResponse() async throws {
    let (listener, peer) = try await start("echo", compression: false)
    let upgrade = try await request(listener)
    await upgrade.respond(HTTPResponseHead(status: 401, reason: "Unauthorized", headers: [:]))
    let result = await peer.finish()
    #expect(result.status == 1)
    #expect(result.output.contains("401"), "\(result.output)")
  }
}
