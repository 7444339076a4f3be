import Foundation
import ServerBeeTestHarness

/// Decodes QR code images with `zbarimg` (Debian `zbar-tools`), a reader nobody here wrote.
///
/// A missing `zbarimg` is an error, never a skip: the round-trip tests are the proof that the
/// encoder is right. `scripts/bootstrap.sh` installs it. Each instance owns a fresh temporary
/// directory for its image files, removed when the instance is released (a class, because
/// `TemporaryDirectory` is `~Copyable` and cannot be stored in a suite struct).
final class ZBarImage {
  /// Why decoding failed.
  struct Failure: Error, CustomStringConvertible {
    /// A readable explanation.
    let description: String
  }

  /// The `zbarimg` executable.
  let executable: URL
  private let temporary: TemporaryDirectory

  /// Finds `zbarimg` in the directories of `searchPath` and creates the temporary directory.
  /// - Parameter searchPath: Directories separated by `:`; the process's `PATH` by default.
  /// - Throws: ``Failure`` naming the package to install when `zbarimg` is not there.
  init(searchPath: String? = ProcessInfo.processInfo.environment["PATH"]) throws {
    let found = (searchPath ?? "").split(separator: ":").lazy
      .map { URL(fileURLWithPath: String($0)).appendingPathComponent("zbarimg") }
      .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    guard let found else {
      throw Failure(
        description:
          "zbarimg is not installed: the QR round-trip tests need it. Install the Debian "
          + "package zbar-tools (scripts/bootstrap.sh does: apt-get install zbar-tools).")
    }
    executable = found
    temporary = try TemporaryDirectory()
  }

  /// Writes `png` to the temporary directory and returns the payload `zbarimg --raw -q` reads from it.
  ///
  /// - Parameters:
  ///   - png: The image file's bytes.
  ///   - name: The file name to use.
  ///   - binary: Pass `-Sbinary` so the bytes come back without zbar's character-set guess
  ///     (and without the trailing newline).
  /// - Returns: The decoded bytes; a trailing newline that `--raw` adds in text mode is removed.
  /// - Throws: ``Failure`` when zbarimg finds no symbol or fails.
  func decode(png: [UInt8], name: String, binary: Bool = false) async throws -> [UInt8] {
    let file = temporary.url.appendingPathComponent(name)
    try Data(png).write(to: file)
    let result = try await Process.output(
      of: executable, ["--raw", "-q"] + (binary ? ["-Sbinary"] : []) + [file.path])
    guard result.status == 0 else {
      throw Failure(
        description:
          "zbarimg exited \(result.status) for \(name) (4 means no symbol found): "
          + result.errorText)
    }
    var bytes = [UInt8](result.stdout)
    if !binary, bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
    return bytes
  }
}
