import Foundation
import ServerBeeModels
import ServerBeeTestHarness
import ServerBeeTestSupport
import ServerBeeTransport
import Testing

@testable import ServerBeeSimulator

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The simulator over real 127.0.0.1 sockets with plain clients (URLSession and raw TCP).
@Suite(.timeLimit(.minutes(5))) struct LoopbackTests {
  struct Running {
    let h: Harness
    let url: URL
    var port: UInt16 { UInt16(url.port ?? 0) }
  }

  func start() async throws -> Running {
    let h = try Harness()
    await h.user("admin")
    return Running(h: h, url: try await h.listen())
  }

  func login(_ r: Running, installation: String = "L1") async throws -> [String: Any] {
    var request = URLRequest(url: r.url.appendingPathComponent("api/mobile/auth/login"))
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.httpBody = Data(
      #"{"username":"admin","password":"pw","installation_id":"\#(installation)","device_name":"d"}"#
        .utf8)
    let (data, response) = try await URLSession.shared.data(for: request)
    #expect((response as? HTTPURLResponse)?.statusCode == 200)
    let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    return try #require(object?["data"] as? [String: Any])
  }

  @Test func urlSessionLogsInAndReadsDataOverLoopback() async throws {
    let r = try await start()
    defer { r.h.simulator.stop() }
    #expect(r.url.host == "127.0.0.1" && r.url.port != 0)
    let tokens = try await login(r)
    let access = try #require(tokens["access_token"] as? String)
    var request = URLRequest(url: r.url.appendingPathComponent("api/mobile/auth/devices"))
    request.setValue("Bearer \(access)", forHTTPHeaderField: "Authorization")
    let (data, response) = try await URLSession.shared.data(for: request)
    #expect((response as? HTTPURLResponse)?.statusCode == 200)
    #expect(String(decoding: data, as: UTF8.self).hasPrefix(#"{"data":[{"id":"#))
    let (empty, missing) = try await URLSession.shared.data(
      from: r.url.appendingPathComponent("api/servers"))
    #expect((missing as? HTTPURLResponse)?.statusCode == 401 && empty.isEmpty)
  }

  @Test func keepAliveServesSeveralRequestsOnOneConnection() async throws {
    let r = try await start()
    defer { r.h.simulator.stop() }
    let client = try #require(RawClient(port: r.port))
    for _ in 0..<3 {
      client.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
      let reply = try #require(await client.response())
      #expect(reply.status == 200 && reply.body == Array("ok".utf8))
    }
    client.send("GET /api/nope HTTP/1.1\r\nHost: x\r\n\r\n")
    let unknown = try #require(await client.response())
    #expect(unknown.status == 404 && unknown.body.isEmpty)
  }

  @Test func expectContinueGetsAnInterimResponseBeforeTheBody() async throws {
    let r = try await start()
    defer { r.h.simulator.stop() }
    let client = try #require(RawClient(port: r.port))
    let body = #"{"username":"admin","password":"pw","installation_id":"i","device_name":"d"}"#
    client.send(
      "POST /api/mobile/auth/login HTTP/1.1\r\nContent-Type: application/json\r\n"
        + "Content-Length: \(body.utf8.count)\r\nExpect: 100-continue\r\n\r\n")
    #expect(await client.response()?.status == 100)
    client.send(body)
    #expect(await client.response()?.status == 200)
  }

  @Test func oversizedBodyIs413AndOversizedHeadIs431() async throws {
    let r = try await start()
    defer { r.h.simulator.stop() }
    let big = try #require(RawClient(port: r.port))
    big.send("POST /api/mobile/auth/login HTTP/1.1\r\nContent-Length: 1048577\r\n\r\n")
    #expect(await big.response()?.status == 413)
    let head = try #require(RawClient(port: r.port))
    head.send(
      "GET /healthz HTTP/1.1\r\nX-Big: " + String(repeating: "a", count: 17_000) + "\r\n\r\n")
    #expect(await head.response()?.status == 431)
  }

  @Test func twoHundredFiftySixConcurrentConnectionsAreServed() async throws {
    let r = try await start()
    defer { r.h.simulator.stop() }
    var clients: [RawClient] = []
    for _ in 0..<256 { clients.append(try #require(RawClient(port: r.port))) }
    for client in clients { client.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n") }
    var served = 0
    for client in clients { if await client.response()?.status == 200 { served += 1 } }
    #expect(served == 256)
  }

  @Test func webSocketStartsWithFullSyncThenOneServerPerUpdate() async throws {
    let r = try await start()
    defer { r.h.simulator.stop() }
    _ = try r.h.simulator.createServers(count: 2)
    let access = try #require(try await login(r)["access_token"] as? String)
    let client = try #require(RawClient(port: r.port))
    #expect(await client.upgrade(bearer: access) == 101)
    let sync = try #require(await client.json())
    #expect(sync["type"] as? String == "full_sync")
    #expect((sync["servers"] as? [Any])?.count == 2)
    try r.h.simulator.tick()
    for _ in 0..<2 {
      let update = try #require(await client.json())
      #expect(update["type"] as? String == "update")
      let servers = try #require(update["servers"] as? [[String: Any]])
      #expect(servers.count == 1)
      #expect(servers[0]["mem_total"] == nil && servers[0]["online"] as? Bool == true)
    }
    client.sendFrame(opcode: 0x9, Array("hi".utf8))
    let pong = try #require(await client.frame())
    #expect(pong.0 == 0xA && pong.1 == Array("hi".utf8))
  }

  @Test func webSocketCarriesPresenceAndSecurityEvents() async throws {
    let r = try await start()
    defer { r.h.simulator.stop() }
    let server = try #require(try r.h.simulator.createServers(count: 1).first)
    let access = try #require(try await login(r)["access_token"] as? String)
    let client = try #require(RawClient(port: r.port))
    #expect(await client.upgrade(bearer: access) == 101)
    _ = await client.json()
    _ = await r.h.control(.post, "/servers/\(server)/offline")
    #expect(await client.json()?["type"] as? String == "server_offline")
    _ = await r.h.control(.post, "/servers/\(server)/online")
    #expect(await client.json()?["type"] as? String == "server_online")
    _ = await r.h.control(.post, "/security-events", ["server_id": server, "source_port": 22])
    let event = try #require(await client.json())
    #expect(event["type"] as? String == "security_event")
    let payload = try #require(event["event"] as? [String: Any])
    #expect(payload["started_at"] is Int && payload["id"] == nil)
  }

  @Test func webSocketClosesWith4001AtTokenExpiryOnTheInjectedClock() async throws {
    let r = try await start()
    defer { r.h.simulator.stop() }
    let access = try #require(try await login(r)["access_token"] as? String)
    let client = try #require(RawClient(port: r.port))
    #expect(await client.upgrade(bearer: access) == 101)
    #expect(await client.json()?["type"] as? String == "full_sync")
    r.h.clock.advance(by: 899)
    #expect(await client.frame(timeout: 0.3) == nil)
    r.h.clock.advance(by: 1)
    let close = try #require(await client.frame())
    #expect(close.0 == 0x8)
    #expect(close.1.prefix(2) == [0x0F, 0xA1])
    #expect(String(decoding: close.1.dropFirst(2), as: UTF8.self) == "token expired")
    let again = try #require(RawClient(port: r.port))
    #expect(await again.upgrade(bearer: access) == 401)
  }

  @Test func cookieWebSocketIsNeverClosedForExpiry() async throws {
    let r = try await start()
    defer { r.h.simulator.stop() }
    let id = try #require(try r.h.simulator.core.user(named: "admin")?.id)
    let cookie = try #require(
      await r.h.control(.post, "/users/\(id)/web-session")?["session_token"]?.stringValue)
    let client = try #require(RawClient(port: r.port))
    #expect(await client.upgrade(bearer: nil, cookie: cookie) == 101)
    #expect(await client.json()?["type"] as? String == "full_sync")
    r.h.clock.advance(by: 3600)
    #expect(await client.frame(timeout: 0.3) == nil)
  }

  @Test func flaggedUserWebSocketIsHTTP401() async throws {
    let r = try await start()
    defer { r.h.simulator.stop() }
    let access = try #require(try await login(r)["access_token"] as? String)
    let id = try #require(try r.h.simulator.core.user(named: "admin")?.id)
    _ = await r.h.control(.patch, "/users/\(id)", ["must_change_password": true])
    let client = try #require(RawClient(port: r.port))
    #expect(await client.upgrade(bearer: access) == 401)
  }

  @Test func webSocketWithoutCredentialsIsHTTP401() async throws {
    let r = try await start()
    defer { r.h.simulator.stop() }
    let client = try #require(RawClient(port: r.port))
    #expect(await client.upgrade(bearer: nil) == 401)
  }

  @Test func slowLaggingSubscriberGetsAFreshFullSync() async throws {
    let r = try await start()
    defer { r.h.simulator.stop() }
    let hub = r.h.simulator.core.hub
    let subscriber = hub.subscribe()
    for index in 0...LiveHub.capacity { hub.broadcast(Data("\(index)".utf8)) }
    let next = await subscriber.next(timeout: 0)
    #expect(next.resync && next.frames.count < LiveHub.capacity)
  }

  @Test func slowClientGets408AndIdleConnectionIsClosed() async throws {
    let h = try Harness { $0.idleTimeout = 0.3 }
    let url = try await h.listen()
    defer { h.simulator.stop() }
    let port = UInt16(url.port ?? 0)
    let slow = try #require(RawClient(port: port))
    slow.send("GET /healthz HTTP/1.1\r\nHost: x\r\n")
    #expect(await slow.response(timeout: 3)?.status == 408)
    let idle = try #require(RawClient(port: port))
    idle.send("GET /healthz HTTP/1.1\r\n\r\n")
    #expect(await idle.response()?.status == 200)
    #expect(await idle.fill(timeout: 3) == false)
  }

  @Test func anUnfinishedHeadGets408AtTheHeadTimeout() async throws {
    // The whole-request and idle limits stay long: only the head timeout can answer.
    let h = try Harness {
      $0.idleTimeout = 60
      $0.requestHeadTimeout = 0.3
    }
    let url = try await h.listen()
    defer { h.simulator.stop() }
    let slow = try #require(RawClient(port: UInt16(url.port ?? 0)))
    slow.send("GET /healthz HTTP/1.1\r\nHost: x\r\n")
    #expect(await slow.response(timeout: 10)?.status == 408)
  }

  @Test func aConnectionOverTheCapDisplacesAnIdleKeepAliveOne() async throws {
    let h = try Harness { $0.maximumConnections = 1 }
    let url = try await h.listen()
    defer { h.simulator.stop() }
    let port = UInt16(url.port ?? 0)
    let first = try #require(RawClient(port: port))
    first.send("GET /healthz HTTP/1.1\r\n\r\n")
    #expect(await first.response()?.status == 200)
    // The first connection is idle now: the cap makes room by closing it, not the newcomer
    // (the transport's HTTPServerTests cover refusals and the order of shedding).
    let second = try #require(RawClient(port: port))
    second.send("GET /healthz HTTP/1.1\r\n\r\n")
    #expect(await second.response()?.status == 200)
    #expect(await first.fill(timeout: 3) == false)
  }

  @Test func stopClosesConnectionsAndFreesThePort() async throws {
    let r = try await start()
    let client = try #require(RawClient(port: r.port))
    client.send("GET /healthz HTTP/1.1\r\n\r\n")
    #expect(await client.response()?.status == 200)
    r.h.simulator.stop()
    #expect(await client.fill(timeout: 2) == false)
    #expect(RawClient(port: r.port) == nil)
  }
}
