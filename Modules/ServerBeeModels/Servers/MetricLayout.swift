/// Where each ``MetricField`` lives in a model (`ServerStatus`, `LiveMetrics`): the byte offset of
/// its stored property, found once from a key path and checked against the field's kind.
///
/// It lets one generic routine read, write, decode, encode and merge every field of either
/// model from the ``MetricField`` table, at the cost of a direct store: a key-path write costs
/// about 216 instructions, an offset store about 4 (measured with callgrind on this machine),
/// and the fast reader stores some 35,000 fields per 1,000-server `full_sync`.
///
/// **Safety.** The initialiser refuses (a programming error, caught by the model tests at
/// start) a key path that is not a stored property or whose type is not the one the field's
/// kind names. The typed accessors of ``MetricFieldWriter`` and ``MetricFieldReader`` then read
/// or write exactly that type at that offset, inside `withUnsafe(Mutable)Bytes(of:)`, which is
/// what `MemoryLayout.offset(of:)` documents as valid.
///
/// ```swift
/// static let layout = MetricLayout<LiveMetrics>([(.id, \LiveMetrics.id), (.cpu, \LiveMetrics.cpu)])
/// var metrics = LiveMetrics(id: "", name: "")
/// Self.layout.write(into: &metrics) { $0.setMetric(42.5, .cpu) }
/// ```
package struct MetricLayout<Root>: Sendable {
  /// By `MetricField.rawValue`: the offset of the field's property, or -1 when `Root` has none.
  private let offsets: [Int]
  /// The fields `Root` holds, in table (wire) order.
  package let fields: [MetricField]

  /// Builds a layout; traps when a path is not a stored property of the field's kind.
  /// - Parameter paths: Each held field with the key path of its stored property.
  package init(_ paths: [(MetricField, PartialKeyPath<Root>)]) {
    var offsets = [Int](repeating: -1, count: MetricField.allCases.count)
    for (field, path) in paths {
      precondition(Self.matches(path, field.kind), "\(field): the property has the wrong type")
      guard let offset = MemoryLayout<Root>.offset(of: path) else {
        preconditionFailure("\(field): not a stored property")
      }
      offsets[field.rawValue] = offset
    }
    self.offsets = offsets
    fields = MetricField.allCases.filter { offsets[$0.rawValue] >= 0 }
  }

  private static func matches(_ path: PartialKeyPath<Root>, _ kind: MetricField.Kind) -> Bool {
    switch kind {
    case .identity: path is WritableKeyPath<Root, String>
    case .bool: path is WritableKeyPath<Root, Bool?>
    case .int: path is WritableKeyPath<Root, Int?>
    case .int64, .time: path is WritableKeyPath<Root, Int64?>
    case .metric: path is WritableKeyPath<Root, Double?>
    case .string: path is WritableKeyPath<Root, String?>
    case .strings: path is WritableKeyPath<Root, [String]?>
    case .authority: path is WritableKeyPath<Root, AgentAuthority?>
    case .offer: path is WritableKeyPath<Root, OutstandingOffer?>
    }
  }

  /// Whether `Root` holds `field`.
  package func holds(_ field: MetricField) -> Bool { offsets[field.rawValue] >= 0 }

  /// The byte offset of `field`'s property in `Root`, or `nil` when it has none: for a reader
  /// that resolves its keys to stores once (RealtimeStream's fast reader), then writes inside
  /// `withUnsafeMutableBytes(of:)` exactly the type ``MetricField/kind`` names, as
  /// ``MetricFieldWriter`` does.
  /// - Parameter field: The field.
  /// - Returns: The offset.
  package func offset(of field: MetricField) -> Int? {
    offsets[field.rawValue] >= 0 ? offsets[field.rawValue] : nil
  }

  /// Runs `body` with a writer over `root`'s fields. The writer is valid only inside `body`.
  /// - Parameters:
  ///   - root: The value to write into.
  ///   - body: What to write.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws.
  package func write<Result, Failure: Error>(
    into root: inout Root, _ body: (MetricFieldWriter) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    let offsets = offsets
    return try withUnsafeMutableBytes(of: &root) { (raw) throws(Failure) -> Result in
      try body(MetricFieldWriter(base: raw.baseAddress.unsafelyUnwrapped, offsets: offsets))
    }
  }

  /// Runs `body` with a reader over `root`'s fields. The reader is valid only inside `body`.
  /// - Parameters:
  ///   - root: The value to read.
  ///   - body: What to read.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws.
  package func read<Result, Failure: Error>(
    _ root: Root, _ body: (MetricFieldReader) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    let offsets = offsets
    return try withUnsafeBytes(of: root) { (raw) throws(Failure) -> Result in
      try body(MetricFieldReader(base: raw.baseAddress.unsafelyUnwrapped, offsets: offsets))
    }
  }
}

