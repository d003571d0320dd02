import Foundation

/// A value a format string's `%@`, `%d`, `%f` or `%K` (or a `$variable`) stands for: strings, numbers, dates,
/// UUIDs, data, URLs, decimals, booleans, model values, managed objects and their IDs, arrays of these, and nil.
public protocol PredicateArgument {
    /// The expression the argument becomes in the predicate.
    func predicateExpression() throws -> FetchExpression
}

extension Value: PredicateArgument {
    public func predicateExpression() -> FetchExpression { .constant(self) }
}

extension String: PredicateArgument {
    public func predicateExpression() -> FetchExpression { .constant(.string(self)) }
}

extension Int: PredicateArgument {
    public func predicateExpression() -> FetchExpression { .constant(.int(Int64(self))) }
}

extension Int64: PredicateArgument {
    public func predicateExpression() -> FetchExpression { .constant(.int(self)) }
}

extension Int32: PredicateArgument {
    public func predicateExpression() -> FetchExpression { .constant(.int(Int64(self))) }
}

extension Int16: PredicateArgument {
    public func predicateExpression() -> FetchExpression { .constant(.int(Int64(self))) }
}

extension Double: PredicateArgument {
    public func predicateExpression() -> FetchExpression { .constant(.double(self)) }
}

extension Float: PredicateArgument {
    public func predicateExpression() -> FetchExpression { .constant(.double(Double(self))) }
}

extension Bool: PredicateArgument {
    public func predicateExpression() -> FetchExpression { .constant(.bool(self)) }
}

extension Date: PredicateArgument {
    public func predicateExpression() -> FetchExpression { .constant(.date(self)) }
}

extension UUID: PredicateArgument {
    public func predicateExpression() -> FetchExpression { .constant(.uuid(self)) }
}

extension Data: PredicateArgument {
    public func predicateExpression() -> FetchExpression { .constant(.binary(self)) }
}

extension URL: PredicateArgument {
    public func predicateExpression() -> FetchExpression { .constant(.url(self)) }
}

extension Decimal: PredicateArgument {
    public func predicateExpression() -> FetchExpression { .constant(.decimal(self)) }
}

extension ObjectID: PredicateArgument {
    public func predicateExpression() -> FetchExpression { .object(self) }
}

extension ManagedObject: PredicateArgument {
    public func predicateExpression() -> FetchExpression { .object(objectID) }
}

extension Array: PredicateArgument where Element: PredicateArgument {
    public func predicateExpression() throws -> FetchExpression { .aggregate(try map { try $0.predicateExpression() }) }
}

extension Optional: PredicateArgument where Wrapped: PredicateArgument {
    public func predicateExpression() throws -> FetchExpression {
        guard let self else { return .constant(.null) }
        return try self.predicateExpression()
    }
}

/// A key path given to `%K`, or any expression built by hand.
extension FetchExpression: PredicateArgument {
    public func predicateExpression() -> FetchExpression { self }
}
