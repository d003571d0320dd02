import Foundation
import ObjectGraph

extension GeneratedSuite {
    /// The shape of the data a suite makes at `size` with the run's `seed`: the data ObjectGraph saves into a
    /// temporary store, read back as a user's store is read, so that the two compare like with like.
    package static func generatedShape(_ scenario: Scenario, size: Int, seed: UInt64) throws -> StoreShape {
        let plan = scenario.declared.first
        // The seed a run's repetitions of this size make their data with (Runner).
        let data = plan.generator.make(size: size, seed: seed &+ UInt64(size))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "relbench-generated-shape-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("generated.sqlite").path
        do {
            _ = try GraphFiller.fill(data, model: plan.model, location: .file(path), options: StoreOptions())
        } catch {
            throw BenchError.io("\(scenario.name): the generated data at size \(size) cannot be saved (\(error))")
        }
        var shape = try StoreShape.read(path: path, model: plan.model, modelName: scenario.name.rawValue).shape
        shape.path = "generated at size \(formatCount(size))"
        return shape
    }
}

extension GeneratedSuite {
    /// The options `--counts` and `--shape-from` give for the model at `modelPath`: the store's shape read as a
    /// store of that model (refused when it is another's), with what the reader warns of.
    package static func options(
        modelPath: String, counts: [String: Int], shapeFrom: String?
    ) throws -> (options: Options, warnings: [String]) {
        var options = Options(counts: counts)
        guard let shapeFrom else { return (options, []) }
        let model: ObjectModel
        do {
            model = try ModelSource.load(path: modelPath).makeModel()
        } catch let error as ObjectGraphError {
            throw BenchError.invalidInput("\(error)")
        }
        let read = try StoreShape.read(path: shapeFrom, model: model, modelName: modelPath)
        guard read.shape.largest != nil else {
            throw BenchError.invalidInput(
                "--shape-from: \(shapeFrom) has no rows of any entity; give a store with data to take its shape from")
        }
        options.shape = read.shape
        return (options, read.warnings)
    }

    /// How many objects of each entity the suite makes, in one line, where `--counts` or `--shape-from` chose them:
    /// `counts: Customer 10,000 (given), OrderLine 50,000 (as Order, through Order.lines), ...`.
    package static func countsLine(_ scenario: Scenario) -> String? {
        guard case let .generated(_, options) = scenario.origin, !options.counts.isEmpty || options.shape != nil else { return nil }
        let plan = scenario.declared.first
        if options.shape == nil {
            let resolved = resolvedCounts(plan.model, given: options.counts)
            return "counts: "
                + resolved.sorted { $0.key < $1.key }.map { "\($0.key) \(formatCount($0.value.count)) (\($0.value.origin))" }.joined(
                    separator: ", ")
        }
        let counts = plan.generator.spec.counts.sorted { $0.key < $1.key }.map { "\($0.key) \(amount($0.value))" }
        return
            "counts, in the store's proportions\(options.counts.isEmpty ? " (the entity with most rows gets size)" : " scaled to the counts given"): "
            + counts.joined(separator: ", ")
    }
}
