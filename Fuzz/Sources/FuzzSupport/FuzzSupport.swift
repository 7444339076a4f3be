// What every fuzz target shares: the libFuzzer driver, invariant checks that trap with a
// message, and a reader that turns the first input bytes into choices.
import CLibFuzzer

#if canImport(Glibc)
  import Glibc
#endif

/// The test function libFuzzer calls; set once by `runFuzzer` before the driver starts.
private nonisolated(unsafe) var testOneInput: ([UInt8]) -> Void = { _ in }

/// Runs libFuzzer (command-line flags as usual) with `body` as `LLVMFuzzerTestOneInput`;
/// never returns.
public func runFuzzer(_ body: @escaping ([UInt8]) -> Void) -> Never {
  testOneInput = body
  var argc = CommandLine.argc
  var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
  let status = LLVMFuzzerRunDriver(&argc, &argv) { data, size in
    guard let data else {
      testOneInput([])
      return 0
    }
    testOneInput(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
  }
  exit(status)
}

/// Stops the run (libFuzzer saves the input as a crash) when an invariant does not hold.
/// Unlike `precondition`, the message is printed in optimised builds too.
public func check(
  _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
  file: StaticString = #fileID, line: UInt = #line
) {
  if !condition() { fail(message(), file: file, line: line) }
}

/// Stops the run with a message: an invariant is broken.
public func fail(_ message: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
  let text = Array("FUZZ INVARIANT BROKEN (\(file):\(line)): \(message)\n".utf8)
  _ = text.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
  abort()
}

/// Reads choices from the front of an input; past the end every read answers zero.
public struct FuzzInput {
  /// The bytes not yet read.
  public private(set) var remaining: ArraySlice<UInt8>

  /// Wraps an input.
  public init(_ bytes: [UInt8]) { remaining = bytes[...] }

  /// The next byte, or 0.
  public mutating func byte() -> UInt8 { remaining.popFirst() ?? 0 }

  /// A flag from the next byte's low bit.
  public mutating func bool() -> Bool { byte() & 1 == 1 }

  /// A number in `range` from the next byte.
  public mutating func int(in range: ClosedRange<Int>) -> Int {
    range.lowerBound + Int(byte()) % (range.count)
  }

  /// Up to `count` bytes.
  public mutating func bytes(upTo count: Int) -> [UInt8] {
    let taken = remaining.prefix(count)
    remaining = remaining.dropFirst(taken.count)
    return Array(taken)
  }

  /// Everything not yet read.
  public mutating func rest() -> [UInt8] {
    defer { remaining = [] }
    return Array(remaining)
  }
}

/// Text for messages: printable, cut to `limit` characters.
public func describe(_ bytes: some Sequence<UInt8>, limit: Int = 200) -> String {
  String(String(decoding: Array(bytes), as: UTF8.self).debugDescription.prefix(limit))
}
