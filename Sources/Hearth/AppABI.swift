#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CHearthHeader
import CLibUV
import HearthAuth
import HearthBackend
import HearthTransport

typealias OptionsReader = VersionedStruct<hearth_app_options>

/// The minimum struct_size: everything up to and including `loop`.
private let minimumOptionsSize = (MemoryLayout<hearth_app_options>.offset(of: \hearth_app_options.loop) ?? 0)
    + MemoryLayout<UnsafeMutableRawPointer?>.size

@_cdecl("hearth_app_options_init")
public func abi_app_options_init(_ options: UnsafeMutablePointer<hearth_app_options>?) {
    guard let options else { return }
    options.initialize(to: hearth_app_options())
    options.pointee.struct_size = UInt32(MemoryLayout<hearth_app_options>.size)
    options.pointee.persistence = HEARTH_PERSISTENCE_FILE
}

@_cdecl("hearth_app_create")
public func abi_app_create(_ options: UnsafePointer<hearth_app_options>?,
                           _ out: UnsafeMutablePointer<OpaquePointer?>?) -> Int32 {
    out?.pointee = nil
    do throws(AppOptionsProblem) {
        guard let out else { throw AppOptionsProblem("out is NULL: pass the address of a hearth_app *.") }
        let (configuration, hostLoop, store) = try readAppOptions(options)
        let app: App
        do throws(AuthError) {
            app = try App.create(configuration: configuration, hostLoop: hostLoop, store: store)
        } catch {
            return LastError.set(error, "hearth_app_create")
        }
        let appHandle = AppHandle(app: app)
        let appPointer = HandleRegistry.shared.register(appHandle)
        appHandle.authHandle = HandleRegistry.shared.register(
            AuthHandle(auth: app.auth, appHandle: appHandle, appPointer: appPointer))
        out.pointee = OpaquePointer(appPointer)
        return 0
    } catch {
        return LastError.set(.invalidArgument, "hearth_app_create", error.message)
    }
}

/// Why hearth_app_create refused its options, in a sentence naming the option.
struct AppOptionsProblem: Error {
    let message: String
    init(_ message: String) { self.message = message }

    init(_ problem: HostString.Problem) {
        switch problem {
        case .null(let name): message = "options.\(name) is NULL."
        case .invalidUTF8(let name): message = "options.\(name) is not valid UTF-8."
        case .empty(let name): message = "options.\(name) is empty."
        case .invalidHandle(let name): message = "options.\(name) is not a live handle."
        case .structTooSmall(let name): message = "\(name).struct_size is too small."
        case .invalid(let text): message = text
        }
    }
}

private func optionString(_ reader: OptionsReader, _ path: KeyPath<hearth_app_options, UnsafePointer<CChar>?>,
                          _ name: String) throws(AppOptionsProblem) -> String? {
    do throws(HostString.Problem) {
        return try HostString.optional(reader.field(path, default: nil), name)
    } catch {
        throw AppOptionsProblem(error)
    }
}

/// The configuration, host loop and session store that `options` describe, or the first thing wrong
/// with them.
private func readAppOptions(_ options: UnsafePointer<hearth_app_options>?) throws(AppOptionsProblem)
    -> (AppConfiguration, UnsafeMutablePointer<uv_loop_t>?, SessionStore) {
    guard let options else { throw AppOptionsProblem("options is NULL.") }
    let size = Int(UnsafeRawPointer(options).loadUnaligned(as: UInt32.self))
    guard size >= minimumOptionsSize else {
        throw AppOptionsProblem("options.struct_size is \(size), smaller than the first hearth_app_options "
                                + "(\(minimumOptionsSize) bytes): initialize the options with hearth_app_options_init.")
    }
    let reader = OptionsReader(pointer: options, size: size)
    guard let apiKey = try optionString(reader, \.api_key, "api_key") else {
        throw AppOptionsProblem("options.api_key is NULL: it is required (the project's Web API key).")
    }
    guard !apiKey.isEmpty else { throw AppOptionsProblem("options.api_key is empty: it is required.") }
    var configuration = AppConfiguration(apiKey: apiKey)
    configuration.projectId = try optionString(reader, \.project_id, "project_id")
    configuration.appId = try optionString(reader, \.app_id, "app_id")
    configuration.authDomain = try optionString(reader, \.auth_domain, "auth_domain")
    if let name = try optionString(reader, \.app_name, "app_name") {
        guard !name.isEmpty else { throw AppOptionsProblem("options.app_name is empty: give a name, or NULL for \"[DEFAULT]\".") }
        configuration.appName = name
    }
    let timeout = reader.field(\.request_timeout_ms, default: 0)
    if timeout < 0 || timeout > Int64(Int32.max) {
        throw AppOptionsProblem("options.request_timeout_ms is \(timeout); it must be between 0 (the default, "
                                + "30000) and \(Int32.max).")
    }
    if timeout > 0 { configuration.requestTimeoutMs = Int(timeout) }
    configuration.caBundlePath = try optionString(reader, \.ca_bundle_path, "ca_bundle_path")
    // An unreadable CA bundle would fail every request later; say so now, where it was given.
    if let path = configuration.caBundlePath, let problem = CurlTransport.caBundleProblem(path) {
        throw AppOptionsProblem("options.ca_bundle_path: \(problem)")
    }
    let store = try makeStore(reader, configuration)
    let hostLoop = reader.field(\.loop, default: nil).map {
        UnsafeMutableRawPointer($0).assumingMemoryBound(to: uv_loop_t.self)
    }
    return (configuration, hostLoop, store)
}

