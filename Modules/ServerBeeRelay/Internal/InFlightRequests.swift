import Foundation
import ServerBeeModels
import ServerBeeServerKit

/// The requests in flight for Protocol/Relay.md's cap (``RelayServer/Limits/maximumInFlight``,
/// 503 `RelayBusy` over it), counted as the Worker counts them: from the moment a request's
/// head is in until it is answered, so an upload still arriving holds a slot.
///
/// Counting uploads would let slow clients hold every slot (slowloris, decision 0006), so at
/// the cap a new request displaces the upload that has been arriving the longest, once it has
/// been at it for the grace period (it gets 408 `RequestTimeout`, as a shed connection does);
/// only when every slot holds a request being handled, or an upload still inside its grace
/// period, is the new one `RelayBusy`. See decision 0009.
final class InFlightRequests: Sendable {
  private struct Entry {
    /// The connection while the body is still arriving; `nil` for a complete request.
    var upload: HTTPServerConnection?
    var since: ContinuousClock.Instant
  }

  private struct State {
    var entries: [Int: Entry] = [:]
    var nextID = 0
  }

  private let state = Locked(State())
  let maximum: Int
  let grace: Duration

  init(maximum: Int, grace: Duration) {
    self.maximum = maximum
    self.grace = grace
  }

  var count: Int { state.withLock { $0.entries.count } }

  /// Takes a slot, displacing an old upload when all are taken; `nil` when none may be.
  /// - Parameters:
  ///   - upload: The connection whose body is still arriving, or `nil` for a complete request.
  ///   - shed: Called with the number of uploads cut off (0 or 1), for the log.
  /// - Returns: The ticket that frees the slot, or `nil` (→ 503 `RelayBusy`).
  func enter(upload: HTTPServerConnection?, shed: (Int) -> Void = { _ in }) -> HTTPRequestTicket? {
    let now = ContinuousClock.now
    var cut = 0
    let id = state.withLock { state -> Int? in
      if state.entries.count >= maximum {
        // Oldest first; the connection refuses when its body completed meanwhile. Its lock is
        // taken inside this one, never the other way round (tickets end outside both).
        let candidates = state.entries.compactMap {
          id, entry -> (Int, HTTPServerConnection, ContinuousClock.Instant)? in
          guard let upload = entry.upload, now - entry.since >= grace else { return nil }
          return (id, upload, entry.since)
        }.sorted { $0.2 < $1.2 }
        for (victim, connection, _) in candidates {
          if connection.shed() {
            state.entries[victim] = nil
            cut = 1
            break
          }
          // Complete now: no longer an upload.
          state.entries[victim]?.upload = nil
        }
        guard state.entries.count < maximum else { return nil }
      }
      state.nextID += 1
      state.entries[state.nextID] = Entry(upload: upload, since: now)
      return state.nextID
    }
    shed(cut)
    guard let id else { return nil }
    return HTTPRequestTicket { [weak self] in
      self?.state.withLock { _ = $0.entries.removeValue(forKey: id) }
    }
  }
}
