import Foundation
import Testing

@testable import BenchKit

@Suite struct ScenarioFileTests {
    private let valid = """
        {"name": "q", "description": "d", "model": "models/School.xcdatamodeld", "strategies": ["objectgraph", "sql-replay"],
         "data": {"entities": {"Class": "size/20", "Student": "size"}, "relationships": {"Class.students": {"per": 20}}},
         "variants": [{"name": "prefetch", "values": ["off", "on"]}],
         "phases": [{"name": "walk", "steps": [{"fetch": "Class", "prefetch": {"variant": "prefetch", "off": [], "on": ["students"]}},
                                              {"read": ["students.name"]}]}],
         "sizes": {"smoke": [10], "default": [100, 1000], "full": [100, 1000, 10000]},
         "repetitions": 3, "warmup": {"smoke": 0, "default": 1, "full": 1}}
        """

    private func parse(_ text: String) throws -> Scenario {
        try ScenarioFile.parse(Data(text.utf8), file: ScenarioCountersTests.scenariosFolder + "/q.json")
    }

    private func error(_ text: String) -> String {
        do {
            _ = try parse(text)
            return "no error"
        } catch { return "\(error)".replacingOccurrences(of: ScenarioCountersTests.scenariosFolder + "/", with: "Scenarios/") }
    }

    /// What a run (or any command reading the folder) says of a file that parses but lists a peer that cannot run it.
    private func peerError(_ text: String) -> String {
        do {
            try PeerSupport.check(try parse(text))
            return "no error"
        } catch { return "\(error)".replacingOccurrences(of: ScenarioCountersTests.scenariosFolder + "/", with: "Scenarios/") }
    }

    private func replacing(_ old: String, _ new: String) -> String {
        precondition(valid.contains(old))
        return valid.replacingOccurrences(of: old, with: new)
    }

    @Test func aValidFile() throws {
        let scenario = try parse(valid)
        #expect(scenario.name == "q")
        #expect(scenario.strategies == [.objectGraph, .sqlReplay])
        #expect(scenario.variants.map(\.description) == ["prefetch=off", "prefetch=on"])
        #expect(scenario.sizes[.full] == [100, 1000, 10000])
        #expect(scenario.repetitions[.smoke] == 3)
        #expect(scenario.warmup[.default] == 1)
    }

