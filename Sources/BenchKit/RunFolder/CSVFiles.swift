import CSV
import Foundation

/// Reading and writing the CSV reports (RFC 4180, through CSV.swift); files are replaced atomically.
package enum CSVFiles {
    /// The CSV text of `rows` under `header` (no header line when `header` is nil), every line ending in a newline
    /// so that encoded chunks can be appended to each other.
    ///
    /// Written here rather than with CSV.swift's writer, which the profile showed spending most of a smoke run
    /// quoting fields through Foundation: RFC 4180 quoting is one scan per field.
    package static func encode(header: [String]?, rows: [[String]]) throws -> String {
        var text = ""
        if let header { appendLine(header, to: &text) }
        for row in rows { appendLine(row, to: &text) }
        return text
    }

    private static func appendLine(_ fields: [String], to text: inout String) {
        for (index, field) in fields.enumerated() {
            if index > 0 { text.append(",") }
            if field.utf8.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }) {
                text.append("\"")
                text.append(field.replacingOccurrences(of: "\"", with: "\"\""))
                text.append("\"")
            } else {
                text.append(field)
            }
        }
        text.append("\n")
    }

    /// One row of a CSV file, by the header's column names: every column the reader expected is there (a column the
    /// file lacks is refused before any row is read), so a field reads as its text.
    package struct Row: Sendable {
        let fields: [String: String]

        /// The field of `column`; empty for a column the header does not have.
        package subscript(_ column: String) -> String { fields[column] ?? "" }

        /// The field of a column the file may lack (one an older report did not write).
        package func field(_ column: String) -> String? { fields[column] }
    }

    /// The rows of CSV text, each keyed by the header's column names; `expected` columns must all be present.
    package static func decode(_ text: String, expected: [String], file: String) throws -> [Row] {
        let reader: CSVReader
        // A spreadsheet's "CSV UTF-8" starts with a byte order mark, which would stick to the first column's name.
        let text = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        do {
            reader = try CSVReader(string: text, hasHeaderRow: true)
        } catch {
            throw BenchError.invalidInput("\(file): not a CSV file (\(error))")
        }
        let header = reader.headerRow ?? []
        if let duplicate = header.enumerated().first(where: { header[..<$0.offset].contains($0.element) })?.element {
            throw BenchError.invalidInput("\(file): the header names column '\(duplicate)' twice; is it a RelBench report?")
        }
        let missing = expected.filter { !header.contains($0) }
        guard missing.isEmpty else {
            throw BenchError.invalidInput("\(file): missing column(s) \(missing.joined(separator: ", ")); is it a RelBench report?")
        }
        var rows: [Row] = []
        while let row = reader.next() {
            guard row.count == header.count else {
                throw BenchError.invalidInput("\(file): line \(rows.count + 2) has \(row.count) fields, the header \(header.count)")
            }
            rows.append(Row(fields: Dictionary(uniqueKeysWithValues: zip(header, row))))
        }
        // Every row the reports write ends in a newline: a last row without one was cut short, even with all its fields.
        if !rows.isEmpty && !text.hasSuffix("\n") {
            throw BenchError.invalidInput(
                "\(file): line \(rows.count + 1) is cut short (the file does not end with a newline); is it damaged, or still being written?"
            )
        }
        return rows
    }
}
