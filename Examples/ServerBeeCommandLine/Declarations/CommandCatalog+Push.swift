import ServerBeeRoutes

extension CommandCatalog {
  /// Push for servers without encrypted push.
  static let legacyPush: [CommandDeclaration] = [
    CommandDeclaration(
      "push register-legacy", summary: "register an APNs token on a server without encrypted push",
      arguments: [.required("TOKEN")],
      discussion: """
        Registers the device's APNs token (hexadecimal) for direct pushes \
        (POST /api/mobile/push/register), as the app does against a server without the v2 \
        push routes. Those pushes are not end-to-end encrypted, and the server drops the \
        registration at each token refresh. Needs a mobile session; an installation that \
        moved to encrypted push ('serverbee notifications enable') is refused by the server.
        """,
      examples: ["serverbee push register-legacy 5f0c2a1e…"],
      routes: [RouteCatalogue.Push.legacyRegister.erased], run: LegacyPushCommand.run)
  ]
}
