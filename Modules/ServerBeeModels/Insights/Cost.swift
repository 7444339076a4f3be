/// Why a server's cost is not configured (``ServerCostInsights/invalidReason``).
public struct CostInvalidReason: WireString {
  /// The wire text.
  public let rawValue: String
  /// Creates a value.
  /// - Parameter rawValue: The wire text.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// No price set.
  public static let missingPrice: Self = "missing_price"
  /// No billing cycle set.
  public static let missingBillingCycle: Self = "missing_billing_cycle"
  /// A billing cycle other than `monthly`, `quarterly` or `yearly`.
  public static let invalidBillingCycle: Self = "invalid_billing_cycle"
  /// A negative or non-finite price.
  public static let invalidPrice: Self = "invalid_price"
}

/// A cost advisory (``ServerCostInsights/advisories``), listed in this order.
public struct CostAdvisory: WireString {
  /// The wire text.
  public let rawValue: String
  /// Creates a value.
  /// - Parameter rawValue: The wire text.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// The server's `expired_at` has passed.
  public static let expiredBilling: Self = "expired_billing"
  /// Paid for, offline, and no samples in the last 24 hours.
  public static let sleepingMoney: Self = "sleeping_money"
  /// Paid for, CPU under 5 %, memory under 20 % and no network or disk I/O for 24 hours.
  public static let idleBurn: Self = "idle_burn"
  /// Online less than 90 % of the last 30 days.
  public static let lowUptime: Self = "low_uptime"
}

/// `GET /api/servers/{id}/cost-insights` (Protocol/AppRoutes.md §5): what a server costs, per
/// second to per month, how much of its billing cycle is spent, and what it buys.
///
/// When ``configured`` is `false`, ``invalidReason`` says why and every cost field is `nil`.
///
/// ```swift
/// let cost = try await api.costInsights(serverID: server.id)
/// if cost.configured, let perMonth = cost.costPerMonthEquivalent {
///   print(String(format: "%.2f %@ a month", perMonth, cost.currency ?? ""))
/// } else {
///   print("not configured:", cost.invalidReason?.rawValue ?? "?")
/// }
/// ```
public struct ServerCostInsights: Codable, Hashable, Sendable {
  /// The server.
  public var serverID: String
  /// Whether price and billing cycle are set and valid.
  public var configured: Bool
  /// Why not, when not.
  public var invalidReason: CostInvalidReason?
  /// The price per cycle.
  public var price: Double?
  /// The currency, trimmed (`USD` when configured with none).
  public var currency: String?
  /// `monthly`, `quarterly` or `yearly`.
  public var billingCycle: String?
  /// The current cycle's first day.
  public var cycleStart: CalendarDate?
  /// The current cycle's last day.
  public var cycleEnd: CalendarDate?
  /// The cycle's length in days.
  public var cycleDays: Int?
  /// Days of the cycle so far, today included.
  public var daysElapsed: Int?
  /// Days after today to the cycle's end (``cycleDays`` = elapsed + remaining).
  public var daysRemaining: Int?
  /// Price per second.
  public var costPerSecond: Double?
  /// Price per hour.
  public var costPerHour: Double?
  /// Price per day (price ÷ cycle days).
  public var costPerDay: Double?
  /// Price per month (price ÷ 1, 3 or 12).
  public var costPerMonthEquivalent: Double?
  /// What the cycle's days so far cost.
  public var cycleCostElapsed: Double?
  /// What its remaining days cost.
  public var cycleCostRemaining: Double?
  /// The cycle spent, percent; `nil` when the price is 0.
  public var cycleBurnPercent: Double?
  /// What the monthly price buys per resource.
  public var resourceValue: ResourceValue?
  /// Advisories, in their fixed order; `[]` when not configured.
  public var advisories: [CostAdvisory]

