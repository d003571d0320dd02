import Foundation
import ObjectGraph

#if compiler(>=6.2)
/// Lets a workload's metatype cross into the (Sendable) scenarios that name it; workloads hold no state.
public protocol StatelessWorkload: SendableMetatype {}
#else
public protocol StatelessWorkload {}
#endif

/// A named job a scenario runs: untimed setup, then timed phases, for each strategy it supports.
///
/// Workloads are Swift; scenario files combine them with strategies, variants, sizes and parameters.
public protocol Workload: StatelessWorkload {
    static var spec: WorkloadSpec { get }
    /// The data of a size, built once per scenario and size, outside every timed region.
    static func makeData(size: Int, parameters: [String: Double], seed: UInt64) -> SchoolData
    /// Runs one repetition on a fresh database, recording every phase.
    static func run(_ input: RepetitionInput, recorder: PhaseRecorder) throws
}

extension Workload {
    /// `size` students in classes of `studentsPerClass` (default 50), with `subjectsPerStudent` subjects each
    /// (default 0) from `subjects` (0: subjects of their own, so that no subject has two owners).
    public static func makeData(size: Int, parameters: [String: Double], seed: UInt64) -> SchoolData {
        SchoolData.make(students: size, studentsPerClass: Int(parameters["studentsPerClass"] ?? 50),
                        subjects: Int(parameters["subjects"] ?? 0), subjectsPerStudent: Int(parameters["subjectsPerStudent"] ?? 0),
                        seed: seed)
    }
}

/// What a workload accepts, so that scenario files can be checked before anything runs.
public struct WorkloadSpec: Sendable {
    public let name: String
    public let summary: String
    public let strategies: [StrategyID]
    public let variants: [VariantSpec]
    public let parameters: [ParameterSpec]
    public let phases: [String]

    /// "many-to-one, manual-fk, and the peers raw-sqlite, grdb of each": for messages and `bench list`.
    public var supportedStrategiesText: String { StrategyID.summarize(strategies) }
}

/// A variant axis a workload understands, and the values it accepts.
public struct VariantSpec: Sendable {
    public enum Values: Sendable {
        case oneOf([String])
        case integers(ClosedRange<Int>)
        case numbers(ClosedRange<Double>)
    }

    public let name: String
    public let values: Values
    public let help: String

    func check(_ value: VariantValue) -> String? {
        switch (values, value) {
        case let (.oneOf(allowed), .text(text)):
            if allowed.contains(text) { return nil }
            let near = nearNames(text, in: allowed)
            return "'\(text)' is not one of \(allowed.joined(separator: ", "))" + (near.isEmpty ? "" : " (did you mean '\(near[0])'?)")
        case let (.integers(range), .number(number)):
            // The bounds are compared as Doubles first: Int(1e300) traps (found by FuzzTests).
            return number.rounded() == number && number >= Double(range.lowerBound) && number <= Double(range.upperBound)
                && range.contains(Int(number)) ? nil : "\(value) is not an integer in \(range)"
        case let (.numbers(range), .number(number)):
            return range.contains(number) ? nil : "\(value) is not a number in \(range)"
        case (.oneOf, .number): return "expected a name, got the number \(value)"
        case (.integers, .text), (.numbers, .text): return "expected a number, got \"\(value)\""
        }
    }
}

/// A workload parameter, with its default.
public struct ParameterSpec: Sendable {
    public let name: String
    public let range: ClosedRange<Double>
    public let integer: Bool
    public let defaultValue: Double
    public let help: String
}

/// One value on a variant axis.
public enum VariantValue: Hashable, Sendable, CustomStringConvertible {
    case text(String)
    case number(Double)

    public var description: String {
        switch self {
        case let .text(text): return text
        case let .number(number):
            return number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        }
    }

    public var number: Double? { if case let .number(value) = self { return value } else { return nil } }
}

/// One combination of variant values, in the order the scenario declares its axes.
public struct Variant: Hashable, Sendable, CustomStringConvertible {
    public let values: [(name: String, value: VariantValue)]

    public init(_ values: [(name: String, value: VariantValue)]) { self.values = values }

    /// The stable text used in reports: `batch=20;access=first-screen`, empty when there are no axes.
    public var description: String { values.map { "\($0.name)=\($0.value)" }.joined(separator: ";") }

    public subscript(name: String) -> VariantValue? { values.first { $0.name == name }?.value }

    public static func == (lhs: Variant, rhs: Variant) -> Bool { lhs.description == rhs.description }
    public func hash(into hasher: inout Hasher) { hasher.combine(description) }
}

