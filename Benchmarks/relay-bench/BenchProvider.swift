import ServerBeeModels
import ServerBeeRelay

/// The provider under test, as `serverbee-relay --provider devices` (the default) or
/// `--provider scripted` builds it (keeping `capture` deliveries, 0 by default as the
/// executable does), with `deviceToken` registered so that sends are accepted.
///
/// The baseline of the relay's performance work (its first commit) has no capture cap: there this
/// file reads `ScriptedPushProvider(fallback: devices)`, which is what its executable ran.
func makeBenchProvider(mode: String, deviceToken: String, capture: Int) -> any PushProvider {
  switch mode {
  case "scripted":
    return ScriptedPushProvider(maximumReceived: capture)
  default:
    let devices = LocalDevicePushProvider()
    _ = devices.register(deviceToken: deviceToken, environment: .sandbox)
    return ScriptedPushProvider(fallback: devices, maximumReceived: capture)
  }
}
