import DeepLinkValidation
import Foundation
import PushEnvelopeCrypto
import ServerBeeAPI
import ServerBeeModels
import ServerBeeTransport
import Testing

/// Step 2 of Protocol/Push.md §7: loaded answers → destination or a typed reason.
@Suite struct TapValidatorLoadTests {
  /// Runs the pure steps with scripted answers, checking the requests asked for.
  static func run(
    _ target: PushTapTarget, identity: SessionIdentity, expecting requests: [TapRequest],
    answer: (TapRequest, inout TapAnswers) -> Void
  ) -> TapOutcome? {
    var answers = TapAnswers()
    var asked: [TapRequest] = []
    for _ in 0..<10 {
      switch TapValidator.next(for: target, identity: identity, answers: answers) {
      case .finish(let outcome):
        #expect(asked == requests)
        return outcome
      case .request(let request):
        asked.append(request)
        answer(request, &answers)
      }
    }
    Issue.record("the validator never finished")
    return nil
  }

  @Test func testGoesHomeWithoutAnyRequest() throws {
    let outcome = Self.run(.home, identity: try Fix.identity(), expecting: []) { _, _ in }
    #expect(outcome == .open(.home))
  }

  // MARK: Alerts

  struct AlertCase: CustomTestStringConvertible, Sendable {
    let name: String
    let answer: Result<AlertEventDetail, ServerBeeAPIError>
    let opens: Bool
    var testDescription: String { name }
  }

  static let alertCases: [AlertCase] = [
    AlertCase(name: "200 with the same key", answer: .success(Fix.detail()), opens: true),
    AlertCase(
      name: "deleted or re-armed (404)", answer: .failure(Fix.failure(.notFound, status: 404)),
      opens: false),
    AlertCase(name: "403", answer: .failure(Fix.failure(.forbidden, status: 403)), opens: false),
    AlertCase(name: "500", answer: .failure(Fix.failure(.server, status: 500)), opens: false),
    AlertCase(name: "v1 server (400)", answer: .failure(Fix.failure(.serverTooOld)), opens: false),
    AlertCase(name: "transport", answer: .failure(Fix.failure(.transport)), opens: false),
    AlertCase(
      name: "200 for another key (a new cycle)",
      answer: .success(
        Fix.detail(key: "v1.WyJydWxlLTEiLCJzZXJ2ZXItMSIsIiIsIjIwMzMtMDUtMThUMDQ6MDA6MDArMDA6MDAiXQ")
      ),
      opens: false),
    AlertCase(
      name: "200 for another rule", answer: .success(Fix.detail(rule: "rule-2")), opens: false),
    AlertCase(
      name: "200 for another server", answer: .success(Fix.detail(server: "server-2")), opens: false
    ),
  ]

  @Test(arguments: alertCases)
  func alertOpensOnlyItsOwnCycle(_ form: AlertCase) throws {
    let key = try Fix.alertKey
    let outcome = Self.run(
      .alertDetail(alertKey: key), identity: try Fix.identity(), expecting: [.alertEvent(key)]
    ) { _, answers in answers.alertEvent = form.answer }
    if form.opens {
      #expect(outcome == .open(.alertDetail(Fix.detail())))
    } else {
      #expect(outcome == .unavailable(.alertNotFound))
      #expect(TapUnavailableReason.alertNotFound.fallback.title == "Alert not found")
      #expect(TapUnavailableReason.alertNotFound.fallback.actionTitle == "Back to alerts")
    }
  }

  // MARK: Task runs

  struct TaskCase: CustomTestStringConvertible, Sendable {
    let name: String
    let answer: Result<[TaskResult], ServerBeeAPIError>
    let opens: Bool
    var testDescription: String { name }
  }

  static let taskCases: [TaskCase] = [
    TaskCase(
      name: "every row of the run", answer: .success([Fix.row(id: 1), Fix.row(id: 2)]), opens: true),
    TaskCase(
      name: "a row of another run",
      answer: .success([Fix.row(id: 1), Fix.row(id: 2, run: "other")]),
      opens: false),
    TaskCase(name: "a row without a run", answer: .success([Fix.row(run: nil)]), opens: false),
    TaskCase(name: "a row of another task", answer: .success([Fix.row(task: "t-2")]), opens: false),
    TaskCase(
      name: "deleted task or unknown run (404)", answer: .failure(Fix.failure(.notFound)),
      opens: false),
    TaskCase(
      name: "lost permission (403)", answer: .failure(Fix.failure(.forbidden)), opens: false),
    TaskCase(
      name: "v1 server ignoring run_id", answer: .failure(Fix.failure(.serverTooOld)), opens: false),
  ]

