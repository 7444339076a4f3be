import ServerBeeRoutes

/// Whether a command can run on an API key instead of the mobile session
/// (``CommandDeclaration/apiKeyUse``).
enum APIKeyUse: Sendable, Hashable {
  /// Every route and socket accepts a member's or an admin's credential: a key signs them.
  case accepted
  /// This route (its request line) accepts only a mobile session's token.
  case needsMobileSession(String)
  /// It signs in, signs out or recovers a mobile session (`login`, `pair`, `logout`, …).
  case managesSession
  /// It sends no request (`status`, `help`, `push decrypt`).
  case local
  /// It opens this installation's pushes with its stored content key (`push listen`, `open`),
  /// which belongs to a mobile session's registration, not to a key.
  case needsInstallation
}

/// One command of `serverbee`, declared once: from this value come its parsing, its help, its
/// line in `serverbee --help`, its confirmation and the routes coverage reads.
///
/// Every leaf is a declaration of its own, sub-commands included (`account 2fa enable`); a
/// command that is also a group (`alerts`, `alerts rules`) is a leaf beside its children.
///
/// ```swift
/// CommandDeclaration(
///   "users delete", summary: "delete a user with their sessions and API keys (admins)",
///   arguments: [.required("ID")], options: [.apiKey],
///   discussion: "…", examples: ["serverbee users delete 5f0c…"],
///   routes: [RouteCatalogue.Administration.deleteUser.erased],
///   confirm: { "Delete the user \($0.first ?? "")?" },
///   run: UserCommands.delete)
/// ```
struct CommandDeclaration: Sendable {
  /// The words after `serverbee`, for example `["account", "2fa", "enable"]`.
  let words: [String]
  /// One line for the command list.
  let summary: String
  /// The positional arguments, in order.
  let arguments: [ArgumentSpec]
  /// The options besides the global ones (`--yes` included for destructive commands).
  let options: [OptionSpec]
  /// A longer description for its help.
  let discussion: String
  /// Example invocations for its help.
  let examples: [String]
  /// The HTTP routes its own work sends.
  let routes: [AnyAPIRoute]
  /// The sockets it opens.
  let sockets: [SocketRoute]
  /// Whether it opens the stored session, and so may also send
  /// ``CommandCatalog/sessionHousekeeping`` (token refresh, queued sign-outs, interrupted
  /// sign-ins).
  let opensSession: Bool
  /// Whether it opens this installation's pushes with the stored content key.
  let usesInstallationKeys: Bool
  /// The question asked before a destructive command runs, from its positional arguments;
  /// `nil` for a command that changes nothing irreversible.
  let confirmation: (@Sendable ([String]) -> String)?
  /// Runs the command (arguments already parsed and checked, confirmation given).
  let run: @Sendable (CommandContext) async throws -> Void

  /// Declares a command.
  /// - Parameters:
  ///   - fullName: The words, separated by spaces (`"account 2fa enable"`).
  ///   - summary: One line for the command list.
  ///   - arguments: The positional arguments.
  ///   - options: The options besides the global ones (`--yes` is added when `confirm` is set).
  ///   - discussion: The help's description.
  ///   - examples: Example invocations.
  ///   - routes: The catalogue routes its work sends.
  ///   - sockets: The catalogue sockets it opens.
  ///   - opensSession: Whether it opens the stored session.
  ///   - usesInstallationKeys: Whether it opens this installation's pushes with the stored
  ///     content key (so an API key cannot stand in for the session, whatever its routes).
  ///   - confirm: For a destructive command, the question to ask.
  ///   - run: The function that runs it.
  init(
    _ fullName: String, summary: String, arguments: [ArgumentSpec] = [],
    options: [OptionSpec] = [], discussion: String, examples: [String],
    routes: [AnyAPIRoute] = [], sockets: [SocketRoute] = [], opensSession: Bool = true,
    usesInstallationKeys: Bool = false, confirm: (@Sendable ([String]) -> String)? = nil,
    run: @escaping @Sendable (CommandContext) async throws -> Void
  ) {
    words = fullName.split(separator: " ").map(String.init)
    self.summary = summary
    self.arguments = arguments
    let takesKey =
      !usesInstallationKeys && Self.apiKeyUse(routes: routes, sockets: sockets) == .accepted
    self.options =
      options.filter { $0 != .apiKey } + (takesKey ? [.apiKey] : [])
      + (confirm == nil ? [] : [.yes])
    self.discussion = discussion
    self.examples = examples
    self.routes = routes
    self.sockets = sockets
    self.opensSession = opensSession
    self.usesInstallationKeys = usesInstallationKeys
    confirmation = confirm
    self.run = run
  }

