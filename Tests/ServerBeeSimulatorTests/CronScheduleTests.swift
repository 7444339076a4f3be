import Testing

@testable import ServerBeeSimulator

/// The simulator's reading of a task's 6-field cron expression with seconds, in UTC
/// (Protocol/Tasks.md §2): the next run after a moment, and the refusal texts.
@Suite struct CronScheduleTests {
  /// 2027-01-15T08:00:00Z, a Friday: the simulator clock's start.
  let friday: Int64 = 1_800_000_000

  @Test(arguments: [
    ("0 30 3 * * *", Int64(1_800_070_200)),  // 2027-01-16T03:30:00Z
    ("*/15 * * * * *", 1_800_000_015),
    ("0 0 8 * * *", 1_800_086_400),  // 08:00:00 is now, so the next day's
    ("0 0 12 * * MON", 1_800_273_600),  // Monday 2027-01-18
    ("0 0 0 * * 1", 1_800_144_000),  // 1 is Sunday: 2027-01-17
    ("0 0 0 29 2 *", 1_835_395_200),  // 2028-02-29
    ("0 0,30 8-9 15 JAN ?", 1_800_001_800),  // 08:30 the same day
    ("10-20/5 0 8 * * *", 1_800_000_010),
  ])
  func nextRunIsTheFirstMatchingSecondAfterNow(expression: String, expected: Int64) throws {
    let schedule = try CronSchedule.parse(expression)
    #expect(schedule.next(after: friday) == expected)
  }

  @Test func aDateThatNeverComesHasNoNextRun() throws {
    #expect(try CronSchedule.parse("0 0 0 30 2 *").next(after: friday) == nil)
  }

  @Test(arguments: [
    ("0 3 * * *", "expected 6 fields (sec min hour day-of-month month day-of-week), got 5"),
    ("60 * * * * *", "'60' is out of range for seconds (0-59)"),
    ("0 0 25 * * *", "'25' is out of range for hours (0-23)"),
    ("0 0 0 * * 0", "'0' is out of range for day of week (1-7)"),
    ("x * * * * *", "'x' is not a valid seconds value"),
    ("*/0 * * * * *", "'*/0' is not a valid seconds value"),
    ("0 0 0 * FOO *", "'FOO' is not a valid month value"),
    ("0 0 0 5-2 * *", "'5-2' is out of range for day of month (1-31)"),
    ("0,,1 * * * * *", "'' is not a valid seconds value"),
  ])
  func aBadExpressionIsRefusedNamingTheField(expression: String, text: String) {
    #expect(throws: CronSchedule.ParseError(description: text)) {
      try CronSchedule.parse(expression)
    }
  }

  @Test func aScheduleCrossesMonthAndLeapDayBoundaries() throws {
    // 2028-02-28T00:00:00Z; the next 29th of a month at noon is leap day 2028-02-29.
    let schedule = try CronSchedule.parse("0 0 12 29 * *")
    #expect(schedule.next(after: 1_835_308_800) == 1_835_438_400)
    // From 2027-02-01 the next 29th is in March (2027 has no 29 February).
    #expect(schedule.next(after: 1_801_440_000) == 1_806_321_600)
  }
}
