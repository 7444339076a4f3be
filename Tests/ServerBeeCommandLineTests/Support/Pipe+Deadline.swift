import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Pipe {
  /// The next bytes from the read end; empty at end of file, `nil` when the deadline passed
  /// first (so a silent child can never hang a test).
  func read(until deadline: Date) -> Data? {
    let descriptor = fileHandleForReading.fileDescriptor
    while true {
      let remaining = Int32(max(0, deadline.timeIntervalSinceNow * 1000))
      var target = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      let ready = poll(&target, 1, remaining)
      if ready > 0 { return fileHandleForReading.availableData }
      if ready == 0 { return nil }
      if errno != EINTR { return Data() }
    }
  }
}
