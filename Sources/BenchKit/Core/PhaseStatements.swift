import Foundation
import ObjectGraph
import SQLDebugLog

/// The statements one phase of one variant ran on ObjectGraph at one size, by fingerprint (the SQL with its values
/// normalised, as `bench log` fingerprints a device's log): how many times each ran and the rows they returned.
/// Deterministic like the counters; what verdicts read to tell whether two arms ran the same SQL, and what compare
/// reads to say which statements a regression added.
package struct PhaseStatements: Sendable, Equatable {
    package struct Key: Hashable, Sendable, Comparable {
        package let scenario: ScenarioName
        package let variant: Variant
        package let size: Int
        package let phase: PhaseName

        package init(scenario: ScenarioName, variant: Variant, size: Int, phase: PhaseName) {
            self.scenario = scenario
            self.variant = variant
            self.size = size
            self.phase = phase
        }

        package static func < (lhs: Key, rhs: Key) -> Bool {
            (lhs.scenario, lhs.variant.description, lhs.size, lhs.phase) < (rhs.scenario, rhs.variant.description, rhs.size, rhs.phase)
        }
    }

    /// One fingerprint's statements, the rows they returned, and SQLite's plan for it (`plan:` lines joined by
    /// ` | `; empty for a statement without one).
    package struct Use: Sendable, Equatable {
        package var statements: Int
        package var rows: Int
        package var plan: String = ""
    }

    package let key: Key
    package var fingerprints: [String: Use]

    package init(key: Key, fingerprints: [String: Use]) {
        self.key = key
        self.fingerprints = fingerprints
    }

    /// The statements of a phase's log, by fingerprint, with `plan` giving each distinct statement's plan.
    package init(key: Key, log: [StatementLog.Entry], plan: (String) -> [String]) {
        self.key = key
        var fingerprints: [String: Use] = [:]
        for entry in log {
            let fingerprint = Fingerprint.of(entry.sql)
            if fingerprints[fingerprint] == nil {
                let lines = entry.isExec || Self.isBookkeeping(fingerprint) ? [] : plan(entry.sql)
                let steps = lines.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.hasPrefix("(no query plan") }
                fingerprints[fingerprint] = Use(statements: 0, rows: 0, plan: steps.joined(separator: " | "))
            }
            fingerprints[fingerprint]?.statements += 1
            fingerprints[fingerprint]?.rows += entry.rows
        }
        self.fingerprints = fingerprints
    }

    /// Transactions and pragmas: SQLite plans nothing for them.
    private static func isBookkeeping(_ fingerprint: String) -> Bool {
        let head = fingerprint.prefix { $0 != " " }.uppercased()
        return ["BEGIN", "COMMIT", "ROLLBACK", "PRAGMA", "SAVEPOINT", "RELEASE"].contains(head)
    }

    package var statements: Int { fingerprints.values.reduce(0) { $0 + $1.statements } }
    package var rows: Int { fingerprints.values.reduce(0) { $0 + $1.rows } }

    /// The work the phase gives SQLite: each statement's shape and plan with table, column, index and alias names
    /// masked (`ZCLASS`, `Z3STUDENTS`, `ZSTUDENT_ZCLASS_INDEX`, `t0`), with how often it ran and the rows it
    /// returned. Two modellings that run the same statements on differently named, equally indexed columns do the
    /// same work; a scan where the other searches an index does not.
    package var work: [String: Use] {
        var work: [String: Use] = [:]
        for (fingerprint, use) in fingerprints {
            let plan = Self.shape(use.plan)
            let shape = Self.shape(fingerprint) + (plan.isEmpty ? "" : "  [" + plan + "]")
            work[shape, default: Use(statements: 0, rows: 0, plan: plan)].statements += use.statements
            work[shape]?.rows += use.rows
        }
        return work
    }

    /// `SELECT 0, t0.Z_PK FROM ZSTUDENT t0 WHERE t0.ZCLASS = ?` as `SELECT 0, N.N FROM N N WHERE N.N = ?`.
    package static func shape(_ fingerprint: String) -> String {
        var out = ""
        var word = ""
        func flush() {
            guard !word.isEmpty else { return }
            let isName = word.hasPrefix("Z") || word.hasPrefix("_Z") || (word.first == "t" && word.dropFirst().allSatisfy(\.isNumber))
            out += isName ? "N" : word
            word = ""
        }
        for character in fingerprint {
            if character.isLetter || character.isNumber || character == "_" {
                word.append(character)
            } else {
                flush()
                out.append(character)
            }
        }
        flush()
        return out
    }
}
