import Foundation

/// Stored as its raw value (a String column).
enum TripStatus: String, Codable {
    case planned, booked, done
}

/// Stored as its raw value (an Integer 64 column).
enum Priority: Int, Codable {
    case low = 0
    case normal = 1
    case high = 2
}

/// An enum with associated values: its Codable encoding in one column.
enum Transport: Codable {
    case flight(number: String)
    case train
    case car(seats: Int)
}

/// A Codable struct: a composite attribute, a column per element.
struct Location: Codable {
    var latitude: Double
    var longitude: Double
    var label: String?
}
