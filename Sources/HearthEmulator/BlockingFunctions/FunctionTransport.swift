import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// How a blocking function is reached: a JSON POST answered with a status and a body, or not at all.
/// The server uses HTTP(S) (`http`); tests of the request handling without a network swap in their own.
struct FunctionTransport: Sendable {
    enum Answer: Sendable {
        case answer(status: Int, body: [UInt8])
        case timedOut
        case unreachable
    }

    /// (url, JSON body) → answer; waits for it on the calling thread (handlers are synchronous).
    let post: @Sendable (String, [UInt8]) -> Answer

    /// POSTs over HTTP(S) with Foundation's URLSession, waiting up to `timeoutSeconds`.
    static func http(timeoutSeconds: Double = BlockingFunctionCall.timeoutSeconds) -> FunctionTransport {
        FunctionTransport { url, body in
            guard let target = URL(string: url) else { return .unreachable }
            var request = URLRequest(url: target, timeoutInterval: timeoutSeconds)
            request.httpMethod = "POST"
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(body)
            let result = Mutex<Answer?>(nil)
            let done = DispatchSemaphore(value: 0)
            URLSession.shared.dataTask(with: request) { data, response, error in
                let answer: Answer
                if let response = response as? HTTPURLResponse, error == nil {
                    answer = .answer(status: response.statusCode, body: Array(data ?? Data()))
                } else if (error as? URLError)?.code == .timedOut {
                    answer = .timedOut
                } else {
                    answer = .unreachable
                }
                result.withLock { $0 = answer }
                done.signal()
            }.resume()
            done.wait()
            return result.withLock { $0 } ?? .unreachable
        }
    }
}
