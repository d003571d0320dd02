import Foundation
import SwiftData

/// The current version: every construct SwiftData stores.
enum TripsSchemaV2: VersionedSchema {
    static var versionIdentifier = Schema.Version(2, 0, 0)

    static var models: [any PersistentModel.Type] {
        [Trip.self, BusinessTrip.self, Destination.self, Expense.self, Traveler.self, Tag.self, Photo.self]
    }

    @Model
    class Trip {
        #Unique<Trip>([\.name, \.startDate])
        #Index<Trip>([\.startDate], [\.name, \.endDate])

        @Attribute(.unique) var code: String
        @Attribute(originalName: "title") var name: String
        var startDate: Date
        var endDate: Date?
        var createdAt: Date = Date()
        var budget: Decimal = 0
        var distance: Double = 0
        var rating: Float?
        var nights: Int16 = 0
        var travelerCount: Int32 = 1
        var bookingNumber: Int64?
        var isFavorite: Bool = false
        var website: URL?
        var externalID: UUID = UUID()
        var notes = ""
        var status: TripStatus = .planned
        var priority: Priority = .normal
        var transport: Transport?
        var location: Location
        var checklist: [String] = []
        @Attribute(.externalStorage) var coverImage: Data?
        @Attribute(.transformable(by: ColorValueTransformer.self)) var color: PlatformColor?
        @Attribute(.ephemeral) var isExpanded: Bool = false
        @Transient var cachedSummary: String?

        @Relationship(deleteRule: .nullify, inverse: \Destination.trips) var destination: Destination?
        @Relationship(deleteRule: .cascade) var expenses: [Expense] = []
        @Relationship(deleteRule: .deny, minimumModelCount: 1, maximumModelCount: 8) var travelers: [Traveler] = []
        var tags: [Tag] = []
        @Relationship(deleteRule: .noAction) var photos: [Photo] = []

        var summary: String { "\(name) (\(nights) nights)" }

        init(code: String, name: String, startDate: Date, location: Location) {
            self.code = code
            self.name = name
            self.startDate = startDate
            self.location = location
        }
    }

    @available(iOS 26, *)
    @Model
    final class BusinessTrip: Trip {
        var company: String = ""
        var reimbursed: Bool = false
    }

    @Model
    final class Destination {
        @Attribute(.unique) var name: String
        var country: String?
        var trips: [Trip] = []

        init(name: String) { self.name = name }
    }

    @Model
    final class Expense {
        var amount: Decimal = 0
        var spentAt: Date?
        var trip: Trip?

        init(amount: Decimal) { self.amount = amount }
    }

    @Model
    final class Traveler {
        #Unique<Traveler>([\.email])

        var name: String
        var email: String
        var trips: [Trip] = []
        var mentor: Traveler?
        @Relationship(deleteRule: .nullify) var mentees: [Traveler] = []

        init(name: String, email: String) {
            self.name = name
            self.email = email
        }
    }

    @Model
    final class Tag {
        @Attribute(.unique) var name: String

        init(name: String) { self.name = name }
    }

    @Model
    final class Photo {
        var caption: String?
        @Attribute(.externalStorage) var image: Data
        var trip: Trip?

        init(image: Data) { self.image = image }
    }
}

typealias Trip = TripsSchemaV2.Trip
typealias BusinessTrip = TripsSchemaV2.BusinessTrip
typealias Destination = TripsSchemaV2.Destination
typealias Expense = TripsSchemaV2.Expense
typealias Traveler = TripsSchemaV2.Traveler
typealias Tag = TripsSchemaV2.Tag
typealias Photo = TripsSchemaV2.Photo
