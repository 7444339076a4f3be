import Foundation
import ServerBeeModels

@testable import SecureStore

/// A Keychain in memory with the `SecItem` semantics the store relies on (an item is one
/// service, access group and account; add refuses a duplicate, update and delete refuse a
/// missing item), plus scripted statuses to make a call fail.
final class FakeKeychainItems: KeychainItems {
  struct Item: Hashable {
    var service: String
    var accessGroup: String?
    var account: String
  }

  private struct State {
    var items: [Item: Data] = [:]
    /// Answers for the next calls of one kind, before the real behaviour.
    var scripted: [String: [KeychainStatus]] = [:]
    var calls: [String] = []
    /// What another process writes just before the next add (which then finds a duplicate).
    var racingAdd: Data?
  }
  private let state = Locked(State())

  /// Makes the next calls of `kind` (`copy`, `add`, `update`, `delete`) answer `statuses`.
  func script(_ kind: String, _ statuses: KeychainStatus...) {
    state.withLock { $0.scripted[kind, default: []].append(contentsOf: statuses) }
  }

  /// Makes another process (the notification extension) add the item with `data` just before
  /// the store's next add.
  func raceNextAdd(with data: Data) { state.withLock { $0.racingAdd = data } }

  /// Every item, as the Keychain holds it.
  var items: [Item: Data] { state.withLock { $0.items } }

  /// The calls made, in order (`add`, `update`, …).
  var calls: [String] { state.withLock { $0.calls } }

  private func scripted(_ kind: String) -> KeychainStatus? {
    state.withLock { state in
      state.calls.append(kind)
      guard var queue = state.scripted[kind], !queue.isEmpty else { return nil }
      let next = queue.removeFirst()
      state.scripted[kind] = queue
      return next
    }
  }

  private static func item(_ query: KeychainItemQuery) -> Item {
    Item(service: query.service, accessGroup: query.accessGroup, account: query.account ?? "")
  }

  func copyData(_ query: KeychainItemQuery) -> (KeychainStatus, Data?) {
    if let status = scripted("copy") { return (status, nil) }
    guard let data = state.withLock({ $0.items[Self.item(query)] }) else {
      return (.itemNotFound, nil)
    }
    return (.success, data)
  }

  func copyAccounts(_ query: KeychainItemQuery) -> (KeychainStatus, [String]) {
    if let status = scripted("copy") { return (status, []) }
    let accounts = state.withLock { state in
      state.items.keys.filter {
        $0.service == query.service && $0.accessGroup == query.accessGroup
      }.map(\.account)
    }
    return (accounts.isEmpty ? .itemNotFound : .success, accounts)
  }

  func add(_ query: KeychainItemQuery, data: Data) -> KeychainStatus {
    if let status = scripted("add") { return status }
    return state.withLock { state in
      let item = Self.item(query)
      if let racing = state.racingAdd {
        state.items[item] = racing
        state.racingAdd = nil
      }
      if state.items[item] != nil { return .duplicateItem }
      state.items[item] = data
      return .success
    }
  }

  func update(_ query: KeychainItemQuery, data: Data) -> KeychainStatus {
    if let status = scripted("update") { return status }
    return state.withLock { state in
      let item = Self.item(query)
      guard state.items[item] != nil else { return .itemNotFound }
      state.items[item] = data
      return .success
    }
  }

  func delete(_ query: KeychainItemQuery) -> KeychainStatus {
    if let status = scripted("delete") { return status }
    return state.withLock { state in
      state.items.removeValue(forKey: Self.item(query)) == nil ? .itemNotFound : .success
    }
  }
}
