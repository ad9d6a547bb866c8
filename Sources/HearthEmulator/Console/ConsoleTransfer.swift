import Foundation

/// Export and import from the console, in the Firebase emulator's format: the very directory
/// `--export-on-exit` writes and `--import` reads (`ExportDirectory`), carried as files.
///
/// - `GET api/projects/{p}/export` answers a zip of that directory (`firebase-export-metadata.json`,
///   `auth_export/accounts.json`, `auth_export/accounts-<tenantId>.json` for each tenant,
///   `auth_export/config.json`), unzipped anywhere it is an export directory for
///   `firebase emulators:start --import` or `hearth-emulator --import`.
/// - `POST api/projects/{p}/import` takes `{"files": {"auth_export/accounts.json": "...", ...}}`,
///   the files of such a directory by their paths in it (the page reads them from a zip, a chosen
///   folder or chosen files), and replaces the project's accounts (and those of each tenant the
///   export has a file for), and its settings when `config.json` is there, with the export's. All
///   or nothing: an export with one account that cannot be loaded changes nothing, and the answer
///   names the file and the account, as `--import` does.
struct ConsoleTransfer {
    let state: EmulatorState
    let environment: EmulatorEnvironment

    /// An export directory has a few files; more (other emulators' data) are passed over by the page.
    static let maximumFiles = 1000

    struct Imported: Encodable {
        var accounts: Int
        /// Tenants whose accounts were replaced.
        var tenants: [String]
        var settings: Bool
        var notes: [String]
    }

    private struct ImportRequest: Decodable {
        var files: [String: String]
    }

    func export(_ scope: ConsoleScope) -> EmulatorResponse {
        do throws(ApiError) {
            try requireProject(scope)
            let (users, config) = scope.project(in: state).read { ($0.usersSortedByLocalId(), $0.config) }
            let family = state.family(scope.projectId)
            let tenants = family.tenantConfigs(after: nil).compactMap { tenant -> (tenantId: String, users: [UserRecord])? in
                // One deleted meanwhile is left out, not made again.
                guard let locked = family.tenants.read({ $0[tenant.tenantId] }) else { return nil }
                return (tenant.tenantId, locked.read { $0.usersSortedByLocalId() })
            }
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            do throws(ExportDirectory.Failure) {
                try ExportDirectory.write(users: users, tenants: tenants, config: config, to: directory.path)
            } catch {
                throw .internalError("The export could not be written: \(directory.relative(error.description))")
            }
            let entries = try directory.files().map { ZipArchive.Entry(path: $0.path, bytes: $0.bytes) }
            let archive: [UInt8]
            do throws(ZipArchive.TooLarge) {
                archive = try ZipArchive.stored(entries)
            } catch {
                throw .internalError("The export is too large for a zip without ZIP64.")
            }
            return ConsoleResponse.download(archive, contentType: "application/zip",
                                            fileName: "hearth-emulator-export-\(scope.projectId).zip")
        } catch {
            return ConsoleResponse.error(error)
        }
    }

    func `import`(_ body: EmulatorRequest.Body, into scope: ConsoleScope) -> EmulatorResponse {
        do throws(ApiError) {
            try requireProject(scope)
            guard case .bytes(let bytes) = body else { throw .payloadTooLarge(limit: Console.bodyLimit) }
            let object = try RequestBodyParser.parse(bytes, contentType: "application/json", as: .json(RequestSchema([
                "files": .stringMap,
            ])))
            let files = try JSONCoding.decode(ImportRequest.self, from: object).files
            try require(!files.isEmpty, "No files: give the files of an export directory (firebase-export-metadata.json, auth_export/accounts.json, auth_export/config.json).")
            try require(files.count <= Self.maximumFiles, "Too many files (\(files.count)).")

            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            for (path, text) in files {
                try directory.write(Array(text.utf8), to: path)
            }
            let contents: ExportDirectory.Contents
            do throws(ExportDirectory.Failure) {
                contents = try ExportDirectory.read(directory.path)
            } catch {
                throw .badRequest(directory.relative(error.description))
            }
            guard let authDirectory = contents.authDirectory else {
                throw .badRequest("The export has no auth data (its firebase-export-metadata.json lists none).")
            }
            let accountsPath = "\(authDirectory)/\(ExportDirectory.accountsFileName)"
            // An export always has one, even of a project without accounts; without it, a stray
            // file would wipe the project.
            guard FileManager.default.fileExists(atPath: accountsPath) else {
                throw .badRequest("The export has no \(directory.relative(accountsPath)): choose the export's folder, its zip, or its files.")
            }

            // Every scope is loaded into a copy first: a failure anywhere changes nothing. Loading
            // again under each lock then cannot fail (the same accounts into an emptied project).
            var loads = [Load(
                locked: scope.project(in: state), users: contents.users, file: directory.relative(accountsPath),
                settings: contents.settings.map { ($0, directory.relative("\(authDirectory)/\(ExportDirectory.configFileName)")) })]
            for (tenantId, users) in contents.tenantUsers {
                loads.append(Load(
                    locked: state.tenant(tenantId, of: scope.projectId), users: users,
                    file: directory.relative("\(authDirectory)/\(ExportDirectory.tenantAccountsFileName(tenantId))"),
                    settings: nil))
            }
            let clock = environment.clock
            for load in loads {
                var copy = load.locked.read { $0 }
                try load.replace(&copy, clock: clock)
            }
            for load in loads {
                try load.locked.write { project throws(ApiError) in try load.replace(&project, clock: clock) }
            }
            if contents.settings != nil { state.family(scope.projectId).shareConfig() }

            let tenants = contents.tenantUsers.map(\.tenantId)
            environment.log.info("Console: imported \(contents.users.count) accounts into project \(scope.projectId)"
                                 + (tenants.isEmpty ? "" : " and the accounts of its tenants \(tenants.joined(separator: ", "))"))
            return ConsoleResponse.json(Imported(
                accounts: contents.users.count, tenants: tenants, settings: contents.settings != nil,
                notes: contents.notes.map { Self.consoleWording(directory.relative($0)) }))
        } catch {
            return ConsoleResponse.error(error)
        }
    }

