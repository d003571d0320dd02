import Foundation
import ObjectGraph

/// The model a declared scenario runs: an Xcode model file (`.xcdatamodeld`, `.xcdatamodel` or `contents`) named by
/// a path relative to the scenario file, or a model written inline in JSON with the attribute names of Xcode's
/// `contents` file (so that both read through the same reader and mean the same thing).
struct DeclaredModel: Sendable {
    let entities: [Entity]
    /// What the reader skipped or adjusted, one line each.
    let notes: [String]
    /// Where the model came from, for messages and reports.
    let source: String
    /// The model file's path as read (nil for an inline model).
    var path: String?

    /// Loads the model `value` names, relative to the folder of `file`.
    static func load(_ value: JSONValue, file: String) throws -> DeclaredModel {
        switch value {
        case let .string(path):
            let resolved =
                path.hasPrefix("/") ? path : ((file as NSString).deletingLastPathComponent as NSString).appendingPathComponent(path)
            let model: XcodeModel
            do {
                model = try ModelSource.load(path: resolved)
            } catch let error as ObjectGraphError {
                // The scenario file names the model: a model it cannot load is a mistake in that file (64).
                throw BenchError.invalidInput("\(file): field 'model': \(error)")
            } catch let error as BenchError where error.kind == .invalidInput {
                throw error.at("\(file): field 'model'")
            }
            return DeclaredModel(entities: model.entities, notes: model.notes, source: path, path: resolved)
        case let .object(object):
            let xml = try contentsXML(object, file: file)
            let model = try XcodeModel.parse(Data(xml.utf8), path: "\(file) (inline model)")
            return DeclaredModel(entities: model.entities, notes: model.notes, source: "inline model")
        default:
            throw BenchError.invalidInput(
                "\(file): field 'model': expected a path to an Xcode model (.xcdatamodeld, .xcdatamodel or contents) or an inline model {\"entities\": [...]}, got \(value)"
            )
        }
    }

    /// Aliases accepted in inline models, for readability, with the Xcode attribute each stands for.
    static let aliases = [
        "type": "attributeType", "destination": "destinationEntity", "inverse": "inverseName",
        "deleteRule": "deletionRule", "parent": "parentEntity", "abstract": "isAbstract",
        "derivation": "derivationExpression", "default": "defaultValueString",
    ]

    /// An inline JSON model as the XML of a `contents` file.
    static func contentsXML(_ model: [String: JSONValue], file: String) throws -> String {
        func fail(_ reason: String) -> BenchError { .invalidInput("\(file): field 'model': \(reason)") }
        guard Set(model.keys) == ["entities"], let entities = model["entities"]?.array else {
            throw fail("an inline model is {\"entities\": [{\"name\": ..., \"attributes\": [...], \"relationships\": [...]}]}")
        }
        var xml = "<model type=\"com.apple.IDECoreDataModeler.DataModel\">\n"
        for (index, entityValue) in entities.enumerated() {
            guard let entity = entityValue.object else { throw fail("entities[\(index)]: expected an object, got \(entityValue)") }
            var head: [(String, String)] = []
            var children = ""
            for (key, value) in entity.sorted(by: { $0.key < $1.key }) {
                switch key {
                case "attributes", "relationships":
                    guard let list = value.array else { throw fail("entities[\(index)].\(key): expected an array") }
                    let element = key == "attributes" ? "attribute" : "relationship"
                    for (position, item) in list.enumerated() {
                        guard let fields = item.object else { throw fail("entities[\(index)].\(key)[\(position)]: expected an object") }
                        children +=
                            "  <\(element)" + (try xmlAttributes(fields) { fail("entities[\(index)].\(key)[\(position)]: \($0)") }) + "/>\n"
                    }
                case "uniquenessConstraints":
                    let groups = value.array?.compactMap { $0.array?.compactMap(\.string) } ?? []
                    guard let list = value.array, groups.count == list.count else {
                        throw fail("entities[\(index)].uniquenessConstraints: expected an array of arrays of attribute names")
                    }
                    children +=
                        "  <uniquenessConstraints>"
                        + groups.map { group in
                            "<uniquenessConstraint>" + group.map { "<constraint value=\"\(escape($0))\"/>" }.joined()
                                + "</uniquenessConstraint>"
                        }.joined() + "</uniquenessConstraints>\n"
                case "fetchIndexes":
                    guard let indexes = value.array else { throw fail("entities[\(index)].fetchIndexes: expected an array") }
                    for item in indexes {
                        guard let fields = item.object, let name = fields["name"]?.string, let elements = fields["elements"]?.array else {
                            throw fail(
                                "entities[\(index)].fetchIndexes: each is {\"name\": ..., \"elements\": [{\"property\": ..., \"order\": \"ascending\"}]}"
                            )
                        }
                        children +=
                            "  <fetchIndex name=\"\(escape(name))\">"
                            + (try elements.map { element -> String in
                                guard let fields = element.object else {
                                    throw fail("entities[\(index)].fetchIndexes: an element must be an object")
                                }
                                return "<fetchIndexElement" + (try xmlAttributes(fields) { fail("entities[\(index)].fetchIndexes: \($0)") })
                                    + "/>"
                            }.joined()) + "</fetchIndex>\n"
                    }
                default:
                    let name = aliases[key] ?? key
                    head.append((name, try xmlValue(value) { fail("entities[\(index)].\(key): \($0)") }))
                }
            }
            xml += "<entity" + head.map { " \($0.0)=\"\(escape($0.1))\"" }.joined() + ">\n" + children + "</entity>\n"
        }
        return xml + "</model>\n"
    }

    private static func xmlAttributes(_ fields: [String: JSONValue], fail: (String) -> BenchError) throws -> String {
        try fields.sorted { $0.key < $1.key }.map { key, value in
            " \(aliases[key] ?? key)=\"\(escape(try xmlValue(value, fail: fail)))\""
        }.joined()
    }

    /// Xcode's spelling of a JSON value: `YES`/`NO` for booleans, the text of numbers and strings.
    private static func xmlValue(_ value: JSONValue, fail: (String) -> BenchError) throws -> String {
        switch value {
        case let .bool(flag): return flag ? "YES" : "NO"
        case let .string(text): return text
        case let .number(number): return VariantValue.number(number).description
        default: throw fail("expected a string, number or boolean, got \(value)")
        }
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
