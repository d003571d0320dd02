extension XcodeModel {
    /// Something the reader skipped because the file itself is wrong, not because ObjectGraph leaves a feature out:
    /// the model as written is not the one the app runs, so lint reports it instead of a clean bill.
    public struct Problem: Sendable, Equatable {
        public enum Kind: Sendable, Equatable {
            /// An attribute or relationship without a name.
            case unnamedProperty
            /// An `attributeType` Core Data does not know.
            case unknownAttributeType
            /// An Undefined attribute that is not transient, which Xcode refuses.
            case undefinedNotTransient
            /// A derivation that cannot be parsed or that Core Data does not support.
            case unsupportedDerivation
            /// A relationship without a destination, or to an entity the model does not declare.
            case missingDestination
            /// A fetch index (or compound index) on a property the entity does not have.
            case indexOnMissingProperty
        }

        public let kind: Kind
        /// `Entity.property`, or `Entity`.
        public let subject: String
        /// The reader's note, as `notes` has it.
        public let note: String
    }
}