    /// One project's (or tenant's) part of an import.
    private struct Load {
        var locked: LockedProject
        var users: [AccountImport.User]
        /// The accounts file, as the export names it.
        var file: String
        /// `config.json` and its name.
        var settings: (EmulatorConfig.Settings, file: String)?

        /// Replaces `project`'s accounts (and settings) with the export's, or throws leaving it as it was.
        func replace(_ project: inout ProjectState, clock: EmulatorClock) throws(ApiError) {
            var replaced = project
            replaced.deleteAllUsers()
            if let (settings, file) = settings {
                do throws(ApiError) {
                    replaced.config = try EmulatorConfig.applying(settings, to: project.config)
                } catch {
                    throw .badRequest("\(file): \(ExportDirectory.fileMessage(error))")
                }
                if replaced.config.smsRateLimit != project.config.smsRateLimit { replaced.smsRateLimiter.reset() }
            }
            let failures: [AccountImport.Failure]
            do throws(ApiError) {
                failures = try AccountImport.load(users, into: &replaced, clock: clock)
            } catch {
                throw .badRequest("\(file): \(error.message)")
            }
            if !failures.isEmpty {
                let lines = failures.prefix(10).map { failure in
                    "users[\(failure.index)]\(failure.localId.map { " (localId \"\($0)\")" } ?? ""): \(failure.message)"
                }
                let more = failures.count > 10 ? "; and \(failures.count - 10) more" : ""
                throw .badRequest("\(file): \(failures.count) of \(users.count) accounts cannot be imported, so nothing was: "
                                  + lines.joined(separator: "; ") + more)
            }
            project = replaced
        }
    }

    /// `ExportDirectory`'s notes speak of a start from the command line.
    private static func consoleWording(_ note: String) -> String {
        note.replacingOccurrences(of: "; keeping the command line's settings", with: ": the settings stay as they were")
    }

    /// An export is a project's, tenants included; a tenant alone has no export directory of its own.
    private func requireProject(_ scope: ConsoleScope) throws(ApiError) {
        if scope.tenantId != nil {
            throw .badRequest("Export and import cover a project with its tenants; use projects/\(scope.projectId) without a tenant.")
        }
    }
}

/// A private directory under the system's temporary directory, for an export on its way in or out.
struct TemporaryDirectory {
    let path: String

    init() throws(ApiError) {
        var template = Array((NSTemporaryDirectory() + "/hearth-console-XXXXXX").utf8CString)
        guard let base = template.withUnsafeMutableBufferPointer({ buffer in buffer.baseAddress.flatMap { mkdtemp($0) } }) else {
            throw .internalError("No temporary directory could be made (\(String(cString: strerror(errno)))).")
        }
        path = String(cString: base)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// `text` with this directory's path taken out: messages name files as the export names them.
    func relative(_ text: String) -> String {
        text.replacingOccurrences(of: path + "/", with: "").replacingOccurrences(of: path, with: ".")
    }

    /// Writes `bytes` at `relativePath`, made of plain names (no `..`, nothing absolute, no
    /// control characters), creating the directories on the way.
    func write(_ bytes: [UInt8], to relativePath: String) throws(ApiError) {
        let parts = relativePath.split(separator: "/", omittingEmptySubsequences: false)
        let plain = !parts.isEmpty && parts.count <= 4 && parts.allSatisfy { part in
            !part.isEmpty && part != "." && part != ".." && part.utf8.count <= 255
                && part.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F && $0 != "\\" }
        }
        try require(plain, "\"\(relativePath)\" is not a path inside an export directory.")
        let target = "\(path)/\(relativePath)"
        let parent = (target as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        } catch {
            throw .badRequest("\"\(relativePath)\" cannot be placed in an export directory.")
        }
        guard FileManager.default.createFile(atPath: target, contents: Data(bytes)) else {
            throw .badRequest("\"\(relativePath)\" cannot be placed in an export directory (a file and a folder of that name?).")
        }
    }

    /// Every file below, by path relative to the directory; the metadata first, as Firebase's tools write it.
    func files() throws(ApiError) -> [(path: String, bytes: [UInt8])] {
        guard let enumerator = FileManager.default.enumerator(atPath: path) else {
            throw .internalError("The export directory cannot be read.")
        }
        var found: [(path: String, bytes: [UInt8])] = []
        while let relativePath = enumerator.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let full = "\(path)/\(relativePath)"
            guard FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            guard let data = FileManager.default.contents(atPath: full) else {
                throw .internalError("\(relativePath) of the export cannot be read.")
            }
            found.append((relativePath, Array(data)))
        }
        return found.sorted { a, b in
            let (first, second) = (a.path == ExportDirectory.metadataFileName, b.path == ExportDirectory.metadataFileName)
            return first != second ? first : a.path < b.path
        }
    }
}
