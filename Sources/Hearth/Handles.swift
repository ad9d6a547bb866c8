#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HearthAuth
import HearthBackend
import HearthTransport

/// Every handle given to the host is the address of a retained Swift object, registered here with
/// its kind. Each call checks the address first, so a released, foreign or wrong-kind handle is an
/// error code instead of a crash.
final class HandleRegistry: @unchecked Sendable {
    static let shared = HandleRegistry()

    /// Each live handle's address with its kind (`kind(T.self)`).
    private let live = Locked(AddressTable(minimumCapacity: 256))

    private static func kind<T: AnyObject>(_ type: T.Type) -> UInt { UInt(bitPattern: ObjectIdentifier(type)) }

    /// Retains `object` for the host and returns its handle.
    func register<T: AnyObject>(_ object: T) -> UnsafeMutableRawPointer {
        let pointer = Unmanaged.passRetained(object).toOpaque()
        live.withLock { $0.insert(UInt(bitPattern: pointer), tag: Self.kind(T.self)) }
        return pointer
    }

    /// The live object behind `handle`, if it is one of kind T. Retained before the lock is released,
    /// so a concurrent release cannot free it under the caller.
    func object<T: AnyObject>(_ handle: UnsafeRawPointer?, as type: T.Type) -> T? {
        guard let handle else { return nil }
        let pointer = UnsafeMutableRawPointer(mutating: handle)
        return live.withLock { entries -> T? in
            guard entries.tag(of: UInt(bitPattern: pointer)) == Self.kind(T.self) else { return nil }
            return Unmanaged<T>.fromOpaque(pointer).takeUnretainedValue()
        }
    }

    /// Ends the host's reference. Returns the object (still alive for the caller's scope), or nil for
    /// an unknown handle (a double release is then harmless).
    @discardableResult
    func unregister<T: AnyObject>(_ handle: UnsafeRawPointer?, as type: T.Type) -> T? {
        guard let handle else { return nil }
        let pointer = UnsafeMutableRawPointer(mutating: handle)
        let removed = live.withLock { entries -> Bool in
            let address = UInt(bitPattern: pointer)
            guard entries.tag(of: address) == Self.kind(T.self) else { return false }
            entries.remove(address)
            return true
        }
        return removed ? Unmanaged<T>.fromOpaque(pointer).takeRetainedValue() : nil
    }

    @discardableResult
    func unregister<T: AnyObject>(_ handle: UnsafeMutableRawPointer?, as type: T.Type) -> T? {
        unregister(handle.map { UnsafeRawPointer($0) }, as: type)
    }
}

/// A NUL-terminated copy owned by a handle: borrowed `const char *` results point into it.
final class CString: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<CChar>

    init(_ string: String) {
        // strdup of a Swift string: embedded NULs cannot occur in what Hearth hands out. Through
        // `withCString`, which lends a native string's own bytes: a String passed where a pointer is
        // expected is first copied into a new array (`utf8CString`), which strdup then copied again.
        pointer = string.withCString { strdup($0) } ?? strdup("")!
    }

    deinit { free(pointer) }

    var borrowed: UnsafePointer<CChar> { UnsafePointer(pointer) }

    /// The "" handed out for unset fields and pending messages; lives for the process.
    static let empty = CString("")
}

/// Strings from the host: NUL-terminated UTF-8, copied now.
enum HostString {
    enum Problem: Error {
        case null(String)
        case invalidUTF8(String)
        case empty(String)
        case invalidHandle(String)
        /// An options struct whose struct_size does not even cover the fields every version has.
        case structTooSmall(String)
        /// Anything else, said in full ("options.timeout_ms is negative.").
        case invalid(String)
    }

    static func required(_ pointer: UnsafePointer<CChar>?, _ name: String) throws(Problem) -> String {
        guard let pointer else { throw .null(name) }
        guard let string = String(validatingCString: pointer) else { throw .invalidUTF8(name) }
        return string
    }

    static func optional(_ pointer: UnsafePointer<CChar>?, _ name: String) throws(Problem) -> String? {
        guard let pointer else { return nil }
        guard let string = String(validatingCString: pointer) else { throw .invalidUTF8(name) }
        return string
    }
}

extension HostString.Problem {
    var authError: AuthError {
        switch self {
        case .null(let name): return AuthError(code: .invalidArgument, message: "\(name) must not be NULL.")
        case .invalidUTF8(let name): return AuthError(code: .invalidArgument, message: "\(name) is not valid UTF-8.")
        case .empty(let name): return AuthError(code: .invalidArgument, message: "\(name) must not be empty.")
        case .invalidHandle(let name):
            return AuthError(code: .invalidHandle, message: "\(name) is not a live handle (released or foreign).")
        case .structTooSmall(let name):
            return AuthError(code: .invalidArgument,
                             message: "\(name).struct_size is too small: initialize it with its _init function.")
        case .invalid(let message):
            return AuthError(code: .invalidArgument, message: message)
        }
    }
}