  /// `"account 2fa enable"`.
  var fullName: String { words.joined(separator: " ") }

  /// Whether it asks before running (and takes `--yes`).
  var isDestructive: Bool { confirmation != nil }

  /// The key of every route and socket its own work uses (`"GET /api/alert-rules/{}/states"`).
  var routeKeys: [String] { routes.map(\.key) + sockets.map(\.key) }

  /// ``routeKeys`` and, when it opens the session, the session's housekeeping routes.
  var allRouteKeys: [String] {
    routeKeys + (opensSession ? CommandCatalog.sessionHousekeeping.map(\.key) : [])
  }

  /// The usage after `serverbee`: words, arguments, options.
  var usage: String {
    (words + arguments.map(\.label) + options.map { "[\($0.label)]" }).joined(separator: " ")
  }

  /// How many positional arguments it takes.
  var positionalRange: ClosedRange<Int> {
    let required = arguments.filter { $0.arity == .required }.count
    let variadic = arguments.contains { $0.arity == .variadic }
    return required...(variadic ? Int.max : arguments.count)
  }

  /// Whether an API key can stand in for the mobile session, derived from the credentials of
  /// its routes and sockets (``apiKeyUse(routes:sockets:)``).
  var apiKeyUse: APIKeyUse {
    usesInstallationKeys ? .needsInstallation : Self.apiKeyUse(routes: routes, sockets: sockets)
  }

  /// What the catalogue's credentials say about an API key for these routes: a route of
  /// `RouteCatalogue.Auth` that needs no credential signs in, out or recovers a session (its
  /// body carries its own proof, which a key is not); a route only a mobile session may call
  /// rules a key out; no route at all leaves nothing to sign; otherwise every route takes a
  /// member's or admin's credential, and so a key.
  static func apiKeyUse(routes: [AnyAPIRoute], sockets: [SocketRoute]) -> APIKeyUse {
    let sessionRoutes = RouteCatalogue.Auth.all.filter { $0.credential == .none }
    if routes.contains(where: sessionRoutes.contains) { return .managesSession }
    if let route = routes.first(where: { $0.credential == .mobileSession }) {
      return .needsMobileSession(route.requestLine)
    }
    if routes.isEmpty && sockets.isEmpty { return .local }
    let keyCredentials: Set<RouteCredential> = [.member, .memberUngated, .admin, .none]
    let credentials = routes.map(\.credential) + sockets.map(\.credential)
    return credentials.allSatisfy(keyCredentials.contains)
      ? .accepted : .needsMobileSession(routes.first?.requestLine ?? "")
  }

  /// The one sentence that refuses an API key for this command; `nil` when it takes one.
  var apiKeyRefusal: String? {
    let name = "'\(fullName)'"
    switch apiKeyUse {
    case .accepted:
      return nil
    case .needsMobileSession(let route):
      return "\(name) needs a mobile session: an API key cannot call \(route); sign in with "
        + "'serverbee login' or 'serverbee pair'"
    case .managesSession:
      return "\(name) signs in, out or recovers a mobile session, which an API key is not: it "
        + "takes no API key"
    case .local:
      return "\(name) sends no request an API key could sign: it takes no API key"
    case .needsInstallation:
      return "\(name) opens this installation's pushes with its stored content key, which "
        + "belongs to a mobile session, not to an API key; sign in with 'serverbee login' or "
        + "'serverbee pair'"
    }
  }

  /// The option with that name, its own or a global one.
  func option(named name: String) -> OptionSpec? {
    (options + CommandCatalog.globalOptions).first { $0.name == name }
  }
}
