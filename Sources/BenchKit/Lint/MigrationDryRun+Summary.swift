/// What `bench lint --against --data` prints after the model's findings, and whether it passes.
extension MigrationDryRun.Report {
    /// The model findings the rows decide: whether the migration fails on them depends on the stored values (a
    /// required value added or made required, a uniqueness constraint added), so a dry run that finds no failing row
    /// answers them for this store.
    package static func isDecidedByRows(_ finding: ModelLint.Finding) -> Bool {
        guard finding.kind == .migration else { return false }
        return finding.message.hasPrefix("added as required") || finding.message.hasPrefix("optional becomes required")
            || (finding.message.hasPrefix("uniqueness constraints change from")
                && finding.message.contains("the migration fails on rows that already share values"))
    }

    /// Passes when no row fails and lightweight migration can infer the mapping, and every model finding is one the
    /// rows decided.
    package func passes(modelFindings: [ModelLint.Finding]) -> Bool {
        refusal == nil && findings.isEmpty && modelFindings.allSatisfy(Self.isDecidedByRows)
    }

    /// The dry run's lines: warnings, what was migrated, each failing rule, and the verdict.
    package func summary(modelFindings: [ModelLint.Finding]) -> [String] {
        var out = warnings.map { "warning: \($0)" }
        if let refusal { return out + ["dry run: \(refusal)."] }
        if let skipped { return out + ["dry run: \(skipped)."] }
        out += lines
        out += findings.map(\.description)
        let decided = modelFindings.filter(Self.isDecidedByRows).count
        let standing = modelFindings.count - decided
        if findings.isEmpty {
            var verdict = "dry run: the rows migrate cleanly, no rule of the newer model fails on them"
            if decided > 0 {
                verdict +=
                    "; \(decided == 1 ? "the finding" : "the \(decided) findings") above about required values or uniqueness \(decided == 1 ? "does" : "do") not fail on these rows"
            }
            if standing > 0 {
                verdict +=
                    "; \(standing == 1 ? "1 finding" : "\(standing) findings") above \(standing == 1 ? "stands" : "stand") whatever the rows"
            }
            out.append(verdict)
        } else {
            out.append(
                "dry run: \(counted(findings.count, "rule")) of the newer model \(findings.count == 1 ? "fails" : "fail") on the rows")
        }
        return out
    }
}
