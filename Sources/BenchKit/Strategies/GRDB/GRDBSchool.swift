import ObjectGraph

/// The school on GRDB.swift (placeholder until the GRDB peer lands).
public final class GRDBSchool: SchoolStore {
    public init(location: StoreLocation, pageCacheKiB: Int?, trace: ((String) -> Void)? = nil) throws {
        throw BenchError.unsupported("the grdb strategy")
    }
    public func readings() -> CounterReadings { CounterReadings() }
    public func releaseObjects() {}
}
