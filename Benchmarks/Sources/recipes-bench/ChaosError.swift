/// A chaos run could not set itself up or read a replica.
struct ChaosError: Error, CustomStringConvertible {
    /// What went wrong.
    var description: String
    init(_ description: String) { self.description = description }
}
