import ArgumentParser
import BenchKit
import Foundation
import ObjectGraph

struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the SQL schema Core Data would create for an Xcode model: tables, indexes, triggers and system tables, in the store's order.")

    @Argument(help: "The model: a .xcdatamodeld or .xcdatamodel folder, or its contents file.")
    var model: String

    func run() throws {
        let xcode = try loadModel(model)
        for note in xcode.notes { print("-- note: \(note)") }
        for statement in try compile(xcode).schemaSQL { print(statement + ";") }
    }
}

struct LintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Xcode's warnings for a model, and RelBench's advice on its relationships with the reason and the fix; exit 0 with no findings, 1 with findings, 64 for an unreadable model.")

    @Argument(help: "The model: a .xcdatamodeld or .xcdatamodel folder, or its contents file.")
    var model: String

    func run() throws {
        let xcode = try loadModel(model)
        let findings = ModelLint.findings(try compile(xcode))
        for note in xcode.notes { print("note: \(note)") }
        for finding in findings { print(finding) }
        print(findings.isEmpty ? "no findings" : "\(findings.count) finding(s)")
        if !findings.isEmpty { throw ExitCode(1) }
    }
}

/// Reads an Xcode model, turning what is wrong with the file into one line and exit code 64.
func loadModel(_ path: String) throws -> XcodeModel {
    do {
        return try XcodeModel.load(path: path)
    } catch let error as ObjectGraphError {
        throw BenchError.invalidInput("\(error)")
    }
}

/// Compiles a model read from Xcode's format; a model Core Data would refuse is one line and exit code 64.
func compile(_ model: XcodeModel) throws -> ObjectModel {
    do {
        return try model.makeModel()
    } catch let error as ObjectGraphError {
        throw BenchError.invalidInput("\(model.path): \(error)")
    }
}
