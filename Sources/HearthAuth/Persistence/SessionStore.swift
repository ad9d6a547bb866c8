import HearthTransport

/// Where a signed-in session is kept between runs. Implementations are called with the session
/// already serialized; they only move bytes.
public protocol SessionStore: AnyObject, Sendable {
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
    public var keepsSessions: Bool { true }
}

/// Persistence "none": the session lives in the Auth only, and nothing is written anywhere.
public final class NoSessionStore: SessionStore {
    public init() {}
    public func load() -> [UInt8]? { nil }
    public func save(_ bytes: [UInt8]) throws(SessionStoreError) {}
    public func erase() throws(SessionStoreError) {}
    public var keepsSessions: Bool { false }
}

public struct SessionStoreError: Error, Sendable, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }
}

/// Sessions kept in memory (tests, and hosts that want to inspect what would be written).
public final class MemorySessionStore: SessionStore {
    private let bytes = Locked<[UInt8]?>(nil)
    public init() {}
    public func load() -> [UInt8]? { bytes.current }
    public func save(_ data: [UInt8]) throws(SessionStoreError) { bytes.withLock { $0 = data } }
    public func erase() throws(SessionStoreError) { bytes.withLock { $0 = nil } }
}

/// Persistence through the host's own storage (engine save data, a keystore).
public final class CallbackSessionStore: SessionStore {
    public typealias Load = @Sendable (_ key: String) -> [UInt8]?
    public typealias Save = @Sendable (_ key: String, _ bytes: [UInt8]) -> Bool
    public typealias Erase = @Sendable (_ key: String) -> Bool

    private let key: String
    private let loadFn: Load
    private let saveFn: Save
    private let eraseFn: Erase

    public init(key: String, load: @escaping Load, save: @escaping Save, erase: @escaping Erase) {
        self.key = key
        self.loadFn = load
        self.saveFn = save
        self.eraseFn = erase
    }

    public func load() -> [UInt8]? { loadFn(key) }

    public func save(_ bytes: [UInt8]) throws(SessionStoreError) {
        if !saveFn(key, bytes) { throw SessionStoreError("the host's storage save callback failed") }
    }

    public func erase() throws(SessionStoreError) {
        if !eraseFn(key) { throw SessionStoreError("the host's storage erase callback failed") }
    }
}
