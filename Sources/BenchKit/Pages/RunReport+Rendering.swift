import Foundation
import SQLDebugLog

/// report.md and report.html from one outline: the same sections, headings and tables in both.
extension RunReport {
    /// A section of the page: a heading, paragraphs, tables, images and a collapsed list.
    enum Block {
        case heading(Int, String)
        case paragraph(String)
        case table(header: [String], rows: [[String]])
        case image(path: String, caption: String)
        case collapsed(summary: String, items: [String])
        case collapsedTable(summary: String, header: [String], rows: [[String]])
        case list([String])
        /// Items that each start with a bold lead (where the item belongs), then the text.
        case ledList([(lead: String, text: String)])
    }

    /// The page: the model's lint by severity (a `--model` run), what the run measured (the user's scenarios first,
    /// each headlined, its setup apart), then, where the run measured the user's own scenarios, the advice with the
    /// variant each finding belongs to before the verdicts; the claims it did not measure collapse at the end.
    var outline: [Block] {
        var blocks: [Block] = [
            .heading(1, "RelBench run \((folder as NSString).lastPathComponent)"),
            .paragraph(facts),
            .paragraph(VerdictReport.fidelity),
        ]
        blocks += lintBlocks
        blocks.append(.heading(2, "What this run measured"))
        let plots = self.plots
        // A run of the user's own scenarios shows its plots after the advice, so that the phases' table is followed
        // by what to change rather than by charts several screens long.
        let usersFirst = measuresTheUsersScenarios
        var figures: [Block] = []
        let work = FirstScreen.work(statements)
        for scenario in orderedScenarios {
            blocks.append(.heading(3, scenario.name.rawValue))
            blocks.append(.paragraph("\(scenario.description) (model: \(scenario.modelSource))"))
            let values = Dictionary(grouping: samples.filter { $0.key.scenario == scenario.name }, by: \.key).mapValues {
                $0.compactMap(\.value)
            }
            let setup = FirstScreen.setupPhases(scenario)
            if let headline = FirstScreen.headline(
                scenario.name, values: values, work: work, setup: setup, pointedAt: FirstScreen.pointedAt(advice, scenario.name))
            {
                blocks.append(.paragraph("At a glance: \(headline)."))
            }
            if let size = largestSize(scenario.name) {
                // Strategy and size are the paragraph's (ObjectGraph, the largest size); the variant column only where
                // the scenario has variants.
                let largest = rows(scenario.name, size: size, strategy: .objectGraph)
                let kept = largest.header.indices.filter { index in
                    ![0, 2].contains(index) && (index != 1 || !scenario.axes.isEmpty)
                }
                func columns(_ row: [String]) -> [String] { kept.map { row[$0] } }
                let own = largest.rows.filter { !setup.contains(PhaseName($0[3])) }.map(columns)
                let apart = largest.rows.filter { setup.contains(PhaseName($0[3])) }.map(columns)
                blocks.append(
                    .paragraph(
                        "ObjectGraph at size \(formatCount(size)), each \(setup.isEmpty ? "phase" : "measured phase") of each variant (× floor: its time over the same SQL replayed):"
                    ))
                blocks.append(.table(header: columns(largest.header), rows: own))
                if !apart.isEmpty {
                    let names = setup.map(\.rawValue).sorted().joined(separator: ", ")
                    blocks.append(
                        .collapsedTable(
                            summary: "the setup (\(names)): \(setup.count == 1 ? "it fills" : "they fill") the store the phases above read",
                            header: columns(largest.header), rows: apart))
                }
            }
            let all = rows(scenario.name)
            blocks.append(
                .collapsedTable(summary: "every series of \(scenario.name) (\(all.rows.count) rows)", header: all.header, rows: all.rows))
            blocks.append(.paragraph(SummaryTable.memoryLegend.replacingOccurrences(of: "process peak MiB:", with: "Process peak (MiB):")))
            let notes = PhaseNotes.notes(summary, scenarios: [scenario])
            if !notes.isEmpty { blocks.append(.list(notes.map { "Note: \($0)" })) }
            let described = scenario.phaseDescriptions.filter { phase in all.rows.contains { $0[3] == phase.name.rawValue } }
            if !described.isEmpty {
                blocks.append(.collapsed(summary: "What each phase covers", items: described.map { "\($0.name): \($0.description)" }))
            }
            // scripts/plot.py draws bars per phase where one size ran, lines against size otherwise, and splits a
            // chart taller than about 1,900 px into parts `-2`, `-3`, ...
            let sizes = Set(summary.filter { $0.key.scenario == scenario.name }.map(\.key.size))
            let timeCaption = sizes.count == 1 ? "time per phase at size \(formatCount(sizes.first ?? 0))" : "time against size"
            let statementsCaption = "statements and faults at size \(formatCount(sizes.max() ?? 0))"
            for (stem, caption) in [("time-\(scenario.name)", timeCaption), ("statements-\(scenario.name)", statementsCaption)]
            where plots.contains(stem) {
                let parts = [stem] + Array((2...).lazy.map { "\(stem)-\($0)" }.prefix(while: plots.contains))
                for (index, part) in parts.enumerated() {
                    let of = parts.count > 1 ? " (part \(index + 1) of \(parts.count))" : ""
                    let image = Block.image(path: "plots/\(part).png", caption: "\(scenario.name): \(caption)\(of)")
                    if usersFirst { figures.append(image) } else { blocks.append(image) }
                }
            }
        }
        let losses = summary.filter { $0.key.metric == .lossRate }
        if !losses.isEmpty {
            var byKey: [SeriesKey: SummaryRow] = [:]
            for row in summary { byKey[row.key] = row }
            func value(_ key: SeriesKey, _ metric: Metric) -> String {
                byKey[key.with(metric)]?.summary.map { formatNumber($0.median) } ?? "-"
            }
            blocks.append(.heading(2, "Data loss"))
            blocks.append(
                .paragraph(
                    "The memberships each series saved against those a new context read back (a to-many without inverse keeps one owner per member)."
                ))
            blocks.append(
                .table(
                    header: ["scenario", "strategy", "variant", "size", "phase", "links intended", "persisted", "lost", "loss rate"],
                    rows: losses.map { row in
                        [
                            row.key.scenario.rawValue, row.key.strategy.rawValue,
                            row.key.variant.isEmpty ? "-" : row.key.variant.description,
                            formatCount(row.key.size), row.key.phase.rawValue, value(row.key, .linksIntended),
                            value(row.key, .linksPersisted),
                            value(row.key, .linksLost), row.summary.map { String(format: "%.4f", $0.median) } ?? "-",
                        ]
                    }))
        }
        // A run of the user's own scenarios is read for its advice first; a run of the built-in ones for its verdicts.
        let advised = adviceBlocks
        if usersFirst {
            blocks += advised
            if !figures.isEmpty { blocks += [.heading(2, "Plots")] + figures }
        }
        if !decided.isEmpty || !undecided.isEmpty || !usersFirst {
            blocks.append(.heading(2, "Verdicts this run decided"))
            if decided.isEmpty {
                blocks.append(.paragraph("None: the run measured no scenario a claim rests on, or too little of it."))
            } else {
                blocks.append(
                    .table(
                        header: ["verdict", "claim", "source", "evidence", "rests on"],
                        rows: decided.map { verdict in
                            [
                                verdict.label, verdict.claim.statement,
                                verdict.claim.source.citation + (verdict.claim.source.url.map { " <\($0)>" } ?? ""),
                                (verdict.evidence + (verdict.outcome.reason.map { ["why: \($0)"] } ?? [])).joined(separator: "\n"),
                                verdict.basis,
                            ]
                        }))
            }
            if !undecided.isEmpty {
                blocks.append(
                    .paragraph(
                        "\(counted(undecided.count, "claim")) \(undecided.count == 1 ? "needs" : "need") a larger run: "
                            + undecided.map { "\($0.claim.id) (`\($0.command ?? "")`)" }.joined(separator: ", ")
                    ))
            }
        }
        if !usersFirst { blocks += advised }
        if !unmeasured.isEmpty {
            blocks.append(
                .collapsed(
                    summary: "\(counted(unmeasured.count, "claim")) not measured by this run",
                    items: unmeasured.map { "\($0.claim.id): \($0.claim.statement) (`\($0.command ?? "")`)" }))
        }
        return blocks
    }

