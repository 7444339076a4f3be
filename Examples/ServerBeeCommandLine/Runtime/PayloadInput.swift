import Foundation
import PushEnvelopeCrypto
import ServerBeeModels

/// Reads the APNs payload that `push decrypt` and `open` take: a file, or `-` for stdin.
///
/// The read is bounded: at most ``readLimit`` bytes are taken, in chunks of ``chunkSize``, and a
/// longer input is refused without reading on. Reading everything first let `push decrypt -`
/// of 512 MiB grow to 554 MB resident and `serverbee open /dev/zero` to 2.1 GB before the SDK's
/// own size check ever ran.
enum PayloadInput {
  /// The largest payload the SDK opens: `PushEnvelopeOpener.maximumPayloadSize` (8192 bytes).
  static let maximumSize = PushEnvelopeOpener.maximumPayloadSize
  /// How much more than ``maximumSize`` is still read and handed on: room for a trailing newline
  /// or an editor's whitespace, so that a payload near the cap gets the SDK's own answer.
  static let margin = 1024
  /// The most bytes read from any source.
  static var readLimit: Int { maximumSize + margin }
  /// The size of one read.
  static let chunkSize = 4096

  /// The payload bytes of `source`.
  /// - Parameter source: A file path (a regular file, a device or a pipe), or `-` for stdin.
  /// - Returns: The bytes, as they are (the SDK decides whether they are usable).
  /// - Throws: ``CommandLineError``: `.usage` when the file cannot be read, `.payloadTooLarge`
  ///   when it holds more than ``readLimit`` bytes.
  static func read(_ source: String) throws -> Data {
    if source == "-" { return try read(from: FileHandle.standardInput, named: "standard input") }
    let handle: FileHandle
    do {
      // A handle, not Data(contentsOf:), so devices and pipes (/dev/stdin, <(…)) read too.
      handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: source))
    } catch {
      throw CommandLineError(.usage, "cannot read '\(source)'")
    }
    defer { try? handle.close() }
    return try read(from: handle, named: "'\(source)'")
  }

  /// Reads at most `limit` bytes from `handle`, refusing a longer input after `limit + 1` bytes.
  /// - Parameters:
  ///   - handle: An open handle; it is not closed.
  ///   - name: How the source is named in an error (`'file'`, `standard input`).
  ///   - limit: The most bytes accepted.
  /// - Returns: Everything the handle held, when that is at most `limit` bytes.
  /// - Throws: ``CommandLineError``: `.payloadTooLarge` past the limit, `.usage` when a read
  ///   fails.
  static func read(from handle: FileHandle, named name: String, limit: Int = readLimit) throws
    -> Data
  {
    var data = Data()
    // One byte past the limit is enough to know the input is too large.
    while data.count <= limit {
      let chunk: Data
      do {
        chunk = try handle.read(upToCount: min(chunkSize, limit + 1 - data.count)) ?? Data()
      } catch {
        throw CommandLineError(.usage, "cannot read \(name)")
      }
      if chunk.isEmpty { return data }
      data.append(chunk)
    }
    throw CommandLineError(.payloadTooLarge, "the payload is larger than \(limit) bytes")
  }
}