/// Typed stores into one model value, by ``MetricField``; made by ``MetricLayout/write(into:_:)``.
///
/// Not generic, so a caller in another module calls it directly instead of through generic
/// metadata (the fast frame reader stores about 35,000 fields per `full_sync`). Each setter
/// writes exactly the type its kind names (the layout checked the property), and traps for a
/// field the model does not hold.
package struct MetricFieldWriter {
  /// The model value's first byte.
  package let base: UnsafeMutableRawPointer
  /// By `MetricField.rawValue`: each field's byte offset, -1 when the model has none.
  package let offsets: [Int]

  fileprivate init(base: UnsafeMutableRawPointer, offsets: [Int]) {
    self.base = base
    self.offsets = offsets
  }

  /// Whether the model holds `field`.
  package func holds(_ field: MetricField) -> Bool { offsets[field.rawValue] >= 0 }

  @inline(__always)
  private func slot<Value>(_ field: MetricField, _ type: Value.Type) -> UnsafeMutablePointer<Value>
  {
    let offset = offsets[field.rawValue]
    precondition(offset >= 0, "the model does not hold \(field)")
    return (base + offset).assumingMemoryBound(to: type)
  }

  /// Sets an `.identity` field.
  package func setIdentity(_ value: String, _ f: MetricField) {
    assert(f.kind == .identity)
    slot(f, String.self).pointee = value
  }
  /// Sets a `.bool` field.
  package func setBool(_ value: Bool?, _ f: MetricField) {
    assert(f.kind == .bool)
    slot(f, Bool?.self).pointee = value
  }
  /// Sets an `.int` field.
  package func setInt(_ value: Int?, _ f: MetricField) {
    assert(f.kind == .int)
    slot(f, Int?.self).pointee = value
  }
  /// Sets an `.int64` or `.time` field.
  @inlinable package func setInt64(_ value: Int64?, _ f: MetricField) {
    assert(f.kind == .int64 || f.kind == .time)
    slot(f, Int64?.self).pointee = value
  }
  /// Sets a `.metric` field.
  package func setMetric(_ value: Double?, _ f: MetricField) {
    assert(f.kind == .metric)
    slot(f, Double?.self).pointee = value
  }
  /// Sets a `.string` field.
  package func setString(_ value: String?, _ f: MetricField) {
    assert(f.kind == .string)
    slot(f, String?.self).pointee = value
  }
  /// Sets a `.strings` field.
  package func setStrings(_ value: [String]?, _ f: MetricField) {
    assert(f.kind == .strings)
    slot(f, [String]?.self).pointee = value
  }
  /// Sets an `.authority` field.
  package func setAuthority(_ value: AgentAuthority?, _ f: MetricField) {
    assert(f.kind == .authority)
    slot(f, AgentAuthority?.self).pointee = value
  }
  /// Sets an `.offer` field.
  package func setOffer(_ value: OutstandingOffer?, _ f: MetricField) {
    assert(f.kind == .offer)
    slot(f, OutstandingOffer?.self).pointee = value
  }

  /// Reads back a field (for a merge, which keeps a known capacity over an incoming 0).
  package func int64(_ f: MetricField) -> Int64? {
    assert(f.kind == .int64 || f.kind == .time)
    return slot(f, Int64?.self).pointee
  }
}

/// Typed reads from one model value, by ``MetricField``; made by ``MetricLayout/read(_:_:)``.
package struct MetricFieldReader {
  private let base: UnsafeRawPointer
  private let offsets: [Int]

  fileprivate init(base: UnsafeRawPointer, offsets: [Int]) {
    self.base = base
    self.offsets = offsets
  }

  private func slot<Value>(_ field: MetricField, _ type: Value.Type) -> UnsafePointer<Value> {
    let offset = offsets[field.rawValue]
    precondition(offset >= 0, "the model does not hold \(field)")
    return (base + offset).assumingMemoryBound(to: type)
  }

  /// An `.identity` field.
  package func identity(_ f: MetricField) -> String { slot(f, String.self).pointee }
  /// A `.bool` field.
  package func bool(_ f: MetricField) -> Bool? { slot(f, Bool?.self).pointee }
  /// An `.int` field.
  package func int(_ f: MetricField) -> Int? { slot(f, Int?.self).pointee }
  /// An `.int64` or `.time` field.
  package func int64(_ f: MetricField) -> Int64? { slot(f, Int64?.self).pointee }
  /// A `.metric` field.
  package func metric(_ f: MetricField) -> Double? { slot(f, Double?.self).pointee }
  /// A `.string` field.
  package func string(_ f: MetricField) -> String? { slot(f, String?.self).pointee }
  /// A `.strings` field.
  package func strings(_ f: MetricField) -> [String]? { slot(f, [String]?.self).pointee }
  /// An `.authority` field.
  package func authority(_ f: MetricField) -> AgentAuthority? {
    slot(f, AgentAuthority?.self).pointee
  }
  /// An `.offer` field.
  package func offer(_ f: MetricField) -> OutstandingOffer? {
    slot(f, OutstandingOffer?.self).pointee
  }
}

