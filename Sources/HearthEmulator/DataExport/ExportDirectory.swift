import CHearthHeader
import Foundation
import HearthCrypto
#if canImport(Glibc)
import Glibc
/// write(2); unqualified, the name would mean Swift's own `write` methods.
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
import Darwin
private let systemWrite = Darwin.write
#endif
import HearthWire

/// The directory `firebase emulators:export` and `--export-on-exit` write, auth part:
///
/// ```
/// DIR/firebase-export-metadata.json  {"version": "...", "auth": {"version": "...", "path": "auth_export"}, ...}
/// DIR/auth_export/accounts.json      {"kind": "identitytoolkit#DownloadAccountResponse", "users": [UserInfo...]}
/// DIR/auth_export/accounts-T.json    the same for tenant T, one file per tenant
/// DIR/auth_export/config.json        {"signIn": {"allowDuplicateEmails": false}, ...}  (GET .../config)
/// ```
///
/// Reading honours the metadata's `auth.path`; without metadata it takes `DIR/auth_export`, or DIR
/// itself when the accounts file is right there. Writing replaces each file atomically and keeps
/// what other emulators recorded in the metadata (Firestore, Database, Storage).
enum ExportDirectory {
    static let metadataFileName = "firebase-export-metadata.json"
    static let authPath = "auth_export"
    static let accountsFileName = "accounts.json"
    static let configFileName = "config.json"
    /// What the metadata's `version` fields say wrote the export (hearth.h's version numbers).
    static let writerVersion = "hearth-emulator-\(HEARTH_VERSION_MAJOR).\(HEARTH_VERSION_MINOR).\(HEARTH_VERSION_PATCH)"

    struct Failure: Error, CustomStringConvertible, Sendable {
        var description: String
    }

    struct Contents: Sendable {
        /// Where the accounts and settings were read from (nil: the export has no auth data).
        var authDirectory: String?
        var users: [AccountImport.User] = []
        /// Each tenant's accounts (`accounts-<tenantId>.json`), ordered by tenant id.
        var tenantUsers: [(tenantId: String, users: [AccountImport.User])] = []
        var settings: EmulatorConfig.Settings?
        /// Things a person should know (a file that was not there), for the log.
        var notes: [String] = []
    }

    private struct AccountsFile: Decodable {
        var users: [AccountImport.User]?
    }

    private static let accountsSchema = RequestSchema([
        "kind": .string, "users": .array(.message(AccountImport.userSchema)), "nextPageToken": .string,
    ])
    /// Some exports also carry the blocking functions there; Firebase's emulator does not import
    /// them (its config import changes only `signIn` and `emailPrivacyConfig`), nor does this.
    private static let configSchema = EmulatorConfig.schema.adding(["blockingFunctions": .any])

    // MARK: Reading

    static func read(_ directory: String) throws(Failure) -> Contents {
        guard let isDirectory = kind(of: directory) else { throw Failure(description: "\(directory): no such directory") }
        guard isDirectory else { throw Failure(description: "\(directory): not a directory") }

        var contents = Contents()
        let metadataPath = join(directory, metadataFileName)
        let authDirectory: String
        if kind(of: metadataPath) != nil {
            let metadata = try object(at: metadataPath, schema: nil)
            guard let auth = metadata["auth"] else {
                contents.notes.append("\(metadataPath) lists no auth data; starting without accounts")
                return contents
            }
            guard let path = auth.objectValue?["path"]?.stringValue, !path.isEmpty else {
                throw Failure(description: "\(metadataPath): auth.path must be a non-empty string")
            }
            authDirectory = join(directory, path)
            guard kind(of: authDirectory) == true else {
                throw Failure(description: "\(metadataPath): auth.path \"\(path)\" is not a directory in \(directory)")
            }
        } else if kind(of: join(directory, authPath)) == true {
            authDirectory = join(directory, authPath)
        } else {
            authDirectory = directory
        }
        contents.authDirectory = authDirectory

        let configPath = join(authDirectory, configFileName)
        if kind(of: configPath) != nil {
            let settings = try object(at: configPath, schema: configSchema)
            contents.settings = try decode(EmulatorConfig.Settings.self, settings, file: configPath)
        } else {
            contents.notes.append("no \(configPath); keeping the command line's settings")
        }

        let accountsPath = join(authDirectory, accountsFileName)
        if kind(of: accountsPath) != nil {
            let accounts = try object(at: accountsPath, schema: accountsSchema)
            contents.users = try decode(AccountsFile.self, accounts, file: accountsPath).users ?? []
        } else {
            contents.notes.append("no \(accountsPath); starting without accounts")
        }
        for (tenantId, path) in tenantAccountFiles(in: authDirectory) {
            let accounts = try object(at: path, schema: accountsSchema)
            contents.tenantUsers.append((tenantId, try decode(AccountsFile.self, accounts, file: path).users ?? []))
        }
        return contents
    }

