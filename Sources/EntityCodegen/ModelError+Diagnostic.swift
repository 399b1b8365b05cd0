public import ManagedModel

extension ModelError {
    /// The error as a compiler diagnostic, `file:line: error: element: reason` (without the
    /// line when the error is about a whole file), the form SwiftPM and editors show at the
    /// offending line of the model.
    public var diagnostic: String {
        let location = line > 0 ? "\(file):\(line)" : file
        return "\(location): error: \(element): \(reason)"
    }
}
