import ServerBeeCore
import ServerBeeRoutes
import ServerBeeTransport

/// One area of the simulated server: a folder under `App/` whose type lists the
/// area's public routes, its control routes and the migrations of its tables.
///
/// The router makes an area value from the shared ``SimulatorCore`` for each request it routes
/// to the area (a struct holding one reference) and calls the route's handler on it. By then
/// the caller, or the control token, has been checked against the route's ``RouteAccess``.
/// Handlers read and write through ``db`` under the database lock, decode bodies with
/// ``RequestContext/jsonBody()`` (control routes: ``RequestContext/controlBody()``), and answer
/// with ``Reply`` or by throwing ``APIError``.
///
/// What only the area's routes need is a method of the area type. What other areas, the live
/// stream or the outbox workers also call is an extension of ``SimulatorCore`` in the folder of
/// the area that owns the tables it touches (for example `Servers/SimulatorCore+Servers.swift`).
///
/// ```swift
/// struct NotesArea: SimulatorArea {
///   let core: SimulatorCore
///
///   static let routes = [route(RouteCatalogue.Notes.notes, Self.notes)]
///   static let controlRoutes = [control("POST", "__simulator/notes", Self.controlCreateNote)]
///   static let migrations = [
///     Migration(version: 10, ["CREATE TABLE notes (id TEXT PRIMARY KEY, text TEXT NOT NULL)"])
///   ]
///
///   func notes(_ context: RequestContext, _ caller: Caller?) throws -> HTTPResponse { … }
///   func controlCreateNote(_ context: RequestContext) throws -> HTTPResponse { … }
/// }
/// ```
///
/// An area is registered once, in ``SimulatorCore/areas``: the route tables and the schema's
/// migrations are collected from that list.
protocol SimulatorArea: Sendable {
  /// The shared state and helpers.
  var core: SimulatorCore { get }

  /// The area over the shared core.
  init(core: SimulatorCore)

  /// The area's public routes, each under `api/`.
  static var routes: [Route] { get }

  /// The area's control routes, each under `__simulator/` and behind `X-Simulator-Token`.
  static var controlRoutes: [Route] { get }

  /// The migrations of the area's tables, each with its version (`[]` while its tables are all
  /// in ``Schema/baseMigrations``).
  static var migrations: [Migration] { get }
}

// The route builders. A public route is named by its catalogue value (ServerBeeRoutes'
// `RouteCatalogue`), so a handler for a route that is not declared there cannot be written; a
// handler is named by its unapplied method (`Self.login`), and the route makes the area value
// for each request.
extension SimulatorArea {
  /// A catalogue route whose handler gets the request and the caller the router authenticated
  /// (`nil` on a route without a credential).
  static func route<Path, Request, Response>(
    _ api: APIRoute<Path, Request, Response>,
    _ handler: @escaping @Sendable (Self) -> (RequestContext, Caller?) throws -> HTTPResponse
  ) -> Route {
    Route(api.erased) { core, context, caller in
      .response(try handler(Self(core: core))(context, caller))
    }
  }

  /// A catalogue route whose handler may finish its answer after the database lock is
  /// released.
  static func route<Path, Request, Response>(
    _ api: APIRoute<Path, Request, Response>,
    answering handler:
      @escaping @Sendable (Self) -> (RequestContext, Caller?) throws -> RouteAnswer
  ) -> Route {
    Route(api.erased) { core, context, caller in try handler(Self(core: core))(context, caller) }
  }

  /// A catalogue route whose handler is a closure over the area, the request and the caller.
  static func route<Path, Request, Response>(
    _ api: APIRoute<Path, Request, Response>,
    _ handler: @escaping @Sendable (Self, RequestContext, Caller?) throws -> HTTPResponse
  ) -> Route {
    Route(api.erased) { core, context, caller in
      .response(try handler(Self(core: core), context, caller))
    }
  }

  /// A catalogue route the router lets through without checking a credential: a route that
  /// needs none, or one whose handler checks it itself (the encrypted push routes answer a
  /// missing mobile session in their own way).
  static func openRoute<Path, Request, Response>(
    _ api: APIRoute<Path, Request, Response>,
    _ handler: @escaping @Sendable (Self) -> (RequestContext) throws -> HTTPResponse
  ) -> Route {
    Route(api.erased, access: .open) { core, context, _ in
      .response(try handler(Self(core: core))(context))
    }
  }

  /// A control route (`__simulator/...`); the router has checked the control token.
  static func control(
    _ method: String, _ path: String,
    _ handler: @escaping @Sendable (Self) -> (RequestContext) throws -> HTTPResponse
  ) -> Route {
    Route(control: method, path) { core, context, _ in try handler(Self(core: core))(context) }
  }

  /// A control route whose handler is a closure over the area and the request.
  static func control(
    _ method: String, _ path: String,
    _ handler: @escaping @Sendable (Self, RequestContext) throws -> HTTPResponse
  ) -> Route {
    Route(control: method, path) { core, context, _ in try handler(Self(core: core), context) }
  }
}

// The shared state every handler uses, read through the core.
extension SimulatorArea {
  /// The database; every route runs under its lock.
  var db: Database { core.db }

  /// The simulator clock's time in nanoseconds (``SimulatorCore/now``).
  var now: Int64 { core.now }

  /// ``now`` in whole Unix seconds.
  var nowSeconds: Int64 { core.nowSeconds }

  /// The injected randomness.
  var random: RandomBytes { core.random }

  /// The simulator's configuration.
  var settings: Simulator.Configuration { core.settings }

  /// One second in the unit of stored times (nanoseconds).
  static var second: Int64 { SimulatorCore.second }
}
