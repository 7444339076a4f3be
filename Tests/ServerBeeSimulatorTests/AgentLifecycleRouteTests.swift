import Foundation
import ServerBeeModels
import ServerBeeTransport
import Testing

@testable import ServerBeeSimulator

/// Adding a server and its agent's lifecycle (Protocol/Agents.md): the replay and conflict of
/// an onboarding request, a code shown once, codes lapsing on the simulator clock, the state
/// machine of the agent's authority with its exact codes and texts, and deleting a server.
@Suite(.timeLimit(.minutes(5))) struct AgentLifecycleRouteTests {
  private struct World {
    let h: Harness
    let admin: String
    let member: String
  }

  private func world() async throws -> World {
    let h = try Harness()
    _ = await h.user("ada")
    _ = await h.user("mo", role: "member")
    let admin = try #require(await h.login("ada", installation: "INST-A").1).access
    let member = try #require(await h.login("mo", installation: "INST-M").1).access
    return World(h: h, admin: admin, member: member)
  }

  private func elements(_ value: JSONValue?) -> [JSONValue] {
    if case .array(let items)? = value { return items }
    return []
  }

  private func post(_ w: World, _ path: String, _ body: String, as token: String? = nil) async
    -> Harness.Reply
  {
    await w.h.send(.post, path, raw: Data(body.utf8), bearer: token ?? w.admin)
  }

  /// Adds a server; its id and first offer.
  private func add(_ w: World, _ requestID: String, name: String = "edge-1") async throws
    -> (server: String, offer: String, code: String)
  {
    let reply = await post(
      w, "/api/servers", #"{"onboarding_request_id":"\#(requestID)","name":"\#(name)"}"#)
    #expect(reply.status == 200, "\(reply.text)")
    let data = try #require(reply.data)
    return (
      try #require(data["server_id"]?.stringValue),
      try #require(data["enrollment"]?["id"]?.stringValue),
      try #require(data["enrollment"]?["code"]?.stringValue)
    )
  }

  @Test func aRepeatedRequestReplaysWithoutTheCodeAndOtherInputConflicts() async throws {
    let w = try await world()
    let first = await post(
      w, "/api/servers", #"{"onboarding_request_id":"req-1","name":"  edge-1 ","tags":["b","a"]}"#)
    #expect(first.status == 200)
    let issue = try #require(first.data?["enrollment"])
    let code = try #require(issue["code"]?.stringValue)
    #expect(code.count == 43)
    #expect(issue["code_prefix"]?.stringValue == String(code.prefix(8)))
    // 1_800_000_000 + 600 s, in the `+00:00` form.
    #expect(issue["expires_at"]?.stringValue == "2027-01-15T08:10:00+00:00")
    #expect(first.data?["replayed"] == .bool(false) && first.data?["outstanding_offer"] == .null)
    let serverID = try #require(first.data?["server_id"]?.stringValue)

    // The same normalized input (trimmed name, tags in any order): the offer, not the code.
    let replay = await post(
      w, "/api/servers", #"{"onboarding_request_id":"req-1","name":"edge-1","tags":["a","b"]}"#)
    #expect(replay.status == 200)
    #expect(replay.data?["server_id"]?.stringValue == serverID)
    #expect(replay.data?["replayed"] == .bool(true) && replay.data?["enrollment"] == .null)
    #expect(replay.data?["outstanding_offer"]?["id"] == issue["id"])
    #expect(replay.data?["outstanding_offer"]?["code_prefix"] == issue["code_prefix"])
    #expect(!replay.text.contains(code))

    let conflict = await post(
      w, "/api/servers", #"{"onboarding_request_id":"req-1","name":"edge-2"}"#)
    #expect(conflict.status == 409)
    #expect(conflict.code == "ONBOARDING_IDEMPOTENCY_CONFLICT")
    #expect(conflict.message == "onboarding_request_id was already used with different input")

    // Another user's request id is its own.
    _ = await w.h.user("bo")
    let other = try #require(await w.h.login("bo", installation: "INST-B").1).access
    let theirs = await post(
      w, "/api/servers", #"{"onboarding_request_id":"req-1","name":"edge-2"}"#, as: other)
    #expect(theirs.status == 200 && theirs.data?["replayed"] == .bool(false))
    #expect(theirs.data?["server_id"]?.stringValue != serverID)

    // The new server is in the list, unclaimed, offline.
    let list = await w.h.send(.get, "/api/servers", bearer: w.member)
    let names = elements(list.data).compactMap { $0["name"]?.stringValue }
    #expect(names.contains("edge-1") && names.contains("edge-2"))
  }

  @Test func eachCreateCheckAnswersItsOwnText() async throws {
    let w = try await world()
    let cases: [(String, String)] = [
      (
        #"{"onboarding_request_id":"has space","name":"a"}"#,
        "Bad request: onboarding request id must be 1-128 non-whitespace characters"
      ),
      (
        #"{"onboarding_request_id":"","name":"a"}"#,
        "Bad request: onboarding request id must be 1-128 non-whitespace characters"
      ),
      (
        #"{"onboarding_request_id":"r","name":"a","ttl_secs":0}"#,
        "Bad request: offer ttl must be between 1 and 86400 seconds"
      ),
      (#"{"onboarding_request_id":"r","name":"   "}"#, "Bad request: name is required"),
      (
        #"{"onboarding_request_id":"r","name":"a","price":-1}"#,
        "Bad request: price must be finite and greater than or equal to 0"
      ),
      (
        #"{"onboarding_request_id":"r","name":"a","billing_cycle":"weekly"}"#,
        "Bad request: billing_cycle must be monthly, quarterly, or yearly"
      ),
      (
        #"{"onboarding_request_id":"r","name":"a","traffic_limit_type":"both"}"#,
        "Bad request: traffic_limit_type must be sum, up, or down"
      ),
      (
        #"{"onboarding_request_id":"r","name":"a","billing_start_day":29}"#,
        "Bad request: billing_start_day must be between 1 and 28"
      ),
    ]
    for (body, message) in cases {
      let reply = await post(w, "/api/servers", body)
      #expect(reply.status == 400, "\(body)")
      #expect(reply.code == "BAD_REQUEST" && reply.message == message, "\(body): \(reply.text)")
    }
    let member = await post(
      w, "/api/servers", #"{"onboarding_request_id":"r","name":"a"}"#, as: w.member)
    #expect(member.status == 403)
  }

  @Test func anOpenCodeBlocksAnotherAndIsNamedInTheDetails() async throws {
    let w = try await world()
    let (server, offer, _) = try await add(w, "req-open")
    let again = await post(w, "/api/servers/\(server)/agent-authority/offers", "{}")
    #expect(again.status == 409 && again.code == "ENROLLMENT_OFFER_OUTSTANDING")
    #expect(again.message == "an Outstanding enrollment offer already exists")
    let details = try #require(again.json?["error"]?["details"]?["current_offer"])
    #expect(details["id"]?.stringValue == offer)
    #expect(details["created_at"]?.stringValue == "2027-01-15T08:00:00+00:00")

    // The SDK reads the same object from the failure.
    let failure = APIFailure(status: again.status, body: again.body)
    #expect(failure.code == .enrollmentOfferOutstanding)
    #expect(failure.currentOffer?.id == offer)

    let missing = await post(w, "/api/servers/nope/agent-authority/offers", "{}")
    #expect(missing.status == 404 && missing.message == "Not found: server not found")
    let badTTL = await post(
      w, "/api/servers/\(server)/agent-authority/offers", #"{"ttl_secs":86401}"#)
    #expect(badTTL.message == "Bad request: offer ttl must be between 1 and 86400 seconds")
  }

  @Test func codesLapseOnTheSimulatorClock() async throws {
    let w = try await world()
    let (server, offer, _) = try await add(w, "req-lapse")
    w.h.clock.advance(by: 601)
    // A lapsed offer is no longer open: a new code may be issued, and replacing the old one
    // finds it expired.
    let replaced = await post(
      w, "/api/servers/\(server)/agent-authority/offers/\(offer)/replace", "{}")
    #expect(replaced.status == 409 && replaced.code == "ENROLLMENT_OFFER_TERMINAL")
    #expect(replaced.message == "enrollment offer is already expired")
    #expect(replaced.json?["error"]?["details"] == nil)
    let issued = await post(
      w, "/api/servers/\(server)/agent-authority/offers", #"{"ttl_secs":60}"#)
    #expect(issued.status == 200)
    #expect(issued.data?["enrollment"]?["expires_at"]?.stringValue == "2027-01-15T08:11:01+00:00")
    let replay = await post(
      w, "/api/servers", #"{"onboarding_request_id":"req-lapse","name":"edge-1"}"#)
    #expect(replay.data?["outstanding_offer"]?["id"] == issued.data?["enrollment"]?["id"])
  }

  @Test func replacingAndRevokingFollowTheOffersOutcome() async throws {
    let w = try await world()
    let (server, offer, code) = try await add(w, "req-replace")
    let base = "/api/servers/\(server)/agent-authority/offers"
    let replaced = await post(w, "\(base)/\(offer)/replace", "{}")
    #expect(replaced.status == 200)
    let fresh = try #require(replaced.data?["enrollment"]?["id"]?.stringValue)
    let freshCode = try #require(replaced.data?["enrollment"]?["code"]?.stringValue)
    #expect(fresh != offer && freshCode != code)

    let stale = await post(w, "\(base)/\(offer)/replace", "{}")
    #expect(stale.status == 409 && stale.message == "enrollment offer is already replaced")
    #expect(
      stale.json?["error"]?["details"]?["current_offer"]?["id"]?.stringValue == fresh)

    let revoke = await w.h.send(.delete, "\(base)/\(fresh)", bearer: w.admin)
    #expect(revoke.status == 200)
    #expect(revoke.data?["offer_id"]?.stringValue == fresh)
    #expect(revoke.data?["already_revoked"] == .bool(false))
    let twice = await w.h.send(.delete, "\(base)/\(fresh)", bearer: w.admin)
    #expect(twice.data?["already_revoked"] == .bool(true))
    let ended = await w.h.send(.delete, "\(base)/\(offer)", bearer: w.admin)
    #expect(ended.status == 409 && ended.code == "ENROLLMENT_OFFER_TERMINAL")
    #expect(ended.message == "enrollment offer is already replaced")

    // Another server's offer is not found under this one.
    let (other, _, _) = try await add(w, "req-other", name: "edge-2")
    let foreign = await w.h.send(
      .delete, "/api/servers/\(other)/agent-authority/offers/\(fresh)", bearer: w.admin)
    #expect(foreign.status == 404 && foreign.message == "Not found: enrollment offer not found")
  }

  @Test func theAgentsAuthorityMovesThroughItsStates() async throws {
    let w = try await world()
    let (server, _, code) = try await add(w, "req-states")
    let authority = "/api/servers/\(server)/agent-authority"

    // Unclaimed: re-enrolment is refused.
    let unclaimed = await post(w, "\(authority)/re-enrollment", #"{"mode":"graceful"}"#)
    #expect(unclaimed.status == 409 && unclaimed.code == "AGENT_AUTHORITY_UNCLAIMED")
    #expect(unclaimed.message == "server authority is Unclaimed; issue an offer instead")

    // The agent uses its code: claimed and online; a new code is refused.
    let wrong = await w.h.control(.post, "/servers/\(server)/enroll", ["code": "x"])
    #expect(wrong?["error"] != nil)
    _ = await w.h.control(.post, "/servers/\(server)/enroll", ["code": code])
    let claimed = await post(w, "\(authority)/offers", "{}")
    #expect(claimed.status == 409 && claimed.code == "AGENT_AUTHORITY_ALREADY_CLAIMED")
    #expect(claimed.message == "server authority is already claimed; begin re-enrollment instead")

    // Graceful: still claimed with an open offer, so a second re-enrolment is refused.
    let graceful = await post(w, "\(authority)/re-enrollment", #"{"mode":"graceful"}"#)
    #expect(graceful.status == 200)
    let second = await post(w, "\(authority)/re-enrollment", #"{"mode":"emergency"}"#)
    #expect(second.code == "ENROLLMENT_OFFER_OUTSTANDING")

    // Revoking the agent ends the offer and the claim; twice changes nothing.
    let revoked = await w.h.send(.delete, authority, bearer: w.admin)
    #expect(revoked.data?["server_id"]?.stringValue == server)
    #expect(revoked.data?["changed"] == .bool(true))
    let again = await w.h.send(.delete, authority, bearer: w.admin)
    #expect(again.data?["changed"] == .bool(false))

    // Emergency on a claimed server: unclaimed at once, so a plain offer is fine after.
    let seeded = try #require(
      await w.h.control(.post, "/servers", ["name": "vps-a"])?["data"]?["id"]?.stringValue)
    let emergency = await post(
      w, "/api/servers/\(seeded)/agent-authority/re-enrollment", #"{"mode":"emergency"}"#)
    #expect(emergency.status == 200)
    let offerID = try #require(emergency.data?["enrollment"]?["id"]?.stringValue)
    _ = await w.h.send(
      .delete, "/api/servers/\(seeded)/agent-authority/offers/\(offerID)", bearer: w.admin)
    let afterEmergency = await post(w, "/api/servers/\(seeded)/agent-authority/offers", "{}")
    #expect(afterEmergency.status == 200)

    let badMode = await post(w, "\(authority)/re-enrollment", #"{"mode":"later"}"#)
    #expect(badMode.status == 422)
  }

  @Test func deletingAServerRemovesItEverywhere() async throws {
    let w = try await world()
    _ = try await add(w, "req-keep", name: "edge-keep")
    let (server, _, _) = try await add(w, "req-delete")
    let deleted = await w.h.send(.delete, "/api/servers/\(server)", bearer: w.admin)
    #expect(deleted.status == 200 && deleted.data?.stringValue == "ok")
    let list = await w.h.send(.get, "/api/servers", bearer: w.admin)
    #expect(!elements(list.data).isEmpty)
    #expect(!elements(list.data).contains { $0["id"]?.stringValue == server })
    let frame = try w.h.simulator.core.fullSync()
    #expect(!frame.contains(server))
    let missing = await w.h.send(.delete, "/api/servers/\(server)", bearer: w.admin)
    #expect(missing.status == 404 && missing.message == "Not found: server not found")
    // Its request id starts over.
    let again = await post(
      w, "/api/servers", #"{"onboarding_request_id":"req-delete","name":"edge-1"}"#)
    #expect(again.data?["replayed"] == .bool(false))
    #expect(again.data?["server_id"]?.stringValue != server)
  }

  @Test func theLatestVersionIsAlwaysAnswered() async throws {
    let w = try await world()
    let reply = await w.h.send(.get, "/api/agent/latest-version", bearer: w.member)
    #expect(reply.status == 200)
    #expect(reply.data?["version"]?.stringValue == "1.5.0")
    #expect(reply.data?["error"] == .null)
  }

  @Test func theListsShowEachServersAuthorityAndAnOfferLapsesOnTheClock() async throws {
    let w = try await world()
    let subscriber = w.h.simulator.core.hub.subscribe()
    let reply = await post(
      w, "/api/servers", #"{"onboarding_request_id":"req-list","name":"edge-1","ttl_secs":60}"#)
    let server = try #require(reply.data?["server_id"]?.stringValue)
    let issued = try #require(reply.data?["enrollment"])
    func entry() async throws -> JSONValue {
      let list = await w.h.send(.get, "/api/servers", bearer: w.member)
      return try #require(elements(list.data).first { $0["id"]?.stringValue == server })
    }

    // Unclaimed with its open offer, in the list, the detail and `full_sync` alike.
    let listed = try await entry()
    let offer = try #require(listed["outstanding_enrollment"])
    #expect(offer["id"] == issued["id"] && offer["code_prefix"] == issued["code_prefix"])
    #expect(offer["expires_at"]?.stringValue == "2027-01-15T08:01:00+00:00")
    #expect(offer["created_at"]?.stringValue == "2027-01-15T08:00:00+00:00")
    #expect(listed["agent_authority"]?["status"]?.stringValue == "unclaimed")
    #expect(listed["agent_authority"]?["outstanding_offer"] == offer)
    #expect(listed["has_token"] == .bool(false))
    #expect(
      !(await w.h.send(.get, "/api/servers", bearer: w.member)).text.contains(
        try #require(issued["code"]?.stringValue)))
    let detail = await w.h.send(.get, "/api/servers/\(server)", bearer: w.member)
    #expect(detail.data?["outstanding_enrollment"] == offer)
    let frame = try WireJSON.decode(
      LiveStreamMessage.self, from: Data(try w.h.simulator.core.fullSync().utf8))
    guard case .fullSync(let sync) = frame else {
      Issue.record("not a full_sync: \(frame)")
      return
    }
    let status = try #require(sync.servers.first { $0.id == server })
    #expect(status.agentAuthority?.status == .unclaimed && status.hasToken == false)
    #expect(status.outstandingEnrollment?.id == issued["id"]?.stringValue)
    // A seeded server is claimed with none.
    let seeded = try #require(
      await w.h.control(.post, "/servers", ["name": "vps-a"])?["data"]?["id"]?.stringValue)
    let seededEntry = try #require(
      elements((await w.h.send(.get, "/api/servers", bearer: w.member)).data)
        .first { $0["id"]?.stringValue == seeded })
    #expect(seededEntry["has_token"] == .bool(true))
    #expect(seededEntry["agent_authority"]?["status"]?.stringValue == "claimed")
    #expect(seededEntry["outstanding_enrollment"] == .null)

    // Past its 60 s the offer lapses: gone from the list, announced, and ended as `expired`.
    _ = await subscriber.next(timeout: 0.1)
    w.h.clock.advance(by: 61)
    let lapsed = try await entry()
    #expect(lapsed["outstanding_enrollment"] == .null)
    #expect(lapsed["agent_authority"]?["outstanding_offer"] == .null)
    let frames = try await subscriber.next(timeout: 1).frames.map {
      try WireJSON.decode(LiveStreamMessage.self, from: $0)
    }
    #expect(
      frames.contains {
        if case .agentAuthorityChanged(let change) = $0 {
          return change.serverID == server && change.agentAuthority.outstandingOffer == nil
        }
        return false
      }, "\(frames)")
    let offerID = try #require(issued["id"]?.stringValue)
    let replace = await post(
      w, "/api/servers/\(server)/agent-authority/offers/\(offerID)/replace", "{}")
    #expect(replace.status == 409 && replace.code == "ENROLLMENT_OFFER_TERMINAL")
    #expect(replace.message == "enrollment offer is already expired")

    // A new code; the agent uses it: claimed, with none open.
    let fresh = await post(w, "/api/servers/\(server)/agent-authority/offers", "{}")
    let code = try #require(fresh.data?["enrollment"]?["code"]?.stringValue)
    #expect(try await entry()["outstanding_enrollment"]?["id"] == fresh.data?["enrollment"]?["id"])
    _ = await w.h.control(.post, "/servers/\(server)/enroll", ["code": code])
    let claimed = try await entry()
    #expect(claimed["has_token"] == .bool(true))
    #expect(claimed["agent_authority"]?["status"]?.stringValue == "claimed")
    #expect(claimed["outstanding_enrollment"] == .null)
  }

  @Test func eachAuthorityChangeIsBroadcastOnTheLiveStream() async throws {
    let w = try await world()
    let subscriber = w.h.simulator.core.hub.subscribe()
    let (server, offer, _) = try await add(w, "req-live")
    _ = await w.h.send(
      .delete, "/api/servers/\(server)/agent-authority/offers/\(offer)", bearer: w.admin)
    let result = await subscriber.next(timeout: 5)
    let frames = try result.frames.map { try WireJSON.decode(LiveStreamMessage.self, from: $0) }
    var changes: [AgentAuthorityChange] = []
    for frame in frames {
      if case .agentAuthorityChanged(let change) = frame { changes.append(change) }
    }
    #expect(changes.count == 2, "\(frames)")
    #expect(changes.allSatisfy { $0.serverID == server && $0.agentAuthority.status == .unclaimed })
    // Added with its first offer open; then revoked, none.
    #expect(changes.first?.agentAuthority.outstandingOffer?.id == offer)
    #expect(changes.last?.agentAuthority.outstandingOffer == nil)
  }
}