extension MetricLayout {
  /// Decodes every held field with the table's rules (aliases, absent = `nil`, `null` metric =
  /// `.nan`, lenient time); `.identity` fields are required.
  /// - Parameters:
  ///   - c: The object's container.
  ///   - root: The value to fill.
  /// - Throws: `DecodingError` naming the key, for a missing identity or a wrong type.
  package func decode(_ c: KeyedDecodingContainer<WireKey>, into root: inout Root) throws {
    let fields = fields
    try write(into: &root) { w in
      for f in fields {
        switch f.kind {
        case .identity: w.setIdentity(try c.decode(String.self, forKey: WireKey(f)), f)
        case .bool: w.setBool(try c.decodeField(Bool.self, f), f)
        case .int: w.setInt(try c.decodeField(Int.self, f), f)
        case .int64: w.setInt64(try c.decodeField(Int64.self, f), f)
        case .metric: w.setMetric(try c.decodeMetricField(f), f)
        case .time: w.setInt64(c.decodeTimeField(f), f)
        case .string: w.setString(try c.decodeField(String.self, f), f)
        case .strings: w.setStrings(try c.decodeField([String].self, f), f)
        case .authority: w.setAuthority(try c.decodeField(AgentAuthority.self, f), f)
        case .offer: w.setOffer(try c.decodeField(OutstandingOffer.self, f), f)
        }
      }
    }
  }

  /// Encodes every held field in table order under its canonical key. A `nil` is left out,
  /// except that with `writingNulls` the fields the table marks are written as `null`.
  /// - Parameters:
  ///   - root: The value.
  ///   - c: The object's container.
  ///   - writingNulls: Whether to honour ``MetricField/writesNullWhenNil``.
  /// - Throws: Whatever the encoder throws.
  package func encode(
    _ root: Root, to c: inout KeyedEncodingContainer<WireKey>, writingNulls: Bool
  ) throws {
    let fields = fields
    try read(root) { r in
      for f in fields {
        let key = WireKey(f)
        let null = writingNulls && f.writesNullWhenNil
        switch f.kind {
        case .identity: try c.encode(r.identity(f), forKey: key)
        case .bool: try c.encode(r.bool(f), forKey: key, null: null)
        case .int: try c.encode(r.int(f), forKey: key, null: null)
        case .int64, .time: try c.encode(r.int64(f), forKey: key, null: null)
        case .metric: try c.encode(r.metric(f), forKey: key, null: null)
        case .string: try c.encode(r.string(f), forKey: key, null: null)
        case .strings: try c.encode(r.strings(f), forKey: key, null: null)
        case .authority: try c.encode(r.authority(f), forKey: key, null: null)
        case .offer: try c.encode(r.offer(f), forKey: key, null: null)
        }
      }
    }
  }

  /// Copies into `root` every field that `source` holds and knows (not `nil`), except the
  /// identity; a capacity of 0 never replaces a known one (``MetricField/zeroMeansUnknown``).
  /// - Parameters:
  ///   - source: The incoming partial value.
  ///   - sourceLayout: Its layout.
  ///   - root: The value to update.
  package func merge<Source>(
    _ source: Source, from sourceLayout: MetricLayout<Source>, into root: inout Root
  ) {
    let fields = sourceLayout.fields
    sourceLayout.read(source) { r in
      write(into: &root) { w in
        for f in fields where w.holds(f) {
          switch f.kind {
          case .identity: continue
          case .bool: if let v = r.bool(f) { w.setBool(v, f) }
          case .int: if let v = r.int(f) { w.setInt(v, f) }
          case .int64, .time:
            if f.zeroMeansUnknown {
              w.setInt64(MetricField.mergedCapacity(w.int64(f), r.int64(f)), f)
            } else if let v = r.int64(f) {
              w.setInt64(v, f)
            }
          case .metric: if let v = r.metric(f) { w.setMetric(v, f) }
          case .string: if let v = r.string(f) { w.setString(v, f) }
          case .strings: if let v = r.strings(f) { w.setStrings(v, f) }
          case .authority: if let v = r.authority(f) { w.setAuthority(v, f) }
          case .offer: if let v = r.offer(f) { w.setOffer(v, f) }
          }
        }
      }
    }
  }
}

extension KeyedEncodingContainer {
  /// Writes `value`; a `nil` is written as `null` when `null` is true, else left out.
  fileprivate mutating func encode(
    _ value: (some Encodable)?, forKey key: Key, null: Bool
  ) throws {
    if null { try encode(value, forKey: key) } else { try encodeUnlessNil(value, forKey: key) }
  }
}
