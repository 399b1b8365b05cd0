internal import Foundation

/// The HTTP side of the W3C WebDriver protocol: JSON requests to chromedriver on
/// 127.0.0.1, `{"value": …}` replies, and W3C errors turned into `WebDriverError`.
/// Every request has a deadline (30 s unless a command asks for less), so a wedged
/// browser fails the test instead of hanging it.
final class WebDriverClient: Sendable {
    /// The default deadline for one WebDriver command.
    static let defaultTimeout: TimeInterval = 30

    /// `http://127.0.0.1:<port>`, for messages.
    let baseURL: String
    /// The port chromedriver listens on.
    let port: Int

    /// A client for the chromedriver listening on `port`.
    init(port: Int) {
        self.port = port
        baseURL = "http://127.0.0.1:\(port)"
    }

    /// Sends one command and returns its `value`. `command` names it in errors; it
    /// defaults to the method and path.
    func send(
        _ method: String, _ path: String, _ body: ScriptValue? = nil,
        command: String? = nil, timeout: TimeInterval = WebDriverClient.defaultTimeout
    ) async throws -> ScriptValue {
        let command = command ?? "\(method) \(path)"
        var payload: Data?
        if let body {
            payload = try JSONEncoder().encode(body)
        } else if method == "POST" {
            payload = Data("{}".utf8)
        }
        let response: LoopbackHTTP.Response
        do {
            response = try await LoopbackHTTP.request(
                port: port, method: method, path: path, body: payload, timeout: timeout)
        } catch {
            throw WebDriverError(
                code: "transport failure", message: "no answer from chromedriver at \(baseURL): \(error)",
                command: command)
        }
        let data = response.body
        let status: Int? = response.status
        let reply: ScriptValue
        do {
            reply = try JSONDecoder().decode(ScriptValue.self, from: data)
        } catch {
            throw WebDriverError(
                code: "invalid response",
                message: "not JSON: \(String(decoding: data.prefix(500), as: UTF8.self))",
                command: command, httpStatus: status)
        }
        let value = reply["value"] ?? .null
        if let code = value["error"]?.stringValue {
            throw WebDriverError(
                code: code, message: value["message"]?.stringValue ?? "", command: command, httpStatus: status)
        }
        if let status, !(200..<300).contains(status) {
            throw WebDriverError(
                code: "invalid response", message: "HTTP \(status): \(reply)", command: command, httpStatus: status)
        }
        return value
    }
}
