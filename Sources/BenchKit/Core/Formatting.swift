import Foundation

/// Numbers as the reports write them: integers without a decimal point, others with up to six decimals.
package func formatNumber(_ value: Double) -> String {
    if value.isNaN || value.isInfinite { return "" }
    if value.rounded() == value, abs(value) < 1e15 { return String(Int64(value)) }
    var text = String(format: "%.6f", value)
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    return text
}

/// `2,001`: a whole number with thousands separators; one beyond Int's exact range is written as a plain number.
package func formatCount(_ value: Double) -> String {
    guard value.isFinite, abs(value) < 9e15 else { return formatNumber(value) }
    return formatCount(Int(value.rounded()))
}

package func formatCount(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var grouped = ""
    for (index, character) in digits.enumerated() {
        if index > 0 && (digits.count - index) % 3 == 0 { grouped.append(",") }
        grouped.append(character)
    }
    return (value < 0 ? "-" : "") + grouped
}

/// Three significant digits (`12.3`, `0.0456`), `-` for a value that is not finite.
func formatSignificant(_ value: Double) -> String {
    guard value.isFinite else { return "-" }
    if value == 0 { return "0" }
    let digits = max(0, 2 - Int(floor(log10(abs(value)))))
    return String(format: "%.\(min(digits, 6))f", value)
}

/// A ratio as a person reads it: `2.3`, `44`, `600`, `12,000` (two significant digits, never an exponent).
package func formatFactor(_ value: Double) -> String {
    guard value.isFinite else { return "-" }
    if abs(value) >= 100 { return formatCount(Double(String(format: "%.2g", value)) ?? value) }
    return String(format: abs(value) >= 10 ? "%.0f" : "%.1f", value)
}

/// A word a shell reads back as it is: unchanged when it needs no quoting, else in single quotes.
package func shellWord(_ text: String) -> String {
    let safe = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./,=:+@%")
    guard !text.isEmpty, text.unicodeScalars.contains(where: { !safe.contains($0) }) else { return text.isEmpty ? "''" : text }
    return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}

/// "a Class", "an Account", "a UUID", "a User", "an Update": the name with its indefinite article (by its first
/// letter; an acronym starting with U, and the words read "you" such as User and Unit, take "a").
package func withArticle(_ name: String) -> String {
    let letters = Array(name.prefix(2))
    let youSound =
        letters.count == 2 && letters[0] == "U" && letters[1].isUppercase
        || ["uni", "use", "usa", "usu", "uti", "ura", "ure", "uro"].contains { name.lowercased().hasPrefix($0) }
    return ("AEIOUaeiou".contains(name.first ?? "x") && !youSound ? "an " : "a ") + name
}

/// `a, b or c`: the items joined for a sentence, the last after `conjunction`.
package func listed(_ items: [String], _ conjunction: String = "or") -> String {
    guard let last = items.last, items.count > 1 else { return items.first ?? "" }
    return items.dropLast().joined(separator: ", ") + " \(conjunction) " + last
}

/// `1 statement`, `1,032 statements`.
package func counted(_ count: Int, _ noun: String) -> String { "\(formatCount(count)) \(noun)\(count == 1 ? "" : "s")" }

/// `text` cut to about `limit` characters for a message, keeping its start and end and saying how much was cut: a
/// message quoting a user's 200 KB predicate stays one readable line.
package func shortened(_ text: String, limit: Int = 200) -> String {
    guard text.count > limit else { return text }
    let keep = max(limit / 2, 8)
    return "\(text.prefix(keep))…[\(formatCount(text.count - keep - 16)) characters cut]…\(text.suffix(16))"
}
