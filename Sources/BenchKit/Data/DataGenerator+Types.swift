import ObjectGraph

/// Which generators suit which attribute types, decided by what each one makes for the attribute and whether
/// ObjectGraph stores that (`Value.fits`), so that a mismatch stops at load instead of failing mid-run.
extension DataGenerator {
    /// Why `generator` cannot fill `attribute`, naming the generators that can; nil when it can.
    static func mismatch(_ generator: DataSpec.Generator, _ attribute: AttributeDescription, entity: String) -> String? {
        let type = attribute.type.xcodeName
        let made = sample(generator, attribute, entity: entity)
        if made.isNull, case let .constant(text) = generator {
            guard !text.isEmpty || !attribute.isOptional else { return nil }
            let parses = !sample(.constant("1"), attribute, entity: entity).isNull
            return (parses ? "\"\(text)\" is not \(withArticle(type)) value" : "'constant' makes no \(type) values")
                + "; use \(suitable(for: attribute, entity: entity))"
        }
        if case let .constant(text) = generator, let problem = outOfRange(made, attribute) {
            return "\"\(text)\" \(problem); give a value within it"
        }
        guard !made.isNull, !made.fits(attribute.type) else { return nil }
        return "'\(generator.keyword)' makes \(made.kindName) values, which \(withArticle(type)) attribute cannot hold; "
            + "use \(suitable(for: attribute, entity: entity))"
    }

    /// What is wrong with a constant number for `attribute`: beyond its type's range or its own minimum and maximum
    /// (a Float compared as stored, rounded to Float, as Core Data's validation compares it).
    private static func outOfRange(_ value: Value, _ attribute: AttributeDescription) -> String? {
        if let problem = beyondType(value, attribute.type) { return problem }
        guard var number = number(value) else { return nil }
        if attribute.type == .float { number = Double(Float(number)) }
        if let minimum = attribute.validation.minimum, number < minimum { return "is below the attribute's minimum \(minimum)" }
        if let maximum = attribute.validation.maximum, number > maximum { return "is above the attribute's maximum \(maximum)" }
        return nil
    }

    /// What keeps a number out of an attribute of `type`: beyond an Integer 16 or 32's range or a Float's, or not
    /// a number at all (NaN); nil when it fits.
    static func beyondType(_ value: Value, _ type: AttributeType) -> String? {
        guard let number = number(value) else { return nil }
        let bounds: (Double, Double)?
        switch type {
        case .int16: bounds = (Double(Int16.min), Double(Int16.max))
        case .int32: bounds = (Double(Int32.min), Double(Int32.max))
        case .float: bounds = (-Double(Float.greatestFiniteMagnitude), Double(Float.greatestFiniteMagnitude))
        case .double, .decimal: bounds = (-Double.greatestFiniteMagnitude, Double.greatestFiniteMagnitude)
        default: bounds = nil
        }
        guard let (low, high) = bounds else { return nil }
        if number.isNaN || number < low || number > high { return "is beyond \(withArticle(type.xcodeName))'s range" }
        return nil
    }

    private static func number(_ value: Value) -> Double? {
        switch value {
        case let .int(integer): return Double(integer)
        case let .double(double): return double
        default: return nil
        }
    }

    /// The first value `generator` makes for `attribute`, from a fixed seed.
    private static func sample(_ generator: DataSpec.Generator, _ attribute: AttributeDescription, entity: String) -> Value {
        var random = SplitMix64(seed: 1)
        return value(generator, attribute, entity: entity, index: 0, random: &random)
    }

    /// "name, words or text": the generators whose values `attribute` holds.
    private static func suitable(for attribute: AttributeDescription, entity: String) -> String {
        let names = DataSpec.Generator.oneOfEach.filter {
            let made = sample($0, attribute, entity: entity)
            return !made.isNull && made.fits(attribute.type)
        }.map(\.keyword)
        guard let last = names.last else { return "no generator (leave it out: the type's default applies)" }
        return names.count == 1 ? last : names.dropLast().joined(separator: ", ") + " or " + last
    }
}

extension DataSpec.Generator {
    /// The generator's key in a data section.
    var keyword: String {
        switch self {
        case .name: return "name"
        case .words: return "words"
        case .text: return "text"
        case .integer: return "integer"
        case .number: return "number"
        case .date: return "date"
        case .bool: return "bool"
        case .bytes: return "bytes"
        case .uuid: return "uuid"
        case .uri: return "uri"
        case .sequence: return "sequence"
        case .constant: return "constant"
        }
    }

    /// One generator of each kind, in the order the documentation lists them.
    static let oneOfEach: [Self] = [
        .name(prefix: nil), .words(1, 2), .text(8, 16), .integer(0, 9), .number(0, 1),
        .date(0, 86_400), .bool(0.5), .bytes(1, 2), .uuid, .uri, .sequence, .constant("1"),
    ]
}
