import ObjectGraph

/// An Xcode model read for `bench schema`, `bench lint` and `bench run --model`, with what is wrong with the file
/// as one `BenchError` line (exit code 64), so that the command line needs no ObjectGraph types.
package struct ModelFile {
    /// What the reader skipped or adjusted, one line each.
    package let notes: [String]
    /// The DDL the store creates, in its order, each without its semicolon.
    package let schemaSQL: [String]
    /// Xcode's warnings and RelBench's advice.
    package let findings: [ModelLint.Finding]

    /// Reads and compiles the model at `path` (.xcdatamodeld, .xcdatamodel or contents).
    package init(path: String) throws {
        let xcode: XcodeModel
        do {
            xcode = try XcodeModel.load(path: path)
        } catch let error as ObjectGraphError {
            throw BenchError.invalidInput("\(error)")
        }
        let model: ObjectModel
        do {
            model = try xcode.makeModel()
        } catch let error as ObjectGraphError {
            throw BenchError.invalidInput("\(xcode.path): \(error)")
        }
        notes = xcode.notes
        schemaSQL = model.schemaSQL
        findings = ModelLint.findings(model, cloudKitEntities: xcode.cloudKitEntities)
    }
}
