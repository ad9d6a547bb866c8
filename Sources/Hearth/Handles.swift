#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HearthCore

/// Every handle given to the host is the address of a retained Swift object, registered here with
/// its kind. Each call checks the address first, so a released, foreign or wrong-kind handle is an
/// error code instead of a crash. The lookup retains the object under the lock, so a concurrent
/// release cannot free it mid-call.
final class HandleRegistry: @unchecked Sendable {
    static let shared = HandleRegistry()

    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var live: [UnsafeMutableRawPointer: ObjectIdentifier] = [:]

    private init() {
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    /// Retains `object` for the host and returns its handle.
    func register<T: AnyObject>(_ object: T) -> UnsafeMutableRawPointer {
        let pointer = Unmanaged.passRetained(object).toOpaque()
        pthread_mutex_lock(mutex)
        live[pointer] = ObjectIdentifier(T.self)
        pthread_mutex_unlock(mutex)
        return pointer
    }

    /// The live object behind `handle`, if it is one of kind T.
    func object<T: AnyObject>(_ handle: UnsafeRawPointer?, as type: T.Type) -> T? {
        guard let handle else { return nil }
        let pointer = UnsafeMutableRawPointer(mutating: handle)
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        guard live[pointer] == ObjectIdentifier(T.self) else { return nil }
        return Unmanaged<T>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// Ends the host's reference. Returns the object (still alive for the caller's scope), or nil for
    /// an unknown handle (a double release is then harmless).
    @discardableResult
    func unregister<T: AnyObject>(_ handle: UnsafeRawPointer?, as type: T.Type) -> T? {
        guard let handle else { return nil }
        return unregister(pointer: handle, as: type)
    }

    @discardableResult
    func unregister<T: AnyObject>(_ handle: UnsafeMutableRawPointer?, as type: T.Type) -> T? {
        guard let handle else { return nil }
        return unregister(pointer: UnsafeRawPointer(handle), as: type)
    }

    private func unregister<T: AnyObject>(pointer handle: UnsafeRawPointer, as type: T.Type) -> T? {
        let pointer = UnsafeMutableRawPointer(mutating: handle)
        pthread_mutex_lock(mutex)
        guard live[pointer] == ObjectIdentifier(T.self) else {
            pthread_mutex_unlock(mutex)
            return nil
        }
        live.removeValue(forKey: pointer)
        pthread_mutex_unlock(mutex)
        return Unmanaged<T>.fromOpaque(pointer).takeRetainedValue()
    }
}

/// A NUL-terminated copy owned by a handle: borrowed `const char *` results point into it.
final class CString: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<CChar>

    init(_ string: String) {
        // strdup of a Swift string: embedded NULs cannot occur in what Hearth hands out.
        pointer = strdup(string) ?? strdup("")!
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
        }
    }
}
