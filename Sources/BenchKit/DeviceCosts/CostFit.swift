import Foundation
import SQLDebugLog

/// Fits a device's costs to its log's timed statements by least squares, in one streaming pass and bounded memory.
///
/// Each unit is a statement with the prefetches its fetch ran (whose time the fetch's total includes): its measured
/// milliseconds against its statements by kind and the rows they read. Every fifth timed unit is held out, and
/// the fit's error is measured on those. Costs are kept non-negative (a cost that comes out negative is fixed at 0
/// and the rest refitted), and a kind no timed unit ran is not fitted: Core Data times no write or transaction.
package struct CostFit {
    static let kinds = SQLStatementKind.allCases
    /// One column per kind, then rows.
    static let width = kinds.count + 1

    /// Sums of x xᵀ, x y, x, y² and the count, over a set of units.
    struct Sums {
        var xx = [Double](repeating: 0, count: CostFit.width * CostFit.width)
        var xy = [Double](repeating: 0, count: CostFit.width)
        var x = [Double](repeating: 0, count: CostFit.width)
        var yy = 0.0
        var y = 0.0
        var count = 0

        mutating func add(_ features: [Double], _ milliseconds: Double) {
            for i in 0..<CostFit.width where features[i] != 0 {
                for j in 0..<CostFit.width { xx[i * CostFit.width + j] += features[i] * features[j] }
                xy[i] += features[i] * milliseconds
                x[i] += features[i]
            }
            yy += milliseconds * milliseconds
            y += milliseconds
            count += 1
        }
    }

    private(set) var training = Sums()
    private(set) var heldOut = Sums()
    private var pending = [Double](repeating: 0, count: CostFit.width)
    private var seenKinds = Set<SQLStatementKind>()
    private var units = 0

    package init() {}

    /// Takes the next finished statement: a prefetch waits for the fetch whose total includes it.
    package mutating func add(_ statement: FinishedStatement) {
        seenKinds.insert(statement.kind)
        // `kinds` lists every statement kind; a pivot range is never empty.
        // swift-format-ignore: NeverForceUnwrap
        let column = Self.kinds.firstIndex(of: statement.kind)!
        pending[column] += 1
        pending[Self.width - 1] += Double(statement.rows)
        guard !statement.nested else { return }
        defer { pending = [Double](repeating: 0, count: Self.width) }
        guard let seconds = statement.seconds, seconds.isFinite, seconds >= 0 else { return }
        units += 1
        if units % 5 == 0 {
            heldOut.add(pending, seconds * 1000)
        } else {
            training.add(pending, seconds * 1000)
        }
    }

    /// The fitted costs, or nil when the log timed no statement.
    package func costs(source: String) -> DeviceCosts? {
        guard training.count > 0 else { return nil }
        let coefficients = Self.solve(training)
        var statementMs: [String: Double] = [:]
        for (index, kind) in Self.kinds.enumerated() where training.x[index] > 0 {
            statementMs[kind.rawValue] = coefficients[index]
        }
        let untimed = Self.kinds.filter { seenKinds.contains($0) && statementMs[$0.rawValue] == nil }.map(\.rawValue)
        let predicted = zip(coefficients, heldOut.x).map(*).reduce(0, +)
        var squared = heldOut.yy
        for i in 0..<Self.width {
            squared -= 2 * coefficients[i] * heldOut.xy[i]
            for j in 0..<Self.width { squared += coefficients[i] * heldOut.xx[i * Self.width + j] * coefficients[j] }
        }
        let fit = DeviceCosts.Fit(
            units: training.count, heldOutUnits: heldOut.count, heldOutMeasuredMs: heldOut.y, heldOutPredictedMs: predicted,
            heldOutRMSMs: heldOut.count > 0 ? (max(0, squared) / Double(heldOut.count)).squareRoot() : 0)
        return DeviceCosts(
            source: source, statementMs: statementMs, rowMs: coefficients[Self.width - 1], untimedKinds: untimed, fit: fit)
    }

    /// Non-negative least squares over the columns the units used: solve, fix the most negative cost at 0, repeat.
    static func solve(_ sums: Sums) -> [Double] {
        var active = (0..<width).filter { sums.xx[$0 * width + $0] > 0 }
        while !active.isEmpty {
            let solution = solveNormalEquations(sums, columns: active)
            var result = [Double](repeating: 0, count: width)
            for (position, column) in active.enumerated() { result[column] = solution[position] }
            guard let worst = active.min(by: { result[$0] < result[$1] }), result[worst] < 0 else { return result }
            active.removeAll { $0 == worst }
        }
        return [Double](repeating: 0, count: width)
    }

    /// Gaussian elimination with partial pivoting on the normal equations of `columns`; a column no other column
    /// leaves independent (a pivot near 0) gets 0.
    static func solveNormalEquations(_ sums: Sums, columns: [Int]) -> [Double] {
        let n = columns.count
        var matrix = columns.map { i in columns.map { j in sums.xx[i * width + j] } + [sums.xy[i]] }
        var singular = Set<Int>()
        for pivot in 0..<n {
            // `kinds` lists every statement kind; a pivot range is never empty.
            // swift-format-ignore: NeverForceUnwrap
            let best = (pivot..<n).max { abs(matrix[$0][pivot]) < abs(matrix[$1][pivot]) }!
            matrix.swapAt(pivot, best)
            let scale = max(1, abs(matrix[pivot][pivot]))
            guard abs(matrix[pivot][pivot]) > 1e-12 * scale, matrix[pivot][pivot] != 0 else {
                singular.insert(pivot)
                continue
            }
            for row in 0..<n where row != pivot {
                let factor = matrix[row][pivot] / matrix[pivot][pivot]
                if factor == 0 { continue }
                for column in pivot...n { matrix[row][column] -= factor * matrix[pivot][column] }
            }
        }
        return (0..<n).map { singular.contains($0) ? 0 : matrix[$0][n] / matrix[$0][$0] }
    }
}