    /// `accounts-<tenantId>.json` files, by tenant id.
    private static func tenantAccountFiles(in directory: String) -> [(tenantId: String, path: String)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.compactMap { name -> (String, String)? in
            guard name.hasPrefix("accounts-"), name.hasSuffix(".json") else { return nil }
            let tenantId = String(name.dropFirst("accounts-".count).dropLast(".json".count))
            return tenantId.isEmpty ? nil : (tenantId, join(directory, name))
        }.sorted { $0.0 < $1.0 }
    }

    static func tenantAccountsFileName(_ tenantId: String) -> String { "accounts-\(tenantId).json" }

    private static func object(at path: String, schema: RequestSchema?) throws(Failure) -> JSONObject {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Failure(description: "\(path): cannot be read")
        }
        let value: JSONValue
        do throws(JSONParseError) {
            value = try JSONValue.parse(Array(data))
        } catch {
            switch error.kind {
            case .invalidUTF8: throw Failure(description: "\(path): not UTF-8 text")
            case .syntax, .tooDeep, .numberOutOfRange: throw Failure(description: "\(path): not valid JSON: \(error)")
            }
        }
        guard let object = value.objectValue else { throw Failure(description: "\(path): must hold a JSON object") }
        guard let schema else { return object }
        do throws(ApiError) {
            return try schema.validate(object)
        } catch {
            throw Failure(description: "\(path): \(fileMessage(error))")
        }
    }

    private static func decode<T: Decodable>(_ type: T.Type, _ object: JSONObject, file: String) throws(Failure) -> T {
        do throws(ApiError) {
            return try JSONCoding.decode(type, from: object)
        } catch {
            throw Failure(description: "\(file): \(error.message)")
        }
    }

    /// An API error as said about a file: the request wording ("Invalid JSON payload received.") goes.
    static func fileMessage(_ error: ApiError) -> String {
        error.message.replacingOccurrences(of: "Invalid JSON payload received. ", with: "")
    }

    // MARK: Writing

    /// Writes the accounts (ordered by localId, as batchGet lists them) and settings of one project,
    /// and each of its tenants' accounts (files of tenants that are gone are removed).
    static func write(
        users: [UserRecord], tenants: [(tenantId: String, users: [UserRecord])] = [], config: ProjectConfig,
        to directory: String
    ) throws(Failure) {
        let authDirectory = join(directory, authPath)
        do {
            try FileManager.default.createDirectory(atPath: authDirectory, withIntermediateDirectories: true)
        } catch {
            throw Failure(description: "\(authDirectory): cannot be created (\(error.localizedDescription))")
        }

        try writeAtomically(accountsFile(users), to: join(authDirectory, accountsFileName))
        let kept = Set(tenants.map { tenantAccountsFileName($0.tenantId) })
        for (tenantId, tenantUsers) in tenants {
            try writeAtomically(accountsFile(tenantUsers), to: join(authDirectory, tenantAccountsFileName(tenantId)))
        }
        for (tenantId, path) in tenantAccountFiles(in: authDirectory) where !kept.contains(tenantAccountsFileName(tenantId)) {
            unlink(path)
        }
        try writeAtomically(JSONCoding.encode(EmulatorConfig.Settings(config)) + Array("\n".utf8),
                            to: join(authDirectory, configFileName))

        // The metadata goes last, as Firebase writes it: it names data that is already complete.
        let metadataPath = join(directory, metadataFileName)
        var metadata = FileManager.default.contents(atPath: metadataPath)
            .flatMap { try? JSONValue.parse(Array($0)) }?.objectValue ?? JSONObject()
        if metadata["version"]?.stringValue == nil { metadata["version"] = .string(writerVersion) }
        metadata["auth"] = .object(JSONObject([("version", .string(writerVersion)), ("path", .string(authPath))]))
        try writeAtomically(JSONValue.object(metadata).serialized() + Array("\n".utf8), to: metadataPath)
        syncDirectory(authDirectory)
        syncDirectory(directory)
    }

    /// One account per line: valid JSON that still diffs well when an export is kept in git.
    private static func accountsFile(_ users: [UserRecord]) -> [UInt8] {
        var accounts = Array(#"{"kind":"identitytoolkit#DownloadAccountResponse","users":["#.utf8)
        for (index, user) in users.enumerated() {
            accounts.append(contentsOf: (index == 0 ? "\n" : ",\n").utf8)
            accounts.append(contentsOf: exported(user).serialized())
        }
        accounts.append(contentsOf: (users.isEmpty ? "]}\n" : "\n]}\n").utf8)
        return accounts
    }

    /// The account as batchGet lists it, plus each TOTP factor's shared secret, which no API
    /// response carries but without which the factor could not be used after an import.
    private static func exported(_ user: UserRecord) -> JSONValue {
        guard var object = (try? JSONValue.parse(JSONCoding.encode(user)))?.objectValue else { return .null }
        if let enrollments = user.mfaInfo, case .array(var items)? = object["mfaInfo"], items.count == enrollments.count {
            for (index, enrollment) in enrollments.enumerated() {
                guard let secret = enrollment.totpSecret, var item = items[index].objectValue else { continue }
                item["totpInfo"] = .object(JSONObject([("sharedSecretKey", .string(Base32.encode(secret, padding: false)))]))
                items[index] = .object(item)
            }
            object["mfaInfo"] = .array(items)
        }
        return .object(object)
    }

    /// Temp file, fsync, rename: a reader (or a crash) sees the old file or the new one, never half.
    private static func writeAtomically(_ bytes: [UInt8], to path: String) throws(Failure) {
        let temporary = "\(path).tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure("cannot be written", temporary) }
        var written = 0
        while written < bytes.count {
            let result = bytes[written...].withUnsafeBytes { systemWrite(fd, $0.baseAddress, $0.count) }
            if result < 0 {
                if errno == EINTR { continue }
                let error = failure("cannot be written", temporary)
                close(fd)
                unlink(temporary)
                throw error
            }
            written += result
        }
        guard fsync(fd) == 0 else {
            let error = failure("cannot be flushed", temporary)
            close(fd)
            unlink(temporary)
            throw error
        }
        close(fd)
        guard rename(temporary, path) == 0 else {
            let error = failure("cannot replace the old file", path)
            unlink(temporary)
            throw error
        }
    }

    /// Makes the renames durable; best effort (some file systems refuse fsync on a directory).
    private static func syncDirectory(_ path: String) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 {
            _ = fsync(fd)
            close(fd)
        }
    }

    private static func failure(_ what: String, _ path: String) -> Failure {
        Failure(description: "\(path): \(what) (\(String(cString: strerror(errno))))")
    }

    // MARK: Paths

    /// nil: nothing there; true: a directory; false: something else.
    private static func kind(of path: String) -> Bool? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
        return isDirectory.boolValue
    }

    private static func join(_ directory: String, _ name: String) -> String {
        if name.hasPrefix("/") { return name }
        return directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}
