import Foundation
import Testing

@testable import ServerBeeModels

@Suite struct RFC3339TimestampTests {
  @Test(arguments: [
    ("2026-03-28T10:15:30Z", 1_774_692_930, 0),
    ("2026-03-28T10:15:30.1Z", 1_774_692_930, 100_000_000),
    ("2026-03-28T10:15:30.123Z", 1_774_692_930, 123_000_000),
    ("2026-03-28T10:15:30.123456Z", 1_774_692_930, 123_456_000),
    ("2026-03-28T10:15:30.123456789Z", 1_774_692_930, 123_456_789),
    ("2026-03-28T10:15:30.123456789+00:00", 1_774_692_930, 123_456_789),
    ("2026-03-28T12:15:30+02:00", 1_774_692_930, 0),
    ("2026-03-28T05:45:30-04:30", 1_774_692_930, 0),
    ("1969-12-31T23:59:59.5Z", -1, 500_000_000),
    ("2024-02-29T00:00:00z", 1_709_164_800, 0),
  ])
  func parsesZeroToNineFractionDigitsWithZuluOrOffset(text: String, seconds: Int64, nanos: Int32)
    throws
  {
    let timestamp = try RFC3339Timestamp(parsing: text)
    #expect(timestamp.secondsSince1970 == seconds)
    #expect(timestamp.nanoseconds == nanos)
  }

  @Test(arguments: [
    "", "2026-03-28", "2026-03-28T10:15:30", "2026-03-28T10:15:30.Z",
    "2026-03-28T10:15:30.1234567890Z", "2026-13-28T10:15:30Z", "2026-02-30T10:15:30Z",
    "2023-02-29T10:15:30Z", "2026-03-28T24:00:00Z", "2026-03-28T10:15:30+0200",
    "2026-03-28T10:15:30Zjunk", "２０２６-03-28T10:15:30Z", "2026-03-28T10:15:30 Z",
  ])
  func rejectsMalformedTextWithATypedError(text: String) {
    #expect {
      try RFC3339Timestamp(parsing: text)
    } throws: { error in
      (error as? ServerBeeModelsError)?.code == .invalidTimestamp
    }
  }

  @Test(arguments: [
    (0 as Int32, "2026-03-28T10:15:30Z", "2026-03-28T10:15:30+00:00"),
    (500_000_000, "2026-03-28T10:15:30.500Z", "2026-03-28T10:15:30.500+00:00"),
    (123_456_000, "2026-03-28T10:15:30.123456Z", "2026-03-28T10:15:30.123456+00:00"),
    (123_456_789, "2026-03-28T10:15:30.123456789Z", "2026-03-28T10:15:30.123456789+00:00"),
    (1, "2026-03-28T10:15:30.000000001Z", "2026-03-28T10:15:30.000000001+00:00"),
  ])
  func formatsBothServerFormsWithTheShortestExactFraction(
    nanos: Int32, zulu: String, offset: String
  ) {
    let timestamp = RFC3339Timestamp(secondsSince1970: 1_774_692_930, nanoseconds: nanos)
    #expect(timestamp.formatted(.zulu) == zulu)
    #expect(timestamp.formatted(.utcOffset) == offset)
  }

  /// Found by `fuzz-rfc3339`: these parsed to instants outside the four-digit years, which were
  /// then written as `10000-01-01T…` or `00-1-12-31T…` and could not be read back.
  @Test(arguments: [
    "9999-12-31T23:59:60Z", "9999-12-31T23:30:00-01:00", "0000-01-01T00:00:00+00:01",
    "0000-01-01T00:59:59.5+01:00",
  ])
  func instantsOutsideTheFourDigitYearsAreRefused(text: String) {
    #expect(throws: ServerBeeModelsError.self) { try RFC3339Timestamp(parsing: text) }
  }

  @Test(arguments: [
    "9999-12-31T23:59:59.999999999Z", "0000-01-01T00:00:00Z", "9999-12-31T23:59:59+00:00",
  ])
  func theFirstAndLastWritableInstantsRoundTrip(text: String) throws {
    let timestamp = try RFC3339Timestamp(parsing: text)
    #expect(try RFC3339Timestamp(parsing: timestamp.description) == timestamp)
    #expect(timestamp.description == text)
  }

  @Test func roundTripsTheFormItWasReadIn() throws {
    for text in ["2026-05-20T10:05:00.412+00:00", "2026-03-28T10:15:30.123456789Z"] {
      let data = Data("\"\(text)\"".utf8)
      let decoded = try WireJSON.decode(RFC3339Timestamp.self, from: data)
      #expect(try WireJSON.encode(decoded) == data)
    }
  }

  @Test func equalityComparesTheInstantNotTheForm() throws {
    let zulu = try RFC3339Timestamp(parsing: "2026-03-28T10:15:30Z")
    let offset = try RFC3339Timestamp(parsing: "2026-03-28T12:15:30+02:00")
    #expect(zulu == offset)
    #expect(zulu.hashValue == offset.hashValue)
    #expect(try RFC3339Timestamp(parsing: "2026-03-28T10:15:30.000000001Z") > zulu)
  }

  @Test func convertsToAndFromDate() throws {
    let timestamp = try RFC3339Timestamp(parsing: "2026-03-28T10:15:30.25Z")
    #expect(timestamp.date == Date(timeIntervalSince1970: 1_774_692_930.25))
    #expect(RFC3339Timestamp(timestamp.date) == timestamp)
  }

  @Test func decodingErrorNamesTheField() {
    struct Holder: Decodable { let createdAt: RFC3339Timestamp }
    #expect {
      try WireJSON.decode(Holder.self, from: Data(#"{"createdAt":"yesterday"}"#.utf8))
    } throws: { error in
      let error = error as? ServerBeeModelsError
      return error?.code == .invalidTimestamp && error?.message.contains("createdAt") == true
    }
  }
}
