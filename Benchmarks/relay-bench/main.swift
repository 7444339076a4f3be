// relay-bench: what one accepted `POST /v1/send` costs the push relay, in its own
// process: an in-process RelayServer on 127.0.0.1 and a blocking keep-alive client on the main
// thread, sending the same realistic body (a 1 KiB ciphertext) to one registered local device.
// The rate limits are lifted, so every send is accepted.
//
//   swift build -c release --product relay-bench
//   .build/release/relay-bench sends 2000        # 2000 accepted sends, then one summary line
//   .build/release/relay-bench memory 1000000 100000   # resident memory every 100,000 sends
//   Benchmarks/relay-bench/instructions.sh 2000  # callgrind: instructions per accepted send
//   Benchmarks/relay-bench/apns.sh 5000          # APNs sends/s, p50/p99, through one HTTP/2
//                                                # connection to the mock APNs (APNsBench.swift)
//
// `--provider devices` (the default) is what `serverbee-relay` runs by default; `--provider
// scripted` is a ScriptedPushProvider alone. `--capture N` keeps the last N sends, as
// `serverbee-relay --capture N` does (default 0, the executable's default).
import Foundation
import ServerBeeModels
import ServerBeeRelay

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

func fail(_ text: String) -> Never {
  FileHandle.standardError.write(Data("relay-bench: \(text)\n".utf8))
  exit(2)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var providerMode = "devices"
if let index = arguments.firstIndex(of: "--provider"), index + 1 < arguments.count {
  providerMode = arguments[index + 1]
  arguments.removeSubrange(index...(index + 1))
}
var capture = 0
if let index = arguments.firstIndex(of: "--capture"), index + 1 < arguments.count {
  capture = Int(arguments[index + 1]) ?? 0
  arguments.removeSubrange(index...(index + 1))
}
guard arguments.count >= 2, let count = Int(arguments[1]), count >= 0 else {
  fail(
    "usage: relay-bench sends COUNT | memory COUNT [EVERY] | apns COUNT"
      + " [--provider devices|scripted]"
      + " [--capture N]")
}
let mode = arguments[0]
let every = arguments.count > 2 ? Int(arguments[2]) ?? count : count
if mode == "apns" { APNsBench.run(count: count) }

let token = String(repeating: "a1b2c3d4", count: 8)
let bench = makeBenchProvider(mode: providerMode, deviceToken: token, capture: capture)
var configuration = RelayServer.Configuration()
configuration.maximumCapturedRequests = capture
configuration.limits = RelayServer.Limits(
  requestsPerClient: .max, sendsPerDevice: .max, requestsPerRelay: .max)
let relay = RelayServer(configuration: configuration, provider: bench)
let url: URL
do { url = try relay.start() } catch { fail("\(error)") }
guard let port = url.port else { fail("no port in \(url)") }

/// The request, built once: the client's own cost stays a write and a read per send.
let request: [UInt8] = {
  let now = Int64(Date().timeIntervalSince1970)
  let ciphertext = Data((0..<1024).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
    .base64EncodedString()
  let nonce = Data((1...12).map { UInt8($0) }).base64EncodedString()
  let body =
    #"{"device_token":"\#(token)","environment":"sandbox","#
    + #""event_id":"0f8e3a52-5c1b-4d8e-9a7f-2b6c4d8e1f30","expires_at":\#(now + 1200),"#
    + #""envelope":{"version":1,"key_id":"6b1f9c2e-3d4a-4b5c-8d6e-7f8091a2b3c4","#
    + #""identity":"40e9ea0a395dec3bafe5e84afbbe2e726ac53aa273f168b4ac650b208fdef51f","#
    + #""nonce":"\#(nonce)","ciphertext":"\#(ciphertext)"}}"#
  let head =
    "POST /v1/send HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    + "Content-Length: \(body.utf8.count)\r\n\r\n"
  return Array((head + body).utf8)
}()

let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
guard descriptor >= 0 else { fail("socket") }
var address = sockaddr_in()
address.sin_family = sa_family_t(AF_INET)
address.sin_port = in_port_t(UInt16(port).bigEndian)
address.sin_addr.s_addr = inet_addr("127.0.0.1")
let connected = withUnsafePointer(to: &address) {
  $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
  }
}
guard connected == 0 else { fail("connect") }

let accepted = Array(#""outcome":"accepted""#.utf8)

/// Sends the request once and reads one whole answer; `true` when it was accepted. Kept cheap
/// (byte scans, no strings), as its instructions count in the figure too.
func sendOnce() -> Bool {
  var offset = 0
  while offset < request.count {
    let written = request[offset...].withUnsafeBytes {
      send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
    }
    guard written > 0 else { fail("write") }
    offset += written
  }
  var answer: [UInt8] = []
  answer.reserveCapacity(512)
  var chunk = (0..<512).map { _ in UInt8(0) }
  while true {
    let read = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
    guard read > 0 else { fail("the relay closed the connection") }
    answer += chunk[0..<read]
    guard let headEnd = find(Array("\r\n\r\n".utf8), in: answer),
      let lengthAt = find(Array("content-length: ".utf8), in: answer)
    else { continue }
    var length = 0
    var index = lengthAt + "content-length: ".utf8.count
    while index < answer.count, (48...57).contains(answer[index]) {
      length = length * 10 + Int(answer[index] - 48)
      index += 1
    }
    if answer.count - (headEnd + 4) >= length { return find(accepted, in: answer) != nil }
  }
}

func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
  guard haystack.count >= needle.count else { return nil }
  for start in 0...(haystack.count - needle.count) {
    var index = 0
    while index < needle.count, haystack[start + index] == needle[index] { index += 1 }
    if index == needle.count { return start }
  }
  return nil
}

func residentKiB() -> Int {
  guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
    return -1
  }
  for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
  }
  return -1
}

var acceptedCount = 0
switch mode {
case "sends":
  for _ in 0..<count where sendOnce() { acceptedCount += 1 }
  print("relay-bench: \(acceptedCount) of \(count) sends accepted (\(providerMode))")
case "memory":
  print("sends\tresident_kib")
  print("0\t\(residentKiB())")
  var done = 0
  while done < count {
    let step = min(max(1, every), count - done)
    for _ in 0..<step where sendOnce() { acceptedCount += 1 }
    done += step
    print("\(done)\t\(residentKiB())")
  }
  print("relay-bench: \(acceptedCount) of \(count) sends accepted (\(providerMode))")
default:
  fail("unknown mode \(mode)")
}
close(descriptor)
relay.stop()
if acceptedCount != count { exit(1) }
