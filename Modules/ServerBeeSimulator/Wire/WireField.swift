import ServerBeeModels

/// One key of a live-stream server object as ``WireWriter`` writes it, taken from
/// ``MetricField``: the field, the key a current server writes, and what a `nil` becomes.
///
/// The writer's keys, their order and its nulls are the table's: a `full_sync`
/// entry carries every field, in table order, as `ServerStatus.encode(to:)` writes it (its
/// layout holds every field; `WireFieldTests` checks that they agree), so a field added to
/// ``MetricField`` and to the model is written here with no edit but the place its value comes
/// from (``WireWriter/status(_:nowSeconds:)``'s source switch, or ``LiveNumbers/value(_:)``).
struct WireField: Sendable {
  /// The field.
  let field: MetricField
  /// Its canonical key (``MetricField/canonicalKey``), without quotes.
  let key: StaticString
  /// Whether the key opens the object (`{` before it, not `,`).
  let opensObject: Bool
  /// Whether a `nil` is written as `null`; otherwise the key is left out.
  let nullWhenNil: Bool

  /// The keys of a `full_sync` entry (`ServerStatus`, Protocol/LiveStream.md §5), in order.
  ///
  /// From the table itself, not from `ServerStatus.layout.fields` (the same list): building
  /// that layout costs about 1.2 M instructions, once, that the simulator never needs.
  static let status = fields(MetricField.allCases, writingNulls: true)

  /// Where `last_active` is in ``status``: the one value that moves with time, which a
  /// ``ServerFragment`` leaves out and fills in per frame.
  private static let lastActiveIndex: Int = {
    guard let index = status.firstIndex(where: { $0.field == .lastActive }) else {
      preconditionFailure("ServerStatus holds last_active")
    }
    return index
  }()

  /// ``status`` before `last_active`.
  static let statusOpening = Array(status.prefix(upTo: lastActiveIndex))

  /// `last_active` in ``status``, whose value the caller of the status writer writes.
  static let lastActive = status[lastActiveIndex]

  /// ``status`` after `last_active`.
  static let statusClosing = Array(status.suffix(from: lastActiveIndex + 1))

  /// The keys of `fields`, a model's fields in table order; with `writingNulls`, the fields
  /// the table marks (``MetricField/writesNullWhenNil``) write a `nil` as `null`.
  private static func fields(_ fields: [MetricField], writingNulls: Bool) -> [WireField] {
    // The first key is written without a comma, so it must never be left out: an identity.
    precondition(fields.first?.kind == .identity, "a server object starts with its identity")
    // ``WireWriter/key(_:)`` copies the key from its address: a string literal's.
    precondition(fields.allSatisfy { $0.canonicalKey.hasPointerRepresentation })
    return fields.enumerated().map { index, field in
      WireField(
        field: field, key: field.canonicalKey, opensObject: index == 0,
        nullWhenNil: writingNulls && field.writesNullWhenNil)
    }
  }
}
