#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CHearthHeader
import CLibUV
import HearthCore

typealias OptionsReader = VersionedStruct<hearth_app_options>

/// The minimum struct_size: everything up to and including `loop`.
private let minimumOptionsSize = (MemoryLayout<hearth_app_options>.offset(of: \hearth_app_options.loop) ?? 0)
    + MemoryLayout<UnsafeMutableRawPointer?>.size

@_cdecl("hearth_app_options_init")
public func abi_app_options_init(_ options: UnsafeMutablePointer<hearth_app_options>?) {
    guard let options else { return }
    options.initialize(to: hearth_app_options())
    options.pointee.struct_size = UInt32(MemoryLayout<hearth_app_options>.size)
    options.pointee.persistence = Int32(HEARTH_PERSISTENCE_FILE.rawValue)
}

@_cdecl("hearth_app_create")
public func abi_app_create(_ options: UnsafePointer<hearth_app_options>?,
                           _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    out?.pointee = nil
    guard let out else { return AuthErrorCode.invalidArgument.rawValue }
    guard let options else { return AuthErrorCode.invalidArgument.rawValue }
    let size = Int(UnsafeRawPointer(options).loadUnaligned(as: UInt32.self))
    guard size >= minimumOptionsSize else { return AuthErrorCode.invalidArgument.rawValue }
    let reader = OptionsReader(pointer: options, size: size)
    do {
        guard let apiKey = try HostString.optional(reader.field(\.api_key, default: nil), "api_key"),
              !apiKey.isEmpty else { return AuthErrorCode.invalidArgument.rawValue }
        var configuration = AppConfiguration(apiKey: apiKey)
        configuration.projectId = try HostString.optional(reader.field(\.project_id, default: nil), "project_id")
        configuration.appId = try HostString.optional(reader.field(\.app_id, default: nil), "app_id")
        configuration.authDomain = try HostString.optional(reader.field(\.auth_domain, default: nil), "auth_domain")
        if let name = try HostString.optional(reader.field(\.app_name, default: nil), "app_name") {
            guard !name.isEmpty else { return AuthErrorCode.invalidArgument.rawValue }
            configuration.appName = name
        }
        let timeout = reader.field(\.request_timeout_ms, default: 0)
        if timeout < 0 || timeout > Int64(Int32.max) { return AuthErrorCode.invalidArgument.rawValue }
        if timeout > 0 { configuration.requestTimeoutMs = Int(timeout) }
        configuration.caBundlePath = try HostString.optional(reader.field(\.ca_bundle_path, default: nil),
                                                             "ca_bundle_path")
        // An unreadable CA bundle would fail every request later; say so now, where it was given.
        if let path = configuration.caBundlePath, CurlTransport.caBundleProblem(path) != nil {
            return AuthErrorCode.invalidArgument.rawValue
        }
        guard let store = try makeStore(reader, configuration) else { return AuthErrorCode.invalidArgument.rawValue }
        let hostLoop = reader.field(\.loop, default: nil).map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: uv_loop_t.self) }
        let app = try App.create(configuration: configuration, hostLoop: hostLoop, store: store)
        let appHandle = AppHandle(app: app)
        let appPointer = HandleRegistry.shared.register(appHandle)
        appHandle.authHandle = HandleRegistry.shared.register(
            AuthHandle(auth: app.auth, appHandle: appHandle, appPointer: appPointer))
        out.pointee = OpaquePointer(appPointer)
        return 0
    } catch let problem as HostString.Problem {
        _ = problem
        return AuthErrorCode.invalidArgument.rawValue
    } catch let error as AuthError {
        return error.code.rawValue
    } catch {
        return AuthErrorCode.failure.rawValue
    }
}