    /// The lint of each model the run's suites were generated from: its counts, the problems and the risks each with
    /// subject and fix, the suggestions collapsed.
    private var lintBlocks: [Block] {
        var blocks: [Block] = []
        for model in lint {
            blocks.append(.heading(2, "Lint of the model: \(model.counts)"))
            blocks.append(.paragraph("`bench lint` of \(model.heading), as the run read it (lint.txt):"))
            for severity in [FindingSeverity.problem, .risk] {
                let findings = model.findings(severity)
                guard !findings.isEmpty else { continue }
                blocks.append(.heading(3, "\(severity == .problem ? "Problems" : "Risks") (\(findings.count))"))
                blocks.append(.paragraph(severity == .problem ? Self.problemMeaning : Self.riskMeaning))
                blocks.append(.table(header: ["subject", "rule", "finding", "fix"], rows: findings.map(Self.lintRow)))
            }
            let suggestions = model.findings(.suggestion)
            if !suggestions.isEmpty {
                blocks.append(
                    .collapsedTable(
                        summary: "\(counted(suggestions.count, "suggestion")): guesses about how the app uses the model",
                        header: ["subject", "rule", "finding", "fix"], rows: suggestions.map(Self.lintRow)))
            }
        }
        return blocks
    }

    static func lintRow(_ finding: ModelLint.Finding) -> [String] {
        [finding.subject, finding.rule.rawValue, finding.message, finding.fix]
    }

    static let problemMeaning = "A save or a migration fails, or data is lost."
    static let riskMeaning = "Likely slow or fragile as the data grows."

    /// The advice, each finding with the scenario, variant, strategy and size it belongs to.
    private var adviceBlocks: [Block] {
        guard !advice.isEmpty else { return [] }
        return [
            .heading(2, "N+1 advice"),
            .ledList(advice.map { AdviceLines.pageItem($0, among: advice, summary: summary) }),
        ]
    }

