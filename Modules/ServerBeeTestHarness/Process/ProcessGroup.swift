package import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Ownership of the processes a test starts: by process group, with a watchdog for the case
/// where the test process itself dies.
///
/// On Linux, Foundation starts every child as the leader of a process group of its own (its
/// group id is its pid), so signalling the group reaches the child and everything it started
/// (the Python watchdog's peer, `openssl s_server`, a shell's children). Tests end their
/// children with ``endGroup(grace:)``, which never blocks, so it also works in `deinit` and
/// `defer`:
///
/// ```swift
/// let peer = Process()
/// peer.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
/// peer.arguments = ["s_server", "-accept", "0"]
/// try peer.runUnderWatchdog()
/// defer { peer.endGroup() }
/// ```
extension Process {
  /// The group to signal: the child's own group when it leads one (always on Linux), else only
  /// the child. `nil` before the process started, so no call can ever signal the test's group.
  private var signalTarget: pid_t? {
    let pid = processIdentifier
    guard pid > 0 else { return nil }
    let group = getpgid(pid)
    // A leader already reaped leaves `ESRCH`; what it started may still run in its group.
    if group == pid || (group == -1 && errno == ESRCH) { return -pid }
    return pid
  }

  /// Sends `signal` to this child's process group (see the type's overview); does nothing
  /// before the process started.
  package func signalGroup(_ signal: Int32) {
    guard let target = signalTarget else { return }
    _ = kill(target, signal)
  }

  /// Ends this child and its process group: SIGTERM now, then SIGKILL to whatever of the
  /// group is still there after `grace`, sent from a thread of its own. Returns at once.
  ///
  /// Idempotent, and safe before the process started (it does nothing then).
  /// - Parameter grace: How long the group has to exit cleanly after SIGTERM.
  package func endGroup(grace: Duration = .seconds(3)) {
    guard let target = signalTarget else { return }
    guard kill(target, SIGTERM) == 0 else { return }  // ESRCH: nothing left to end
    let seconds =
      Double(grace.components.seconds)
      + Double(grace.components.attoseconds) / 1e18
    Thread {
      let deadline = Date().addingTimeInterval(seconds)
      // The group exists while any member does (`kill(…, 0)` succeeds); poll, then kill.
      while Date() < deadline {
        if kill(target, 0) != 0 { return }
        usleep(50_000)
      }
      _ = kill(target, SIGKILL)
    }.start()
  }

  /// Starts the configured executable under the test watchdog (``processWatchdog``) instead
  /// of directly: if the test process dies without ending it (a crash), the watchdog sees its
  /// parent change and ends the child. Set `executableURL`, `arguments` and the standard
  /// streams first, as for `run()`; `processIdentifier` is then the watchdog's, whose process
  /// group also holds the child, so ``endGroup(grace:)`` ends both. The exit status is the
  /// child's (128 + N when signal N ended it).
  /// - Throws: ``PeerError`` when python3 is missing, or what `run()` throws.
  package func runUnderWatchdog() throws {
    guard let executable = executableURL else { throw PeerError("no executable to run") }
    executableURL = URL(fileURLWithPath: try PeerProcess.which("python3"))
    arguments =
      ["-c", processWatchdog, "\(ProcessInfo.processInfo.processIdentifier)", executable.path]
      + (arguments ?? [])
    try run()
  }
}

/// `python3 -c processWatchdog PARENT-PID PROGRAM ARGUMENT…`: runs the program as a child with
/// no signal blocked (a test thread's mask is inherited
/// otherwise, often with SIGTERM blocked), forwards SIGTERM and SIGINT to it, ends it when this process's
/// parent is no longer PARENT-PID (the test process died, even before the watchdog started), and exits with the child's status (128 + N for a
/// child ended by signal N). The child stays in the watchdog's process group.
package let processWatchdog = """
  import os, signal, subprocess, sys, threading, time
  # A child of a Swift test inherits the signal mask of the thread that started it, where
  # SIGTERM is often blocked: unblock everything, for this watchdog and for its child.
  signal.pthread_sigmask(signal.SIG_SETMASK, [])
  parent = int(sys.argv[1])
  child = subprocess.Popen(sys.argv[2:])
  def stop(*_):
      # Only signals here: the main thread is inside child.wait(), which holds its lock.
      try:
          child.terminate()
      except ProcessLookupError:
          pass
      escalate = threading.Timer(3, child.kill)
      escalate.daemon = True
      escalate.start()
  def watch_parent():
      while os.getppid() == parent:
          time.sleep(0.2)
      stop()
  signal.signal(signal.SIGTERM, stop)
  signal.signal(signal.SIGINT, stop)
  threading.Thread(target=watch_parent, daemon=True).start()
  code = child.wait()
  sys.exit(code if code >= 0 else 128 - code)
  """
