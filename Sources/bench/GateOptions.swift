import ArgumentParser
import BenchKit
import Foundation

extension SeverityGate: ExpressibleByArgument {
    public init?(argument: String) { try? self.init(parsing: argument) }

    public static var allValueStrings: [String] { ["problem", "risk", "suggestion", "all", "none"] }
}

/// `--baseline`, `--write-baseline` and `--fail-on`: the CI gate `bench lint`, `bench advise` and `bench log` share.
struct GateOptions: ParsableArguments {
    @Option(
        help:
            "A baseline file (written by --write-baseline): the findings it lists are shown as known and never fail; only new ones do.")
    var baseline: String?

    @Option(
        help: "Write every finding's fingerprint (rule, subject, severity, a short text) to this JSON file, to pass as --baseline later.")
    var writeBaseline: String?

    @Option(
        help: ArgumentHelp(
            "The severities of new findings that make the command exit 1: problem, risk, suggestion, comma-separated, or all or none (default: problem,risk).",
            valueName: "severities"),
        transform: SeverityGate.init(parsing:))
    var failOn: SeverityGate?

    func validate() throws {
        guard baseline == nil || writeBaseline == nil else {
            throw BenchError.invalidInput(
                "give --baseline (check against one) or --write-baseline (accept every finding as it is now), not both")
        }
    }

    /// Whether a gate was asked for: `bench advise` and `bench log` exit 0 on findings without one.
    var isGating: Bool { baseline != nil || failOn != nil }

    var gate: SeverityGate { failOn ?? .standard }

    /// Refuses, before any work, a baseline that cannot be read or a path that cannot be written.
    func prepare(command: String) throws -> FindingBaseline? {
        if let writeBaseline { try AtomicFile.checkWritable(writeBaseline, option: "--write-baseline") }
        return try baseline.map { try FindingBaseline.load($0, command: command) }
    }

    /// Writes the baseline when asked, prints the gate's line (when asked for one, or `always`), and exits 1 when a
    /// new finding of the gate's severities is found. Writing a baseline accepts every finding: exit 0.
    func finish<Finding: GatedFinding>(
        _ findings: [Finding], baseline: FindingBaseline?, command: String, always: Bool = false,
        to output: (String) -> Void = { print($0) }
    ) throws {
        if let writeBaseline {
            let file = FindingBaseline(command: command, findings: findings)
            try file.write(to: writeBaseline)
            output("baseline: wrote \(counted(file.findings.count, "finding")) to \(writeBaseline)")
            return
        }
        guard always || isGating else { return }
        let verdict = gate.verdict(findings, baseline: baseline)
        output(verdict.line(baseline: self.baseline))
        if verdict.fails { throw ExitCode(1) }
    }
}