    package var markdown: String {
        var lines: [String] = []
        for block in outline {
            switch block {
            case let .heading(level, text): lines += [String(repeating: "#", count: level) + " " + text, ""]
            case let .paragraph(text): lines += [text, ""]
            case let .table(header, rows):
                lines.append("| " + header.map(cell).joined(separator: " | ") + " |")
                lines.append("|" + header.map { _ in "---|" }.joined())
                for row in rows { lines.append("| " + row.map(cell).joined(separator: " | ") + " |") }
                lines.append("")
            case let .image(path, caption): lines += ["![\(caption)](\(path))", ""]
            case let .collapsed(summary, items):
                lines += ["<details><summary>\(summary)</summary>", ""] + items.map { "- \($0)" } + ["", "</details>", ""]
            case let .list(items): lines += items.map { "- \($0)" } + [""]
            case let .ledList(items): lines += items.map { "- **\($0.lead)**: \($0.text)" } + [""]
            case let .collapsedTable(summary, header, rows):
                lines += ["<details><summary>\(summary)</summary>", ""]
                lines.append("| " + header.map(cell).joined(separator: " | ") + " |")
                lines.append("|" + header.map { _ in "---|" }.joined())
                for row in rows { lines.append("| " + row.map(cell).joined(separator: " | ") + " |") }
                lines += ["", "</details>", ""]
            }
        }
        return lines.joined(separator: "\n")
    }

    package var html: String {
        var body: [String] = []
        for block in outline {
            switch block {
            case let .heading(level, text): body.append("<h\(level)>\(escape(text))</h\(level)>")
            case let .paragraph(text): body.append("<p>\(inline(text))</p>")
            case let .table(header, rows):
                body.append(
                    "<div class=\"scroll\"><table><thead><tr>" + header.map { "<th>\(escape($0))</th>" }.joined() + "</tr></thead><tbody>")
                for row in rows {
                    body.append(
                        "<tr>" + row.map { "<td>\(escape($0).replacingOccurrences(of: "\n", with: "<br>"))</td>" }.joined() + "</tr>")
                }
                body.append("</tbody></table></div>")
            case let .image(path, caption):
                body.append(
                    "<figure><img src=\"\(escape(path))\" alt=\"\(escape(caption))\"><figcaption>\(escape(caption))</figcaption></figure>")
            case let .collapsed(summary, items):
                body.append(
                    "<details><summary>\(escape(summary))</summary><ul>" + items.map { "<li>\(inline($0))</li>" }.joined()
                        + "</ul></details>")
            case let .list(items): body.append("<ul>" + items.map { "<li>\(escape($0))</li>" }.joined() + "</ul>")
            case let .ledList(items):
                body.append("<ul>" + items.map { "<li><strong>\(escape($0.lead))</strong>: \(escape($0.text))</li>" }.joined() + "</ul>")
            case let .collapsedTable(summary, header, rows):
                body.append("<details><summary>\(escape(summary))</summary>")
                body.append(
                    "<div class=\"scroll\"><table><thead><tr>" + header.map { "<th>\(escape($0))</th>" }.joined() + "</tr></thead><tbody>")
                for row in rows { body.append("<tr>" + row.map { "<td>\(escape($0))</td>" }.joined() + "</tr>") }
                body.append("</tbody></table></div></details>")
            }
        }
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>RelBench run \(escape((folder as NSString).lastPathComponent))</title>
            <style>
            body { font: 14px/1.45 -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; margin: 2em auto; max-width: 1200px; padding: 0 1em; color: #1f2328; }
            h1 { font-size: 1.6em; } h2 { border-bottom: 1px solid #d0d7de; padding-bottom: .2em; margin-top: 1.6em; }
            table { border-collapse: collapse; font-size: 12.5px; } th, td { border: 1px solid #d0d7de; padding: 3px 7px; text-align: left; vertical-align: top; }
            th { background: #f6f8fa; } .scroll { overflow-x: auto; } code { background: #f6f8fa; padding: 0 .3em; }
            figure { margin: 1em 0; } img { max-width: 100%; border: 1px solid #d0d7de; } figcaption { color: #57606a; font-size: 12px; }
            details { margin: .8em 0; } summary { cursor: pointer; }
            </style></head><body>
            \(body.joined(separator: "\n"))
            </body></html>

            """
    }

    /// Writes report.md and report.html into the run folder.
    package func write() throws {
        try AtomicFile.write(markdown, to: (folder as NSString).appendingPathComponent("report.md"))
        try AtomicFile.write(html, to: (folder as NSString).appendingPathComponent("report.html"))
    }

    private func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: "<br>")
    }

    private func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(
            of: ">", with: "&gt;"
        )
        .replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// Escaped text with `code` spans.
    private func inline(_ text: String) -> String {
        let parts = escape(text).components(separatedBy: "`")
        return parts.enumerated().map { $0.offset % 2 == 1 ? "<code>\($0.element)</code>" : $0.element }.joined()
    }
}
