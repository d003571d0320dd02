/// How much to run: `smoke` for CI (tiny sizes, one or two repetitions), `default` (1,000 to 100,000),
/// `full` (adds 1,000,000 where it makes sense).
package enum Profile: String, CaseIterable, Codable, Sendable {
    case smoke, `default`, full
}
