import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import RecipesKit

/// The web app's answers, each with the headers every answer carries: a
/// `Content-Security-Policy` that allows our own script and stylesheet only (no inline
/// script, nothing from elsewhere), `nosniff`, no framing, no referrer beyond this site.
enum WebResponse {
    /// The policy: scripts, styles, images and forms from this server only; photos chosen
    /// in a form may be previewed (`blob:`).
    static let contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' blob:; "
        + "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

    /// `Server-Timing`: how long the server took to make an answer.
    static let serverTiming = HTTPField.Name("Server-Timing")!

    /// The headers every answer has.
    static func headers(_ contentType: String) -> HTTPFields {
        var fields = HTTPFields()
        fields[.contentType] = contentType
        fields[.contentSecurityPolicy] = contentSecurityPolicy
        fields[.xContentTypeOptions] = "nosniff"
        fields[HTTPField.Name("X-Frame-Options")!] = "DENY"
        fields[HTTPField.Name("Referrer-Policy")!] = "same-origin"
        return fields
    }

    /// A page.
    static func html(status: HTTPResponse.Status = .ok, _ text: String) -> Response {
        var headers = headers("text/html; charset=utf-8")
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// A line of plain text.
    static func text(status: HTTPResponse.Status, _ text: String) -> Response {
        Response(status: status, headers: headers("text/plain; charset=utf-8"), body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// `303 See Other` to `location` (after a post, so reloading does not post again).
    static func redirect(to location: String) -> Response {
        var headers = headers("text/plain; charset=utf-8")
        headers[.location] = location
        return Response(status: .seeOther, headers: headers, body: .init(byteBuffer: ByteBuffer(string: "See \(location)\n")))
    }

    /// A picture, or `304 Not Modified` when `photo` is `nil` (the browser's copy, tagged
    /// `tag`, is current). Browsers revalidate before using their copy (`no-cache`), so
    /// an edited photo shows at once while an unchanged one costs one small exchange.
    static func picture(_ photo: StoredPhoto?, tag: String) -> Response {
        var headers = headers(photo?.mimeType ?? "application/octet-stream")
        headers[.eTag] = quoted(tag)
        headers[.cacheControl] = "private, no-cache"
        guard let photo else {
            headers[.contentType] = nil
            return Response(status: .notModified, headers: headers)
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: photo.data)))
    }

    /// The stylesheet or the script: kept by browsers for a year (its address changes with
    /// its content), or `304` when the browser's copy is current.
    static func asset(_ asset: WebAssets.Asset, ifNoneMatch: String?) -> Response {
        var headers = headers(asset.contentType)
        headers[.eTag] = quoted(asset.tag)
        headers[.cacheControl] = "public, max-age=31536000, immutable"
        if matches(ifNoneMatch, tag: asset.tag) {
            headers[.contentType] = nil
            return Response(status: .notModified, headers: headers)
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: asset.data)))
    }

    /// Server-sent events: `change` with the book's version, at once and after each change.
    static func eventStream(_ versions: AsyncStream<Int>) -> Response {
        var headers = headers("text/event-stream; charset=utf-8")
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            try await writer.write(ByteBuffer(string: "retry: 1000\n\n"))
            for await version in versions {
                try await writer.write(ByteBuffer(string: "event: change\ndata: \(version)\n\n"))
            }
            try await writer.finish(nil)
        })
    }

    /// The session cookie: for this site's requests only (`SameSite=Strict`), never for
    /// scripts (`HttpOnly`).
    /// With `secure` (the server speaks HTTPS), browsers never send it over plain HTTP.
    static func sessionCookie(_ id: String, secure: Bool) -> Cookie {
        Cookie(name: WebSessions.cookieName, value: id, path: "/", secure: secure, httpOnly: true, sameSite: .strict)
    }

    /// The `Strict-Transport-Security` value an HTTPS server sends: browsers that saw it
    /// reach the book over HTTPS only, for 180 days.
    static let strictTransportSecurity = "max-age=15552000"

    /// Whether an `If-None-Match` header names `tag` (or is `*`).
    static func matches(_ header: String?, tag: String) -> Bool {
        guard let header else { return false }
        return header.split(separator: ",").contains { item in
            var value = item.trimmingCharacters(in: .whitespaces)
            if value.hasPrefix("W/") { value.removeFirst(2) }
            return value == "*" || value == quoted(tag)
        }
    }

    private static func quoted(_ tag: String) -> String { "\"\(tag)\"" }
}
