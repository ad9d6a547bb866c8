#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HearthBackend

/// hearth_last_error_code / hearth_last_error_message: the calling thread's most recent synchronous
/// failure, like errno and dlerror. Set by the ABI functions that report failure through their return
/// value; calls that succeed leave it alone (so a success costs nothing here).
///
/// Each thread's record is a malloc'd `Record` behind a pthread key, freed by the key's destructor when
/// the thread exits. The message stays valid on its thread until the next failure replaces it.
enum LastError {
    private struct Record {
        var code: Int32
        var message: UnsafeMutablePointer<CChar>?
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let rc = pthread_key_create(&key) { pointer in
            guard let pointer else { return }
            let record = pointer.assumingMemoryBound(to: Record.self)
            free(record.pointee.message)
            free(record)
        }
        // Without a key no thread could report a message; every caller would read "" and code 0.
        precondition(rc == 0, "hearth: pthread_key_create failed (\(rc))")
        return key
    }()

    private static var current: UnsafeMutablePointer<Record>? {
        pthread_getspecific(key)?.assumingMemoryBound(to: Record.self)
    }

    /// Records a failure of `function` on this thread and returns its code, for `return LastError.set(...)`.
    @discardableResult
    static func set(_ code: AuthErrorCode, _ function: StaticString, _ message: String) -> Int32 {
        let text = "\(function): \(message)"
        var record = current
        if record == nil {
            guard let made = malloc(MemoryLayout<Record>.size)?.assumingMemoryBound(to: Record.self) else {
                return code.rawValue
            }
            made.initialize(to: Record(code: 0, message: nil))
            pthread_setspecific(key, made)
            record = made
        }
        guard let record else { return code.rawValue }
        free(record.pointee.message)
        record.pointee.code = code.rawValue
        record.pointee.message = strdup(text)
        return code.rawValue
    }

    /// Records `error` (an AuthError a core call threw) as the failure of `function`.
    @discardableResult
    static func set(_ error: AuthError, _ function: StaticString) -> Int32 {
        set(error.code, function, error.message)
    }

    /// Records a bad host argument (NULL, invalid UTF-8, a dead handle) as the failure of `function`.
    @discardableResult
    static func set(_ problem: HostString.Problem, _ function: StaticString) -> Int32 {
        set(problem.authError, function)
    }

    static var code: Int32 { current?.pointee.code ?? 0 }

    static var message: UnsafePointer<CChar> {
        guard let text = current?.pointee.message else { return CString.empty.borrowed }
        return UnsafePointer(text)
    }
}

@_cdecl("hearth_last_error_code")
public func abi_last_error_code() -> Int32 {
    LastError.code
}

@_cdecl("hearth_last_error_message")
public func abi_last_error_message() -> UnsafePointer<CChar> {
    LastError.message
}
