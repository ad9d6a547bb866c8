import CHearthHeader
import HearthTransport

@_cdecl("hearth_log_set_callback")
public func abi_log_set_callback(_ level: Int32, _ callback: hearth_log_cb?,
                                 _ userData: UnsafeMutableRawPointer?) -> Int32 {
    guard level >= Int32(HEARTH_LOG_DEBUG.rawValue), level <= Int32(HEARTH_LOG_OFF.rawValue) else {
        return LastError.set(.invalidArgument, "hearth_log_set_callback",
                             "level \(level) is not a hearth_log_level value (HEARTH_LOG_DEBUG to HEARTH_LOG_OFF).")
    }
    guard let callback, let minimum = LogLevel(rawValue: level) else {
        Log.setSink(nil)
        return 0
    }
    let context = HostPointer(userData)
    Log.setSink(LogSink(minimum: minimum) { level, message in
        message.withCString { callback(context.pointer, hearth_log_level(rawValue: UInt32(level.rawValue)), $0) }
    })
    return 0
}