    @Test func theShippedScenariosAllLoad() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Scenarios").path
        let catalog = try ScenarioCatalog(folder: folder)
        #expect(
            catalog.scenarios.map(\.name).sorted() == [
                "batch-size", "batch-update", "chat-list", "count-across-many-to-many", "data-loss", "faulting", "fetch-result-types",
                "find-member", "hand-kept-key", "import-reset", "insert", "large-to-many", "medical-records", "prefetch", "query",
                "social-feed",
            ])
    }

    /// A scenario or size named twice runs once, so that no sample is written twice under one key.
    @Test func namesGivenTwiceRunOnce() throws {
        let catalog = try ScenarioCatalog(folder: ScenarioCountersTests.scenariosFolder)
        let query = try catalog.scenario(named: "query")
        var request = RunRequest(scenarios: [query])
        request.sizes = [100]
        request.repetitions = 1
        let once = try RunPlan(request).repetitions.count
        request.scenarios = [query, query]
        request.sizes = [100, 100]
        #expect(try RunPlan(request).repetitions.count == once)
    }

    /// `--variant modelling=many-to-one` narrows the scenarios that have a modelling axis; one without it (batch-size)
    /// runs all its variants.
    @Test func aVariantFilterNarrowsOnlyTheScenariosWithItsAxes() throws {
        let catalog = try ScenarioCatalog(folder: ScenarioCountersTests.scenariosFolder)
        var request = RunRequest(scenarios: [try catalog.scenario(named: "query"), try catalog.scenario(named: "batch-size")])
        request.sizes = [100]
        request.repetitions = 1
        request.warmup = 0
        request.strategies = [.objectGraph]
        request.variants = [try VariantFilter("modelling=many-to-one")]
        let variants = try RunPlan(request).repetitions.map { "\($0.scenario.name) \($0.variant)" }
        #expect(
            variants.filter { $0.hasPrefix("query ") } == [
                "query modelling=many-to-one;prefetch=off", "query modelling=many-to-one;prefetch=on",
            ])
        #expect(variants.filter { $0.hasPrefix("batch-size ") }.count == 14)
    }

    @Test func decodingErrorsNameTheFieldAsWritten() {
        do {
            _ = try JSONDecoder().decode([String: [String: String]].self, from: Data("{\"settings\": {\"5\": 1}}".utf8))
            Issue.record("decoded")
        } catch let error as DecodingError {
            #expect(error.plainDescription == "field 'settings.5' should be a string")
        } catch {
            Issue.record("\(error)")
        }
        #expect(withArticle("UUID") == "a UUID" && withArticle("URI") == "a URI")
        #expect(withArticle("Integer 16") == "an Integer 16" && withArticle("Undefined") == "an Undefined")
    }

    @Test func eachKindOfInvalidFileIsRefusedWithFileFieldAndReason() {
        #expect(error("{\"name\": ").hasPrefix("Scenarios/q.json: not valid JSON"))
        #expect(error("[1]") == "Scenarios/q.json: expected a JSON object at the top level")
        #expect(
            error(replacing("\"repetitions\": 3", "\"repetitions\": 3, \"repetitions\": 9"))
                == "Scenarios/q.json: field 'repetitions': given twice in one object; keep one (a JSON reader silently uses only one of them)"
        )
        #expect(
            error(replacing("\"repetitions\": 3", "\"repetitions\": 3, \"rep\\u0065titions\": 9"))
                == "Scenarios/q.json: field 'repetitions': given twice in one object; keep one (a JSON reader silently uses only one of them)"
        )
        #expect(
            error(replacing("\"smoke\": [10]", "\"smoke\": [10], \"smoke\": [20]"))
                == "Scenarios/q.json: field 'sizes.smoke': given twice in one object; keep one (a JSON reader silently uses only one of them)"
        )
        #expect(
            error(replacing("\"repetitions\": 3", "\"repetition\": 3"))
                == "Scenarios/q.json: field 'repetition': unknown field (did you mean 'repetitions'?)")
        #expect(
            error(replacing("\"model\": \"models/School.xcdatamodeld\"", "\"workload\": \"query\""))
                .hasPrefix("Scenarios/q.json: field 'workload': workloads written in Swift are gone"))
        #expect(
            error(replacing("\"sql-replay\"]", "\"sql-replya\"]"))
                == "Scenarios/q.json: field 'strategies': unknown strategy 'sql-replya' (did you mean 'sql-replay'?)")
        #expect(
            error(replacing("\"sql-replay\"]", "\"raw-sqlite:one-to-one\"]"))
                == "Scenarios/q.json: field 'strategies': 'raw-sqlite:one-to-one' is a modelling, now a variant: give --variant modelling=one-to-one (and --strategies raw-sqlite)"
        )
        #expect(
            peerError(replacing("\"sql-replay\"]", "\"grdb\"]"))
                .hasPrefix(
                    "Scenarios/q.json: field 'strategies': grdb has no implementation of q's phase 'walk' with prefetch=off; the peers implement these phases of the School model:"
                ))
        #expect(
            error(replacing("\"repetitions\": 3", "\"repetitions\": \"3\""))
                == "Scenarios/q.json: field 'repetitions': expected a whole number from 1 to 10000 or an object with smoke, default and full, got the string \"3\""
        )
        #expect(
            error(replacing("\"values\": [\"off\", \"on\"]", "\"values\": [\"off\", \"onn\"]"))
                == "Scenarios/q.json: field 'phases[0].steps[0].prefetch': with prefetch=off: chooses by the variant 'prefetch' and names 'on', which is not one of its values (off, onn)"
        )
        #expect(
            error(replacing("\"values\": [\"off\", \"on\"]", "\"values\": [\"off\", \"on\", \"off\"]"))
                == "Scenarios/q.json: field 'variants': 'prefetch' names the value 'off' twice")
        #expect(
            error(replacing("\"full\": [100, 1000, 10000]", "\"fulll\": [100]"))
                == "Scenarios/q.json: field 'sizes': unknown profile 'fulll'; use smoke, default and full")
        #expect(
            error(replacing("\"smoke\": [10]", "\"smoke\": [0]"))
                == "Scenarios/q.json: field 'sizes': 'smoke': expected an array of whole numbers from 1 to 100000000, got [0]")
        #expect(
            error(replacing("\"name\": \"q\", ", ""))
                == "Scenarios/q.json: field 'name': missing")
    }
}
