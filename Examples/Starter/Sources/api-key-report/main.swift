// api-key-report: a bot that reports on a ServerBee server with an API key: no mobile
// session, nothing to refresh or revoke.
//
//   SERVERBEE_API_KEY=serverbee_… api-key-report --server https://monitor.example.com
import Foundation
import ServerBeeKit
import StarterSupport

let usage = """
  usage: api-key-report --server URL [--alerts N]

  Prints the servers and the firing alerts of a ServerBee server, read with the API key in
  $SERVERBEE_API_KEY (Settings → API Keys; it has its creator's role). The key goes only to
  --server, as the X-API-Key header, and is never printed. --alerts: how many recent alert
  events to look at (50).
  """

await runRecipe(usage: usage) { options in
  let server = try ServerURL(try options.required("server", env: "SERVERBEE_SERVER"))
  let key = try APIKey(try options.secret(env: "SERVERBEE_API_KEY"))
  // The platform's HTTP transport (the native stack on Linux, URLSession elsewhere).
  let http = ServerBeeClient.Transports.platformDefault(.init(deviceName: "api-key-report")).http
  let api = ServerBeeAPIClient(server: server, apiKey: key, transport: http)
  let report = try await FleetReport.load(from: api, alertLimit: try options.count("alerts") ?? 50)
  for line in report.lines { say(line) }
}
