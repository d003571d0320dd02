extension RunInfo {
    /// A line saying that the run at `source` did not finish (interrupted, failed, incomplete) or is still being written,
    /// and what that means for the series a reader judges; nil for a complete run.
    package func unfinishedNote(_ source: String) -> String? {
        let repetitions = "\(finishedRepetitions) of \(plannedRepetitions) repetitions finished"
        let whole = files.map { $0.isEmpty ? "" : "; whole: \($0.joined(separator: ", "))" } ?? ""
        switch status {
        case .complete: return nil
        case .running:
            return
                "\(source) is still running (a bench process is writing it, \(repetitions) so far\(whole)): its series are those measured until now"
        case .interrupted, .failed:
            return
                "\(source) is \(status.rawValue) (\(repetitions)\(whole)): its series may be fewer and hold fewer samples than a finished run's"
        case .incomplete:
            return "\(source) is incomplete (merged from shards of which one did not finish): its series may be fewer than a finished run's"
        }
    }
}
