import Foundation
import SwiftData

@Model
final class Shelf {
    var title: String
    @Relationship(deleteRule: .cascade, inverse: \Jar.shelf) var jars: [Jar] = []

    init(title: String) { self.title = title }
}

@Model
final class Jar {
    var label: String
    var code: UUID
    var shelf: Shelf?

    init(label: String, code: UUID) {
        self.label = label
        self.code = code
    }
}
