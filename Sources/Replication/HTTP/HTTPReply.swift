import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// One HTTP reply: status, headers (lower-cased names) and the whole body, with the request
/// it answers (`GET /db/_changes`), so an error about the reply can name the endpoint.
struct HTTPReply: Sendable {
    var status: Int
    /// Header values by lower-cased name. A repeated header's values are joined with `", "`,
    /// except `set-cookie`, whose values are joined with a newline (a cookie's `Expires`
    /// date holds a comma).
    var headers: [String: String]
    var body: Data
    var endpoint: String = ""

    init(status: Int, headers: [String: String], body: Data, endpoint: String = "") {
        self.status = status
        self.headers = headers
        self.body = body
        self.endpoint = endpoint
    }

    /// Reads `response` whole. With `throughFile`, the body goes to a temporary file as it
    /// arrives and comes back memory-mapped from it (the file itself removed at once), so a
    /// large body (attachments) is held in pages the system can drop, never in one growing
    /// buffer and a copy of it. Otherwise the body is collected in memory, refused past
    /// `limit` bytes: the length comes from the remote and is not trusted.
    /// - Throws: `ReplyBodyError` when the body is too large or cannot be written to or read
    ///   back from the temporary file; the transport's errors as they are.
    init(_ response: HTTPClientResponse, endpoint: String, throughFile: Bool, limit: Int) async throws {
        status = Int(response.status.code)
        var headers: [String: String] = [:]
        for header in response.headers {
            let name = header.name.lowercased()
            if let earlier = headers[name] {
                headers[name] = earlier + (name == "set-cookie" ? "\n" : ", ") + header.value
            } else {
                headers[name] = header.value
            }
        }
        self.headers = headers
        self.endpoint = endpoint
        if throughFile {
            body = try await Self.receiveThroughFile(response.body)
        } else {
            let buffer: ByteBuffer
            do {
                buffer = try await response.body.collect(upTo: limit)
            } catch is NIOTooManyBytesError {
                throw ReplyBodyError.tooLarge(limit: limit)
            }
            body = Data(buffer: buffer, byteTransferStrategy: .automatic)
        }
    }

    /// Writes the body's chunks to a new temporary file, maps it, and removes the file (the
    /// mapping keeps its pages until the `Data` is released).
    private static func receiveThroughFile(_ body: HTTPClientResponse.Body) async throws -> Data {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("recipes-download-\(UUID().uuidString).part")
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
            throw ReplyBodyError.temporaryFile(path: file.path, cause: nil)
        }
        defer { try? FileManager.default.removeItem(at: file) }
        let handle: FileHandle
        do {
            handle = try FileHandle(forWritingTo: file)
        } catch {
            throw ReplyBodyError.temporaryFile(path: file.path, cause: error)
        }
        do {
            defer { try? handle.close() }
            for try await chunk in body {
                do {
                    try handle.write(contentsOf: chunk.readableBytesView)
                } catch {
                    throw ReplyBodyError.temporaryFile(path: file.path, cause: error)
                }
            }
        }
        do {
            return try Data(contentsOf: file, options: .alwaysMapped)
        } catch {
            throw ReplyBodyError.temporaryFile(path: file.path, cause: error)
        }
    }
}

/// Why a reply's body could not be received, apart from the connection failing.
enum ReplyBodyError: Error, Sendable {
    /// The body is longer than the client accepts in memory.
    case tooLarge(limit: Int)
    /// The temporary file a large body is received into could not be created, written or read.
    case temporaryFile(path: String, cause: (any Error & Sendable)?)
}
