public import Foundation

/// Where a ``MultipartWriter`` puts the bytes it writes: memory (`Data`), or a file the caller
/// streams a large body into, so the body never has to be held whole.
public protocol MultipartOutput {
    /// Appends `bytes` to the output.
    mutating func write(_ bytes: some DataProtocol) throws
}

/// A body built in memory.
extension Data: MultipartOutput {
    /// Appends `bytes` to the data.
    public mutating func write(_ bytes: some DataProtocol) {
        append(contentsOf: bytes)
    }
}
