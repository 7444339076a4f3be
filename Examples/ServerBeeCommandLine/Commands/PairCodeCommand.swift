import ServerBeeAPI
import ServerBeeModels
import ServerBeeTransport

/// `serverbee pair-code`: a pairing QR code for another device, generated as this account.
enum PairCodeCommand {
  /// Runs the command.
  static func run(_ context: CommandContext) async throws {
    let api = try await APICredential.client(context)
    let pairing = try await Spinner.run("Asking for a pairing code", console: context.console) {
      try await api.createPairingCode()
    }
    let payload = pairing.qrText
    let console = context.console
    if console.json {
      let document = PairCodeDocument(qrText: payload, expiresInSeconds: pairing.expiresInSeconds)
      console.json(try WireJSON.encode(document))
      return
    }
    if let drawing = QRDrawing.text(for: payload) { console.line(drawing) }
    console.line(payload)
    console.line(
      "Scan it in the ServerBee app, or run: serverbee pair '<the line above>'. It works once, "
        + "for \(pairing.expiresInSeconds) s.")
  }

  /// The `pair-code --json` document.
  struct PairCodeDocument: Codable, Sendable {
    var qrText: String
    var expiresInSeconds: Int64

    enum CodingKeys: String, CodingKey {
      case qrText = "qr_text"
      case expiresInSeconds = "expires_in_secs"
    }
  }
}
