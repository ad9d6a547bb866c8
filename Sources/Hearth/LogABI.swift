import CHearthHeader
import HearthCore

@_cdecl("hearth_set_log_callback")
public func abi_set_log_callback(_ level: Int32, _ callback: hearth_log_cb?, _ userData: UnsafeMutableRawPointer?) -> Int32 {
    guard level >= Int32(HEARTH_LOG_DEBUG.rawValue), level <= Int32(HEARTH_LOG_OFF.rawValue) else {
        return AuthErrorCode.invalidArgument.rawValue
    }
    guard let callback, let minimum = LogLevel(rawValue: level) else {
        Log.setSink(nil)
        return 0
    }
    let context = HostPointer(userData)
    Log.setSink(LogSink(minimum: minimum) { level, message in
        message.withCString { callback(context.pointer, level.rawValue, $0) }
    })
    return 0
}