  @Test(arguments: taskCases)
  func taskRunOpensOnlyRowsOfItsRun(_ form: TaskCase) throws {
    let target = PushTapTarget.taskRun(taskID: Fix.taskID, runID: Fix.runID)
    let outcome = Self.run(
      target, identity: try Fix.identity(),
      expecting: [.taskResults(taskID: Fix.taskID, runID: Fix.runID)]
    ) { _, answers in answers.taskResults = form.answer }
    if form.opens, case .success(let rows) = form.answer {
      #expect(
        outcome == .open(.taskRunResults(taskID: Fix.taskID, runID: Fix.runID, results: rows)))
    } else {
      #expect(outcome == .unavailable(.taskRunUnavailable))
      #expect(TapUnavailableReason.taskRunUnavailable.fallback == .unavailable)
    }
  }

  @Test func taskRunNeedsAnAdminBeforeAnyRequest() throws {
    let target = PushTapTarget.taskRun(taskID: Fix.taskID, runID: Fix.runID)
    let outcome = Self.run(target, identity: try Fix.identity(role: .member), expecting: []) {
      _, _ in
    }
    #expect(outcome == .unavailable(.notAdmin))
  }

  // MARK: Security events

  /// What goes wrong in the security chain, and where the chain stops.
  enum SecurityFault: String, CaseIterable, Sendable {
    case none, memberLocally, meFails, meOtherUser, meMember, serverMissing, serverOtherID
    case eventMissing, eventOtherServer, eventOtherID, recheckFails, recheckDemoted
    case recheckOtherUser
  }

  @Test(arguments: SecurityFault.allCases)
  func securityWalksMeServerEventMe(_ fault: SecurityFault) throws {
    let identity = try Fix.identity(role: fault == .memberLocally ? .member : .admin)
    let target = PushTapTarget.securityEvent(serverID: Fix.serverID, eventID: Fix.securityEventID)
    let full: [TapRequest] = [
      .currentUser, .server(id: Fix.serverID), .securityEvent(id: Fix.securityEventID),
      .currentUserRecheck,
    ]
    let (asked, expected): (Int, TapOutcome) =
      switch fault {
      case .none: (4, .open(.securityEvent(Fix.event())))
      case .memberLocally: (0, .unavailable(.notAdmin))
      case .meFails: (1, .unavailable(.securityEventUnavailable))
      case .meOtherUser, .meMember: (1, .unavailable(.notAdmin))
      case .serverMissing, .serverOtherID: (2, .unavailable(.securityEventUnavailable))
      case .eventMissing, .eventOtherServer, .eventOtherID:
        (3, .unavailable(.securityEventUnavailable))
      case .recheckFails: (4, .unavailable(.securityEventUnavailable))
      case .recheckDemoted, .recheckOtherUser: (4, .unavailable(.notAdmin))
      }
    let outcome = Self.run(target, identity: identity, expecting: Array(full.prefix(asked))) {
      request, answers in
      switch request {
      case .currentUser:
        answers.currentUser =
          switch fault {
          case .meFails: .failure(Fix.failure(.unauthorized))
          case .meOtherUser: .success(Fix.me(identity, id: "user-bob"))
          case .meMember: .success(Fix.me(identity, role: .member))
          default: .success(Fix.me(identity))
          }
      case .server:
        answers.server =
          switch fault {
          case .serverMissing: .failure(Fix.failure(.notFound))
          case .serverOtherID: .success(Fix.server(id: "other"))
          default: .success(Fix.server())
          }
      case .securityEvent:
        answers.securityEvent =
          switch fault {
          case .eventMissing: .failure(Fix.failure(.notFound))
          case .eventOtherServer: .success(Fix.event(server: "other"))
          case .eventOtherID: .success(Fix.event(id: "other"))
          default: .success(Fix.event())
          }
      case .currentUserRecheck:
        answers.currentUserRecheck =
          switch fault {
          case .recheckFails: .failure(Fix.failure(.forbidden))
          case .recheckDemoted: .success(Fix.me(identity, role: .member))
          case .recheckOtherUser: .success(Fix.me(identity, id: "user-bob"))
          default: .success(Fix.me(identity))
          }
      default:
        Issue.record("unexpected request \(request)")
      }
    }
    #expect(outcome == expected)
  }

  @Test func fallbacksOfEveryReason() {
    let none: [TapUnavailableReason] = [
      .noEnvelope, .malformedEnvelope, .legacyOnly, .signedOut, .noKey, .otherScope, .otherServer,
      .otherUser, .otherInstallation, .decryptFailed(.expired), .accountChanged, .cancelled,
    ]
    for reason in none {
      #expect(reason.fallback == .noNavigation)
      #expect(reason.fallback.title == nil)
    }
    for reason: TapUnavailableReason in [.taskRunUnavailable, .securityEventUnavailable, .notAdmin]
    {
      #expect(reason.fallback == .unavailable)
      #expect(reason.fallback.actionTitle == "Dismiss")
    }
  }
}
