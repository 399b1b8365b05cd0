import AsyncBridge
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSession {
    /// Sends `request` and returns its body and response, ending with `CancellationError` as
    /// soon as the calling task is cancelled.
    ///
    /// The async `data(for:)` of FoundationNetworking waits for libcurl to wind the transfer
    /// down before it returns on cancellation, which can take as long as the request's
    /// timeout (or longer while a connection is being retried); an interrupted sync must stop
    /// promptly, so the waiting caller is released first and the transfer is cancelled
    /// behind it. A request that sends a body is not cancelled but left to finish behind
    /// the released caller: FoundationNetworking can trap (a `try!` in its curl handle, error
    /// 43) when a transfer is cancelled while its body is being sent.
    func cancellableData(for request: URLRequest) async throws -> (Data, URLResponse) {
        let sendsBody = request.httpBody != nil || request.httpBodyStream != nil
        return try await awaitingTask(cancelTransfer: !sendsBody) { finish in
            dataTask(with: request) { data, response, error in finish(data, response, error) }
        }
    }

    /// Like `cancellableData(for:)`, with the request body read from `file` as it is sent
    /// (so a large body is never held in memory); on cancellation the caller is released and
    /// the upload finishes behind it (see `cancellableData(for:)`).
    func cancellableUpload(for request: URLRequest, fromFile file: URL) async throws -> (Data, URLResponse) {
        try await awaitingTask(cancelTransfer: false) { finish in
            uploadTask(with: request, fromFile: file) { data, response, error in finish(data, response, error) }
        }
    }

    /// Starts the task `make` builds and waits for its completion (passed to `make` as
    /// `finish`), or for the calling task's cancellation, whichever comes first; then the
    /// transfer is cancelled too when `cancelTransfer`.
    fileprivate func awaitingTask(
        cancelTransfer: Bool = true,
        _ make: (@escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void) -> URLSessionTask
    ) async throws -> (Data, URLResponse) {
        let outcome = OneShotContinuation<(Data, URLResponse)>()
        let task = make { data, response, error in
            if let error {
                outcome.resume(with: .failure(error))
            } else if let response {
                outcome.resume(with: .success((data ?? Data(), response)))
            } else {
                outcome.resume(with: .failure(URLError(.badServerResponse)))
            }
        }
        return try await withTaskCancellationHandler {
            task.resume()
            return try await outcome.value()
        } onCancel: {
            outcome.resume(with: .failure(CancellationError()))
            if cancelTransfer { DispatchQueue.global().async { task.cancel() } }
        }
    }
}

extension URLSession {
    /// Like `cancellableData(for:)`, but the body goes to a temporary file as it arrives and
    /// comes back memory-mapped from it (the file itself is removed at once).
    ///
    /// A data task keeps the whole body in its own buffer and copies it into the `Data` it
    /// returns, so a large reply is briefly held twice; mapped from a file, it is held once, in
    /// pages the system can drop and read again.
    func cancellableDownload(for request: URLRequest) async throws -> (Data, URLResponse) {
        try await awaitingTask { finish in
            downloadTask(with: request) { location, response, error in
                guard error == nil, let response, let location else {
                    finish(nil, response, error)
                    return
                }
                defer { try? FileManager.default.removeItem(at: location) }
                do {
                    finish(try Data(contentsOf: location, options: .alwaysMapped), response, nil)
                } catch {
                    finish(nil, nil, URLError(.cannotOpenFile))
                }
            }
        }
    }
}
