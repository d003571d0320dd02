/// A plain-text table with aligned columns (numbers right-aligned).
package struct TextTable {
    package var header: [String]
    package var rows: [[String]] = []

    package init(header: [String]) { self.header = header }

    package mutating func add(_ row: [String]) { rows.append(row) }

    package var rendered: String {
        let widths = header.indices.map { column in
            ([header[column]] + rows.map { column < $0.count ? $0[column] : "" }).map(\.count).max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                let numeric = cell.first.map { $0.isNumber || $0 == "-" } ?? false
                return numeric && column > 0 ? padding + cell : cell + padding
            }.joined(separator: "  ").trimmingTrailingSpaces()
        }
        return ([line(header), line(widths.map { String(repeating: "-", count: $0) })] + rows.map(line)).joined(separator: "\n")
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var text = self
        while text.hasSuffix(" ") { text.removeLast() }
        return text
    }
}