  /// Creates a value.
  /// - Parameters:
  ///   - serverID: Server.
  ///   - configured: Whether configured.
  ///   - invalidReason: Why not.
  ///   - price: Price.
  ///   - currency: Currency.
  ///   - billingCycle: Cycle.
  ///   - cycleStart: First day.
  ///   - cycleEnd: Last day.
  ///   - cycleDays: Length.
  ///   - daysElapsed: Days so far.
  ///   - daysRemaining: Days left.
  ///   - costPerSecond: Per second.
  ///   - costPerHour: Per hour.
  ///   - costPerDay: Per day.
  ///   - costPerMonthEquivalent: Per month.
  ///   - cycleCostElapsed: Spent.
  ///   - cycleCostRemaining: To spend.
  ///   - cycleBurnPercent: Spent, percent.
  ///   - resourceValue: Per resource.
  ///   - advisories: Advisories.
  public init(
    serverID: String, configured: Bool, invalidReason: CostInvalidReason?, price: Double?,
    currency: String?, billingCycle: String?, cycleStart: CalendarDate?,
    cycleEnd: CalendarDate?, cycleDays: Int?, daysElapsed: Int?, daysRemaining: Int?,
    costPerSecond: Double?, costPerHour: Double?, costPerDay: Double?,
    costPerMonthEquivalent: Double?, cycleCostElapsed: Double?, cycleCostRemaining: Double?,
    cycleBurnPercent: Double?, resourceValue: ResourceValue?, advisories: [CostAdvisory]
  ) {
    self.serverID = serverID
    self.configured = configured
    self.invalidReason = invalidReason
    self.price = price
    self.currency = currency
    self.billingCycle = billingCycle
    self.cycleStart = cycleStart
    self.cycleEnd = cycleEnd
    self.cycleDays = cycleDays
    self.daysElapsed = daysElapsed
    self.daysRemaining = daysRemaining
    self.costPerSecond = costPerSecond
    self.costPerHour = costPerHour
    self.costPerDay = costPerDay
    self.costPerMonthEquivalent = costPerMonthEquivalent
    self.cycleCostElapsed = cycleCostElapsed
    self.cycleCostRemaining = cycleCostRemaining
    self.cycleBurnPercent = cycleBurnPercent
    self.resourceValue = resourceValue
    self.advisories = advisories
  }

  private enum CodingKeys: String, CodingKey {
    case serverID = "server_id"
    case configured
    case invalidReason = "invalid_reason"
    case price, currency
    case billingCycle = "billing_cycle"
    case cycleStart = "cycle_start"
    case cycleEnd = "cycle_end"
    case cycleDays = "cycle_days"
    case daysElapsed = "days_elapsed"
    case daysRemaining = "days_remaining"
    case costPerSecond = "cost_per_second"
    case costPerHour = "cost_per_hour"
    case costPerDay = "cost_per_day"
    case costPerMonthEquivalent = "cost_per_month_equivalent"
    case cycleCostElapsed = "cycle_cost_elapsed"
    case cycleCostRemaining = "cycle_cost_remaining"
    case cycleBurnPercent = "cycle_burn_percent"
    case resourceValue = "resource_value"
    case advisories
  }
}

/// What a server's monthly price buys (``ServerCostInsights/resourceValue``): GiB and TiB are
/// base 1024; a figure is `nil` when the server does not report the resource.
public struct ResourceValue: Codable, Hashable, Sendable {
  /// Monthly price per CPU core.
  public var costPerCPUCore: Double?
  /// Monthly price per GiB of memory.
  public var costPerGBMemory: Double?
  /// Monthly price per GiB of disk.
  public var costPerGBDisk: Double?
  /// Monthly price per TiB of the traffic limit.
  public var costPerTBTrafficLimit: Double?
  /// What the limit counts: `sum`, `up` or `down`.
  public var trafficLimitType: String?

  /// Creates a value.
  /// - Parameters:
  ///   - costPerCPUCore: Per core.
  ///   - costPerGBMemory: Per GiB of memory.
  ///   - costPerGBDisk: Per GiB of disk.
  ///   - costPerTBTrafficLimit: Per TiB of limit.
  ///   - trafficLimitType: The limit's type.
  public init(
    costPerCPUCore: Double?, costPerGBMemory: Double?, costPerGBDisk: Double?,
    costPerTBTrafficLimit: Double?, trafficLimitType: String?
  ) {
    self.costPerCPUCore = costPerCPUCore
    self.costPerGBMemory = costPerGBMemory
    self.costPerGBDisk = costPerGBDisk
    self.costPerTBTrafficLimit = costPerTBTrafficLimit
    self.trafficLimitType = trafficLimitType
  }

  private enum CodingKeys: String, CodingKey {
    case costPerCPUCore = "cost_per_cpu_core"
    case costPerGBMemory = "cost_per_gb_memory"
    case costPerGBDisk = "cost_per_gb_disk"
    case costPerTBTrafficLimit = "cost_per_tb_traffic_limit"
    case trafficLimitType = "traffic_limit_type"
  }
}

/// `GET /api/cost/overview` (Protocol/AppRoutes.md §5): the fleet's spending per currency
/// (currencies are never added together) and every server's figures, by name then id.
///
/// ```swift
/// let overview = try await api.costOverview()
/// for total in overview.currencies {
///   print(total.currency, total.monthlyEquivalentTotal, "a month over",
///     total.configuredServerCount, "servers")
/// }
/// ```
public struct CostOverview: Codable, Hashable, Sendable {
  /// One total per currency, sorted by currency.
  public var currencies: [CurrencySummary]
  /// Every server.
  public var servers: [ServerCostOverview]

  /// Creates a value.
  /// - Parameters:
  ///   - currencies: Totals.
  ///   - servers: Servers.
  public init(currencies: [CurrencySummary], servers: [ServerCostOverview]) {
    self.currencies = currencies
    self.servers = servers
  }
}