/// Everything one repetition needs: its strategy, variant, size, parameters, seed and a fresh database.
public struct RepetitionInput {
    public let strategy: StrategyID
    public let variant: Variant
    public let size: Int
    public let parameters: [String: Double]
    public let seed: UInt64
    public let location: StoreLocation
    public let options: StoreOptions
    /// The page cache in KiB for a school opened to read a prepared database; nil keeps SQLite's default.
    public var readPageCacheKiB: Int?
    /// The data for this size, built once per scenario and size outside the timed region.
    public let data: () -> SchoolData

    public init(strategy: StrategyID, variant: Variant, size: Int, parameters: [String: Double], seed: UInt64,
                location: StoreLocation, options: StoreOptions, data: @escaping () -> SchoolData, trace: ((String) -> Void)? = nil,
                traceLevel: Int = 2, traceExact: Bool = false) {
        self.strategy = strategy
        self.variant = variant
        self.size = size
        self.parameters = parameters
        self.seed = seed
        self.location = location
        self.options = options
        self.data = data
        self.trace = trace
        self.traceLevel = traceLevel
        self.traceExact = traceExact
    }
    /// Where `bench explain` wants every SQL statement, in Core Data's SQLDebug shape; nil otherwise.
    public var trace: ((String) -> Void)?
    /// Provides the school a repetition starts from: filled once per scenario, strategy and size by `fill`
    /// (untimed), each repetition then getting a fresh copy of that database. Set by the runner; without it
    /// the school is opened and filled on the spot.
    public var preparedSchoolProvider: ((RepetitionInput, SchoolRelationship, (SchoolStore, SchoolData) throws -> Void) throws -> SchoolStore)?
    public var traceLevel = 2
    /// Trace statements as Core Data's SQLDebug log writes them (spacing and annotations), not compacted.
    public var traceExact = false
    /// Where ObjectGraph logs its statements for the N+1 detector; nil in measured runs.
    package var statementLog: StatementLog?

    public func parameter(_ name: String) -> Int { Int(parameters[name] ?? 0) }
    public func number(_ name: String) -> Double { parameters[name] ?? 0 }
    public func text(_ name: String) -> String { variant[name]?.description ?? "" }

    /// The school this repetition starts from: `fill` (untimed) applied to a new database, or a fresh copy of a
    /// database it already filled for this scenario, strategy and size.
    public func preparedSchool(_ relationship: SchoolRelationship, fill: (SchoolStore, SchoolData) throws -> Void) throws -> SchoolStore {
        if let preparedSchoolProvider {
            return try withoutActuallyEscaping(fill) { try preparedSchoolProvider(self, relationship, $0) }
        }
        let school = try openSchool(relationship)
        try fill(school, data())
        school.releaseObjects()
        return school
    }

    /// Opens the school for this repetition's strategy, modelling `relationship` as the strategy says; `name`
    /// gives a second database of the repetition a file of its own, `location` another database entirely.
    /// `forReading` opens it with the read page cache instead of the bulk one.
    public func openSchool(_ relationship: SchoolRelationship, at name: String? = nil, location: StoreLocation? = nil,
                           forReading: Bool = false) throws -> SchoolStore {
        var location = location ?? self.location
        var options = self.options
        if forReading { options.pageCacheKiB = readPageCacheKiB }
        if let name, case let .file(path) = location { location = .file(path + "-" + name) }
        guard let schoolModelling = strategy.modelling, let modelling = SchoolModelling(schoolModelling, relationship: relationship) else {
            throw BenchError.invalidInput("strategy \(strategy) does not model the \(relationship.rawValue) relationship")
        }
        switch strategy.implementation {
        case .rawSQLite:
            let school = try RawSQLiteSchool(modelling: modelling, location: location, pageCacheKiB: options.pageCacheKiB)
            if let trace { school.connection.trace(trace) }
            return school
        case .grdb:
            return try makeGRDBSchool(schoolModelling, relationship: relationship, location: location,
                                      pageCacheKiB: options.pageCacheKiB, trace: trace)
        case .objectGraph:
            let school = try ObjectGraphSchool(modelling: modelling, location: location, options: options)
            if let trace { school.store.sqlTrace = SQLTrace(level: traceLevel, exact: traceExact, sink: trace) }
            if let statementLog { school.store.logStatements(into: statementLog) }
            school.extraStatementPerOwner = Injection.current.extraStatementStrategy == strategy
            return school
        case .sqlReplay:
            throw BenchError.invalidInput("sql-replay runs declared scenarios only, not the school's workloads")
        }
    }
}

/// Every workload, by name.
public enum Workloads {
    public static let all: [any Workload.Type] = [
        InsertWorkload.self, QueryWorkload.self, FaultingWorkload.self, FindMemberWorkload.self,
        PrefetchWorkload.self, BatchSizeWorkload.self, DataLossWorkload.self,
    ]

    public static func named(_ name: String) -> (any Workload.Type)? { all.first { $0.spec.name == name } }
}
