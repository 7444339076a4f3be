public import ServerBeeModels

/// The fleet's servers in wire order, stored as a shallow two-level tree of small arrays.
///
/// A snapshot handed to a subscriber shares storage with the live state. Merging one `update`
/// then copies only the path to the server — the root (one reference per 1,024 servers), one
/// branch (at most 64 references) and one leaf (at most 16 servers) — instead of the whole fleet,
/// so publishing a snapshot after every frame costs about the same for 100 servers as for 10,000.
public struct ServerList: RandomAccessCollection, Sendable, Hashable {
  static let leafSize = 16
  static let branchSize = 64
  private static let serversPerBranch = leafSize * branchSize

  private var branches: [[[ServerStatus]]] = []
  /// The number of servers.
  public private(set) var count = 0

  /// An empty list.
  public init() {}

  /// A list holding `servers` in order.
  /// - Parameter servers: The servers.
  public init(_ servers: [ServerStatus]) {
    for server in servers { append(server) }
  }

  /// `0`.
  public var startIndex: Int { 0 }
  /// ``count``.
  public var endIndex: Int { count }

  /// The server at a position.
  /// - Parameter position: A valid index.
  public subscript(position: Int) -> ServerStatus {
    let (branch, leaf, slot) = Self.path(position)
    return branches[branch][leaf][slot]
  }

  /// Changes the server at a position in place, copying at most one path of the tree.
  /// - Parameters:
  ///   - position: A valid index.
  ///   - change: The change.
  mutating func modify(at position: Int, _ change: (inout ServerStatus) -> Void) {
    let (branch, leaf, slot) = Self.path(position)
    change(&branches[branch][leaf][slot])
  }

  /// Appends a server.
  /// - Parameter server: The server.
  mutating func append(_ server: ServerStatus) {
    let (branch, leaf, _) = Self.path(count)
    if branch == branches.count { branches.append([]) }
    if leaf == branches[branch].count {
      var fresh: [ServerStatus] = []
      fresh.reserveCapacity(Self.leafSize)
      fresh.append(server)
      branches[branch].append(fresh)
    } else {
      branches[branch][leaf].append(server)
    }
    count += 1
  }

  private static func path(_ position: Int) -> (branch: Int, leaf: Int, slot: Int) {
    let branch = position / serversPerBranch
    let inBranch = position % serversPerBranch
    return (branch, inBranch / leafSize, inBranch % leafSize)
  }
}
