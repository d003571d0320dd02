import Foundation

/// statements.csv: one row per (scenario, variant, size, phase, fingerprint) that ObjectGraph ran, from the untimed
/// pass that also gives `sql-replay` its statements.
package enum StatementsFile {
    package static let columns = ["scenario", "variant", "size", "phase", "fingerprint", "statements", "rows", "plan"]

    package static func encode(_ phases: [PhaseStatements]) throws -> String {
        var rows: [[String]] = []
        for phase in phases.sorted(by: { $0.key < $1.key }) {
            for (fingerprint, use) in phase.fingerprints.sorted(by: { $0.key < $1.key }) {
                let key = phase.key
                rows.append([
                    key.scenario.rawValue, key.variant.description, String(key.size), key.phase.rawValue, fingerprint,
                    String(use.statements), String(use.rows), use.plan,
                ])
            }
        }
        return try CSVFiles.encode(header: columns, rows: rows)
    }

    package static func decode(_ text: String, file: String) throws -> [PhaseStatements] {
        var phases: [PhaseStatements.Key: [String: PhaseStatements.Use]] = [:]
        for (index, row) in try CSVFiles.decode(text, expected: columns, file: file).enumerated() {
            guard let size = Int(row["size"]), size >= 0, let statements = Int(row["statements"]), statements >= 0,
                let rows = Int(row["rows"]), rows >= 0, let variant = Variant(parsing: row["variant"])
            else {
                throw BenchError.invalidInput("\(file): line \(index + 2): size, statements and rows must be whole numbers of 0 or more")
            }
            let key = PhaseStatements.Key(
                scenario: ScenarioName(row["scenario"]), variant: variant, size: size, phase: PhaseName(row["phase"]))
            phases[key, default: [:]][row["fingerprint"]] = PhaseStatements.Use(statements: statements, rows: rows, plan: row["plan"])
        }
        return phases.map { PhaseStatements(key: $0.key, fingerprints: $0.value) }.sorted { $0.key < $1.key }
    }

    /// The statements of the run folder at `folder`; empty for a run made before they were recorded.
    package static func load(folder: String) throws -> [PhaseStatements] {
        let path = (folder as NSString).appendingPathComponent("statements.csv")
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        guard let data = FileManager.default.contents(atPath: path) else { throw BenchError.invalidInput("cannot read \(path)") }
        return try decode(String(decoding: data, as: UTF8.self), file: path)
    }
}