private func makeStore(_ reader: OptionsReader, _ configuration: AppConfiguration) throws(AppOptionsProblem)
    -> SessionStore {
    let mode = reader.field(\.persistence, default: HEARTH_PERSISTENCE_FILE)
    switch mode {
    case HEARTH_PERSISTENCE_FILE:
        let directory = try optionString(reader, \.persistence_dir, "persistence_dir")
        return FileSessionStore(directory: directory.flatMap { $0.isEmpty ? nil : $0 } ?? FileSessionStore.defaultDirectory(),
                                fileName: configuration.sessionFileName)
    case HEARTH_PERSISTENCE_NONE:
        return NoSessionStore()
    case HEARTH_PERSISTENCE_CALLBACKS:
        let load = reader.field(\.storage_load, default: nil)
        let save = reader.field(\.storage_save, default: nil)
        let erase = reader.field(\.storage_erase, default: nil)
        guard let load, let save, let erase else {
            let missing = [(load == nil, "storage_load"), (save == nil, "storage_save"), (erase == nil, "storage_erase")]
                .filter(\.0).map(\.1).joined(separator: ", ")
            throw AppOptionsProblem("options.persistence is HEARTH_PERSISTENCE_CALLBACKS but \(missing) "
                                    + "\(missing.contains(",") ? "are" : "is") NULL: all three storage callbacks are needed.")
        }
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
        throw AppOptionsProblem("options.persistence is \(mode.rawValue), which is not a hearth_persistence value "
                                + "(HEARTH_PERSISTENCE_FILE, _NONE or _CALLBACKS).")
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
        return LastError.set(.invalidHandle, "hearth_storage_reply_set",
                             "reply is not a live reply: use the one given to the running storage_load callback.")
    }
    guard length >= 0, data != nil || length == 0 else {
        return LastError.set(.invalidArgument, "hearth_storage_reply_set", "data is NULL but length is \(length).")
    }
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

public typealias PostCallback = @convention(c) (UnsafeMutableRawPointer?, hearth_error) -> Void

@_cdecl("hearth_app_post")
public func abi_app_post(_ app: OpaquePointer?, _ fn: PostCallback?, _ userData: UnsafeMutableRawPointer?) -> Int32 {
    guard let handle = HandleRegistry.shared.object(UnsafeRawPointer(app), as: AppHandle.self) else {
        return LastError.set(.invalidHandle, "hearth_app_post", "app is not a live app (NULL, destroyed or foreign).")
    }
    guard let fn else { return LastError.set(.invalidArgument, "hearth_app_post", "fn is NULL.") }
    let context = HostPointer(userData)
    let call = CallbackDispatcher.HostCall.cancellable(
        run: { fn(context.pointer, HEARTH_ERROR_NONE) },
        cancelled: { fn(context.pointer, HEARTH_ERROR_CANCELLED) })
    guard handle.app.dispatcher.schedule(call) else {
        return LastError.set(.appDestroyed, "hearth_app_post", "the app's destroy has already ended its registrations.")
    }
    return 0
}

@_cdecl("hearth_app_is_loop_thread")
public func abi_app_is_loop_thread(_ app: OpaquePointer?) -> Int32 {
    guard let handle = HandleRegistry.shared.object(UnsafeRawPointer(app), as: AppHandle.self) else { return 0 }
    return handle.app.loop.isLoopThread ? 1 : 0
}