/// One currency's totals (``CostOverview/currencies``).
public struct CurrencySummary: Codable, Hashable, Sendable, Identifiable {
  /// The currency.
  public var currency: String
  /// How many configured servers are billed in it.
  public var configuredServerCount: Int
  /// Their monthly prices added up.
  public var monthlyEquivalentTotal: Double
  /// Their daily prices added up.
  public var dailyTotal: Double
  /// What their cycles so far cost, added up.
  public var cycleElapsedTotal: Double

  /// The currency.
  public var id: String { currency }

  /// Creates a value.
  /// - Parameters:
  ///   - currency: Currency.
  ///   - configuredServerCount: Servers.
  ///   - monthlyEquivalentTotal: Per month.
  ///   - dailyTotal: Per day.
  ///   - cycleElapsedTotal: Spent this cycle.
  public init(
    currency: String, configuredServerCount: Int, monthlyEquivalentTotal: Double,
    dailyTotal: Double, cycleElapsedTotal: Double
  ) {
    self.currency = currency
    self.configuredServerCount = configuredServerCount
    self.monthlyEquivalentTotal = monthlyEquivalentTotal
    self.dailyTotal = dailyTotal
    self.cycleElapsedTotal = cycleElapsedTotal
  }

  private enum CodingKeys: String, CodingKey {
    case currency
    case configuredServerCount = "configured_server_count"
    case monthlyEquivalentTotal = "monthly_equivalent_total"
    case dailyTotal = "daily_total"
    case cycleElapsedTotal = "cycle_elapsed_total"
  }
}

/// One server of ``CostOverview/servers``: the fields of ``ServerCostInsights`` the overview
/// shows.
public struct ServerCostOverview: Codable, Hashable, Sendable, Identifiable {
  /// The server.
  public var serverID: String
  /// Its name.
  public var name: String
  /// Whether price and billing cycle are set and valid.
  public var configured: Bool
  /// Why not, when not.
  public var invalidReason: CostInvalidReason?
  /// The currency.
  public var currency: String?
  /// The billing cycle.
  public var billingCycle: String?
  /// Price per second.
  public var costPerSecond: Double?
  /// Price per hour.
  public var costPerHour: Double?
  /// Price per day.
  public var costPerDay: Double?
  /// Price per month.
  public var costPerMonthEquivalent: Double?
  /// What the cycle so far cost.
  public var cycleCostElapsed: Double?
  /// The cycle spent, percent.
  public var cycleBurnPercent: Double?
  /// Days left in the cycle.
  public var daysRemaining: Int?
  /// Advisories.
  public var advisories: [CostAdvisory]

  /// The server.
  public var id: String { serverID }

  /// Creates a value.
  /// - Parameters:
  ///   - serverID: Server.
  ///   - name: Name.
  ///   - configured: Whether configured.
  ///   - invalidReason: Why not.
  ///   - currency: Currency.
  ///   - billingCycle: Cycle.
  ///   - costPerSecond: Per second.
  ///   - costPerHour: Per hour.
  ///   - costPerDay: Per day.
  ///   - costPerMonthEquivalent: Per month.
  ///   - cycleCostElapsed: Spent.
  ///   - cycleBurnPercent: Spent, percent.
  ///   - daysRemaining: Days left.
  ///   - advisories: Advisories.
  public init(
    serverID: String, name: String, configured: Bool, invalidReason: CostInvalidReason?,
    currency: String?, billingCycle: String?, costPerSecond: Double?, costPerHour: Double?,
    costPerDay: Double?, costPerMonthEquivalent: Double?, cycleCostElapsed: Double?,
    cycleBurnPercent: Double?, daysRemaining: Int?, advisories: [CostAdvisory]
  ) {
    self.serverID = serverID
    self.name = name
    self.configured = configured
    self.invalidReason = invalidReason
    self.currency = currency
    self.billingCycle = billingCycle
    self.costPerSecond = costPerSecond
    self.costPerHour = costPerHour
    self.costPerDay = costPerDay
    self.costPerMonthEquivalent = costPerMonthEquivalent
    self.cycleCostElapsed = cycleCostElapsed
    self.cycleBurnPercent = cycleBurnPercent
    self.daysRemaining = daysRemaining
    self.advisories = advisories
  }

  private enum CodingKeys: String, CodingKey {
    case serverID = "server_id"
    case name, configured
    case invalidReason = "invalid_reason"
    case currency
    case billingCycle = "billing_cycle"
    case costPerSecond = "cost_per_second"
    case costPerHour = "cost_per_hour"
    case costPerDay = "cost_per_day"
    case costPerMonthEquivalent = "cost_per_month_equivalent"
    case cycleCostElapsed = "cycle_cost_elapsed"
    case cycleBurnPercent = "cycle_burn_percent"
    case daysRemaining = "days_remaining"
    case advisories
  }
}
