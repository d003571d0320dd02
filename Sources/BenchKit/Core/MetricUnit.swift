import Foundation

/// The unit of a metric's values: what samples.csv's `unit` column holds, and the one place a value is written for a
/// reader.
package enum MetricUnit: String, CaseIterable, Codable, Sendable {
    case milliseconds = "ms"
    case bytes
    case ratio
    case instructions
    /// A number of things (statements, faults, rows, objects, links, saves).
    case count

    /// How a value is written.
    package enum Style: Sendable {
        /// Three significant digits with the unit (`12.3 ms`, `4.56 MiB`, `12.3M` instructions, counts whole): tables.
        case quantity
        /// A sentence's value: `12.3 ms`, `4.1 MiB`, `2,001 sql statements` (a count or instructions with the
        /// metric's name): a verdict's evidence.
        case evidence
    }

    /// `value` in `style`; `name` is what a count is a count of (`sql statements`).
    package func format(_ value: Double, _ style: Style, name: String) -> String {
        switch (self, style) {
        case (.milliseconds, .quantity): return formatSignificant(value) + " ms"
        case (.milliseconds, .evidence): return String(format: value < 10 ? "%.3g ms" : "%.1f ms", value)
        case (.bytes, .quantity):
            return abs(value) >= 1_048_576 ? formatSignificant(value / 1_048_576) + " MiB" : formatSignificant(value / 1024) + " KiB"
        case (.bytes, .evidence):
            return abs(value) < 1_048_576 ? String(format: "%.0f KiB", value / 1024) : String(format: "%.1f MiB", value / 1_048_576)
        case (.ratio, .quantity): return formatSignificant(value)
        case (.ratio, .evidence): return String(format: "%.4f", value)
        case (.instructions, .quantity): return abs(value) >= 1_000_000 ? formatSignificant(value / 1_000_000) + "M" : formatCount(value)
        case (.count, .quantity): return value == value.rounded() ? formatCount(value) : formatSignificant(value)
        case (.instructions, .evidence), (.count, .evidence):
            return (value == value.rounded() ? formatCount(value) : formatNumber(value)) + " " + name
        }
    }
}

extension Metric {
    /// A value of the metric with its unit (see `MetricUnit.format`).
    package func format(_ value: Double, _ style: MetricUnit.Style) -> String {
        unit.format(value, style, name: rawValue.replacingOccurrences(of: "_", with: " "))
    }
}
