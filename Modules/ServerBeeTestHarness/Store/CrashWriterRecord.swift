package import SecureStore

/// The record SecureStore's crash test writes from a child process and checks afterwards.
///
/// Its filler is derived from key and generation, so a torn value, or a value of one generation
/// under another's key, does not equal `CrashWriterRecord(key:generation:)`.
package struct CrashWriterRecord: Codable, Equatable, Sendable {
  /// The keys the writer commits together, in one batch per generation.
  package static let keys = (0..<8).map { CredentialKey("crash.k\($0)") }

  /// The key name the record was written under.
  package var key: String
  /// The loop iteration that wrote it.
  package var generation: Int
  /// Content derived from `key` and `generation`, 200 to 2,000 bytes.
  package var filler: String

  /// The record for one key and generation.
  /// - Parameters:
  ///   - key: The key name.
  ///   - generation: The loop iteration.
  package init(key: String, generation: Int) {
    self.key = key
    self.generation = generation
    // Sizes vary between generations so that rows move between pages.
    filler = String(repeating: "\(key):\(generation);", count: 20 + (generation % 7) * 40)
  }
}
