import Foundation

/// Export and import from the console, in the Firebase emulator's format: the very directory
/// `--export-on-exit` writes and `--import` reads (`ExportDirectory`), carried as files.
///
/// - `GET api/projects/{p}/export` answers a zip of that directory (`firebase-export-metadata.json`,
///   `auth_export/accounts.json`, `auth_export/config.json`), unzipped anywhere it is an export
///   directory for `firebase emulators:start --import` or `hearth-emulator --import`.
/// - `POST api/projects/{p}/import` takes `{"files": {"auth_export/accounts.json": "...", ...}}`,
///   the files of such a directory by their paths in it (the page reads them from a zip, a chosen
///   folder or chosen files), and replaces the project's accounts, and its settings when
///   `config.json` is there, with the export's. All or nothing: an export with one account that
///   cannot be loaded changes nothing, and the answer names the file and the account, as
///   `--import` does.
struct ConsoleTransfer {
    let state: EmulatorState
    let environment: EmulatorEnvironment

    /// An export directory has three files; a few more (other emulators' data) are passed over.
    static let maximumFiles = 64

    struct Imported: Encodable {
        var accounts: Int
        var settings: Bool
        var notes: [String]
    }

    private struct ImportRequest: Decodable {
        var files: [String: String]
    }

    func export(_ scope: ConsoleScope) -> EmulatorResponse {
        do throws(ApiError) {
            try requireProject(scope)
            let (users, config) = try scope.project(in: state).read { ($0.usersSortedByLocalId(), $0.config) }
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            do throws(ExportDirectory.Failure) {
                try ExportDirectory.write(users: users, config: config, to: directory.path)
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
            try require(files.count <= Self.maximumFiles, "Too many files (\(files.count)); an export directory has three.")

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
            let accountsFile = directory.relative(accountsPath)
            // An export always has one, even of a project without accounts; without it, a stray
            // file would wipe the project.
            guard FileManager.default.fileExists(atPath: accountsPath) else {
                throw .badRequest("The export has no \(accountsFile): choose the export's folder, its zip, or its files.")
            }
            let clock = environment.clock
            try scope.project(in: state).write { project throws(ApiError) in
                var replaced = project
                replaced.deleteAllUsers()
                if let settings = contents.settings {
                    do throws(ApiError) {
                        replaced.config = try EmulatorConfig.applying(settings, to: project.config)
                    } catch {
                        throw .badRequest("\(directory.relative("\(authDirectory)/\(ExportDirectory.configFileName)")): \(ExportDirectory.fileMessage(error))")
                    }
                    if replaced.config.smsRateLimit != project.config.smsRateLimit { replaced.smsRateLimiter.reset() }
                }
                let failures: [AccountImport.Failure]
                do throws(ApiError) {
                    failures = try AccountImport.load(contents.users, into: &replaced, clock: clock)
                } catch {
                    throw .badRequest("\(accountsFile): \(error.message)")
                }
                if !failures.isEmpty {
                    let lines = failures.prefix(10).map { failure in
                        "users[\(failure.index)]\(failure.localId.map { " (localId \"\($0)\")" } ?? ""): \(failure.message)"
                    }
                    let more = failures.count > 10 ? "; and \(failures.count - 10) more" : ""
                    throw .badRequest("\(accountsFile): \(failures.count) of \(contents.users.count) accounts cannot be imported, so nothing was: "
                                      + lines.joined(separator: "; ") + more)
                }
                project = replaced
            }
            environment.log.info("Console: imported \(contents.users.count) accounts into project \(scope.projectId)")
            return ConsoleResponse.json(Imported(
                accounts: contents.users.count, settings: contents.settings != nil,
                notes: contents.notes.map { Self.consoleWording(directory.relative($0)) }))
        } catch {
            return ConsoleResponse.error(error)
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
