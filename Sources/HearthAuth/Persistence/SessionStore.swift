import HearthTransport

/// Where a signed-in session is kept between runs. Implementations are called with the session
/// already serialized; they only move bytes.
package protocol SessionStore: AnyObject, Sendable {
    /// The stored bytes, or nil when nothing is stored or the store cannot be read (both read as
    /// signed out).
    func load() -> [UInt8]?
    func save(_ bytes: [UInt8]) throws(SessionStoreError)
    func erase() throws(SessionStoreError)
    /// False when saving would keep nothing beyond the app's life (persistence "none"): Auth then
    /// skips serializing the session at all.
    var keepsSessions: Bool { get }
}

extension SessionStore {
    package var keepsSessions: Bool { true }
}

/// Persistence "none": the session lives in the Auth only, and nothing is written anywhere.
package final class NoSessionStore: SessionStore {
    package init() {}
    package func load() -> [UInt8]? { nil }
    package func save(_ bytes: [UInt8]) throws(SessionStoreError) {}
    package func erase() throws(SessionStoreError) {}
    package var keepsSessions: Bool { false }
}

package struct SessionStoreError: Error, Sendable, Equatable {
    package var message: String
    package init(_ message: String) { self.message = message }
}

/// Sessions kept in memory (tests, and hosts that want to inspect what would be written).
package final class MemorySessionStore: SessionStore {
    private let bytes = Locked<[UInt8]?>(nil)
    package init() {}
    package func load() -> [UInt8]? { bytes.current }
    package func save(_ data: [UInt8]) throws(SessionStoreError) { bytes.withLock { $0 = data } }
    package func erase() throws(SessionStoreError) { bytes.withLock { $0 = nil } }
}

/// Persistence through the host's own storage (engine save data, a keystore).
package final class CallbackSessionStore: SessionStore {
    package typealias Load = @Sendable (_ key: String) -> [UInt8]?
    package typealias Save = @Sendable (_ key: String, _ bytes: [UInt8]) -> Bool
    package typealias Erase = @Sendable (_ key: String) -> Bool

    private let key: String
    private let loadFn: Load
    private let saveFn: Save
    private let eraseFn: Erase

    package init(key: String, load: @escaping Load, save: @escaping Save, erase: @escaping Erase) {
        self.key = key
        self.loadFn = load
        self.saveFn = save
        self.eraseFn = erase
    }

    package func load() -> [UInt8]? { loadFn(key) }

    package func save(_ bytes: [UInt8]) throws(SessionStoreError) {
        if !saveFn(key, bytes) { throw SessionStoreError("the host's storage save callback failed") }
    }

    package func erase() throws(SessionStoreError) {
        if !eraseFn(key) { throw SessionStoreError("the host's storage erase callback failed") }
    }
}
