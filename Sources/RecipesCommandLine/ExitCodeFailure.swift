/// A silent non-zero exit: the live sync already said why it stopped.
package struct ExitCodeFailure: Error {
    package var status: Int32

    /// An exit with `status`.
    package init(status: Int32) {
        self.status = status
    }
}
