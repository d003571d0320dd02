/// What `bench lint --against --data` prints after the model's findings, and whether it passes.
extension MigrationDryRun.Report {
    /// The model findings the rows decide: whether the migration fails on them depends on the stored values (a
    /// required value added or made required, a uniqueness constraint added), so a dry run that finds no failing row
    /// answers them for this store.
    package static func isDecidedByRows(_ finding: ModelLint.Finding) -> Bool {
        switch finding.rule {
        case .migrationRequiredAttributeAdded, .migrationAttributeNowRequired, .migrationRequiredRelationshipAdded,
            .migrationRelationshipNowRequired, .migrationConstraintAdded:
            return true
        default:
            return false
        }
    }

    /// What the gate judges: the findings on the rows, and the model findings the rows do not decide (all of them
    /// when the rows were not migrated).
    package func gated(modelFindings: [ModelLint.Finding]) -> [ModelLint.Finding] {
        guard refusal == nil && skipped == nil else { return modelFindings }
        return modelFindings.filter { !Self.isDecidedByRows($0) } + findings
    }

    /// The dry run's lines: warnings, what was migrated, each failing rule (`known` ones, by fingerprint, marked as
    /// lint marks them), and the verdict.
    package func summary(modelFindings: [ModelLint.Finding], known: Set<String> = []) -> [String] {
        var out = warnings.map { "warning: \($0)" }
        if let refusal { return out + ["dry run: \(refusal)."] }
        if let skipped { return out + ["dry run: \(skipped)."] }
        out += lines
        out += ModelLint.lines(findings, known: known, suggestions: true)
        let decided = modelFindings.filter(Self.isDecidedByRows).count
        if findings.isEmpty {
            var verdict = "dry run: the rows migrate cleanly, no rule of the newer model fails on them"
            if decided > 0 {
                verdict +=
                    "; \(decided == 1 ? "the finding" : "the \(decided) findings") above about required values or uniqueness \(decided == 1 ? "does" : "do") not fail on these rows and \(decided == 1 ? "is" : "are") left out of the gate"
            }
            out.append(verdict)
        } else {
            out.append(
                "dry run: \(counted(findings.count, "rule")) of the newer model \(findings.count == 1 ? "fails" : "fail") on the rows")
        }
        return out
    }
}