private func makeStore(_ reader: OptionsReader, _ configuration: AppConfiguration) throws -> SessionStore? {
    let mode = reader.field(\.persistence, default: Int32(HEARTH_PERSISTENCE_FILE.rawValue))
    switch UInt32(bitPattern: mode) {
    case HEARTH_PERSISTENCE_FILE.rawValue:
        let directory = try HostString.optional(reader.field(\.persistence_dir, default: nil), "persistence_dir")
        return FileSessionStore(directory: directory.flatMap { $0.isEmpty ? nil : $0 } ?? FileSessionStore.defaultDirectory(),
                                fileName: configuration.sessionFileName)
    case HEARTH_PERSISTENCE_NONE.rawValue:
        return NoSessionStore()
    case HEARTH_PERSISTENCE_CALLBACKS.rawValue:
        guard let load = reader.field(\.storage_load, default: nil),
              let save = reader.field(\.storage_save, default: nil),
              let erase = reader.field(\.storage_erase, default: nil) else { return nil }
        let context = HostPointer(reader.field(\.storage_user_data, default: nil))
        return CallbackSessionStore(
            key: configuration.sessionKey,
            load: { key in
                let reply = StorageReplyHandle()
                let replyPointer = HandleRegistry.shared.register(reply)
                defer { HandleRegistry.shared.unregister(replyPointer, as: StorageReplyHandle.self) }
                let status = key.withCString { load(context.pointer, $0, OpaquePointer(replyPointer)) }
                return status == 0 ? reply.bytes : nil
            },
            save: { key, bytes in
                key.withCString { keyPointer in
                    bytes.withUnsafeBufferPointer { buffer in
                        buffer.withMemoryRebound(to: CChar.self) {
                            save(context.pointer, keyPointer, $0.baseAddress, $0.count) == 0
                        }
                    }
                }
            },
            erase: { key in key.withCString { erase(context.pointer, $0) == 0 } })
    default:
        return nil
    }
}

/// A host pointer carried into closures (the host vouches for its thread safety).
struct HostPointer: @unchecked Sendable {
    let pointer: UnsafeMutableRawPointer?
    init(_ pointer: UnsafeMutableRawPointer?) { self.pointer = pointer }
}

@_cdecl("hearth_storage_reply_set")
public func abi_storage_reply_set(_ reply: OpaquePointer?, _ data: UnsafePointer<CChar>?, _ length: Int) -> Int32 {
    guard let handle = HandleRegistry.shared.object(UnsafeRawPointer(reply), as: StorageReplyHandle.self) else {
        return AuthErrorCode.invalidHandle.rawValue
    }
    guard length >= 0, data != nil || length == 0 else { return AuthErrorCode.invalidArgument.rawValue }
    if let data {
        handle.bytes = data.withMemoryRebound(to: UInt8.self, capacity: length) {
            Array(UnsafeBufferPointer(start: $0, count: length))
        }
    } else {
        handle.bytes = []
    }
    return 0
}

@_cdecl("hearth_app_destroy")
public func abi_app_destroy(_ app: OpaquePointer?) {
    guard let handle = HandleRegistry.shared.unregister(UnsafeRawPointer(app), as: AppHandle.self) else { return }
    if let auth = handle.authHandle { HandleRegistry.shared.unregister(auth, as: AuthHandle.self) }
    handle.app.destroy()
}

@_cdecl("hearth_app_name")
public func abi_app_name(_ app: OpaquePointer?) -> UnsafePointer<CChar>? {
    HandleRegistry.shared.object(UnsafeRawPointer(app), as: AppHandle.self)?.name.borrowed
}

@_cdecl("hearth_app_set_user_data")
public func abi_app_set_user_data(_ app: OpaquePointer?, _ userData: UnsafeMutableRawPointer?) {
    HandleRegistry.shared.object(UnsafeRawPointer(app), as: AppHandle.self)?.userData.withLock { $0 = userData }
}

@_cdecl("hearth_app_get_user_data")
public func abi_app_get_user_data(_ app: OpaquePointer?) -> UnsafeMutableRawPointer? {
    HandleRegistry.shared.object(UnsafeRawPointer(app), as: AppHandle.self)?.userData.current
}

@_cdecl("hearth_app_post")
public func abi_app_post(_ app: OpaquePointer?, _ fn: (@convention(c) (UnsafeMutableRawPointer?) -> Void)?,
                         _ userData: UnsafeMutableRawPointer?) -> Int32 {
    guard let handle = HandleRegistry.shared.object(UnsafeRawPointer(app), as: AppHandle.self) else {
        return AuthErrorCode.invalidHandle.rawValue
    }
    guard let fn else { return AuthErrorCode.invalidArgument.rawValue }
    let context = HostPointer(userData)
    return handle.app.dispatcher.schedule { fn(context.pointer) } ? 0 : AuthErrorCode.appDestroyed.rawValue
}

@_cdecl("hearth_app_is_loop_thread")
public func abi_app_is_loop_thread(_ app: OpaquePointer?) -> Int32 {
    guard let handle = HandleRegistry.shared.object(UnsafeRawPointer(app), as: AppHandle.self) else { return 0 }
    return handle.app.loop.isLoopThread ? 1 : 0
}
