import Foundation
import ObjectGraph
import Testing

@testable import BenchKit

/// Scale limits (issue 30, item 7): a phase's writes undone by removing its write-ahead log instead of copying the
/// template again, a model file refused by its size before it is read, and a size refused by its memory estimate.
@Suite struct ScaleLimitTests {
    static let school = CommandLineTests.root.appendingPathComponent("Scenarios/models/School.xcdatamodeld").path

    /// A store closed without a checkpoint leaves its file as it was: removing the log gives the template's bytes
    /// back, and the copy is reused; a store closed normally (checkpointed) is not.
    @Test(arguments: [true, false])
    func aDeletePhaseOnAKeptLogLeavesTheTemplatesBytes(keepsLog: Bool) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relbench-copies-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let model = try XcodeModel.load(path: Self.school).makeModel()
        let template = folder + "/template.sqlite"
        do {
            let store = try PersistentStore(model: model, location: .file(template))
            let context = store.makeContext()
            for index in 0..<50 { try context.insert("Subject").setValue(.string("subject \(index)"), for: "name") }
            try context.save()
        }
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: template + suffix) }
        let original = try Data(contentsOf: URL(fileURLWithPath: template))

        var copies = TemplateCopies()
        var made = 0
        let make = { () throws -> String in
            made += 1
            let path = folder + "/copy\(made).sqlite"
            try TemplateCopies.copy(template, to: path)
            return path
        }
        let path = try copies.next(make)
        weak var closed: PersistentStore?
        var changed = false
        do {
            var options = StoreOptions()
            options.keepsWriteAheadLogOnClose = keepsLog
            let store = try PersistentStore(model: model, location: .file(path), options: options)
            closed = store
            let context = store.makeContext()
            for object in try context.fetch(FetchRequest("Subject")) { try context.delete(object) }
            try context.save()
            changed = store.rowsChanged > 0
        }
        #expect(changed)
        copies.done(changed: changed, closed: closed == nil)
        let next = try copies.next(make)
        if keepsLog {
            #expect(next == path)
            #expect(made == 1)
            #expect(try Data(contentsOf: URL(fileURLWithPath: next)) == original)
            #expect(try PersistentStore(model: model, location: .file(next)).makeContext().fetch(FetchRequest("Subject")).count == 50)
        } else {
            #expect(next != path)
            #expect(made == 2)
        }
    }

    @Test func aModelFileOfGigabytesIsRefusedBeforeItIsRead() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relbench-big-\(UUID().uuidString).xcdatamodel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let contents = folder.appendingPathComponent("contents").path
        #expect(FileManager.default.createFile(atPath: contents, contents: nil))
        #expect(truncate(contents, 2_100_000_000) == 0)
        #expect {
            try XcodeModel.load(path: folder.path)
        } throws: { error in
            "\(error)".contains("64 MiB")
        }
    }

    @Test func aSizeBeyondTheMachinesMemoryIsRefusedWithTheBound() throws {
        let scenario = try ScenarioCatalog(folder: CommandLineTests.root.appendingPathComponent("Scenarios").path).scenario(named: "insert")
        guard let budget = MemoryBudget.machine else { return }
        #expect(MemoryBudget.objects(scenario, size: 1000) >= 1000)
        #expect(throws: Never.self) { try MemoryBudget.check(scenario, size: 1000, option: "--sizes") }
        #expect {
            try MemoryBudget.check(scenario, size: 100_000_000, option: "--sizes")
        } throws: { error in
            let message = "\(error)"
            return message.contains("--sizes 100000000") && message.contains("GiB") && message.contains(String(budget.source.prefix(20)))
        }
    }
}
