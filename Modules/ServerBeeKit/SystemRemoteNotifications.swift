// The one platform call of APNs registration, Apple-only and never compiled on Linux: the
// waiting and hand-over around it (`RemoteNotificationsDeviceTokenProvider`) are portable and
// tested there.

#if canImport(UserNotifications) && (os(iOS) || os(tvOS) || os(visionOS))
  import UIKit

  /// Asks the system for an APNs token; the answer reaches the app delegate.
  enum SystemRemoteNotifications {
    @Sendable static func register() async {
      await MainActor.run { UIApplication.shared.registerForRemoteNotifications() }
    }
  }
#elseif canImport(UserNotifications) && os(macOS)
  import AppKit

  /// Asks the system for an APNs token; the answer reaches the app delegate.
  enum SystemRemoteNotifications {
    @Sendable static func register() async {
      await MainActor.run { NSApplication.shared.registerForRemoteNotifications() }
    }
  }
#endif
