import SwiftData
import SwiftUI

/// The first fifty tags.
struct TagCloudView: View {
    @Environment(\.modelContext) private var context
    @State private var names: [String] = []

    var body: some View {
        Text(names.joined(separator: " "))
            .task { load() }
    }

    private func load() {
        var descriptor = FetchDescriptor<Tag>(sortBy: [SortDescriptor(\.name)])
        descriptor.fetchLimit = 50
        let tags = (try? context.fetch(descriptor)) ?? []
        names = tags.map(\.name)
    }
}
