#if canImport(Glibc)
import Glibc
#endif
@testable import HearthAuth
import HearthWire
import XCTest

final class PersistenceTests: XCTestCase {
    private var directory = ""

    override func setUp() {
        var template = Array("/tmp/hearth-persist-XXXXXX".utf8CString)
        directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        directory += "/nested/dir"
    }

    override func tearDown() {
        _ = system("rm -rf '\(directory.components(separatedBy: "/nested")[0])'")
    }

    private func sampleSession(uid: String = "uid-1") -> PersistedSession {
        var profile = UserProfile(uid: uid)
        profile.email = "a@example.com"
        return PersistedSession(appName: "app", apiKey: "key", user: profile,
                                tokens: TokenSet(idToken: "id", refreshToken: "refresh", expiresAtMs: 42))
    }

    func testSavedSessionLoadsBack() throws {
        let store = FileSessionStore(directory: directory, fileName: "s.json")
        try store.save(sampleSession().encoded())
        let loaded = try XCTUnwrap(store.load())
        XCTAssertEqual(PersistedSession.decode(loaded, appName: "app", apiKey: "key"), sampleSession())
    }

    func testSessionFileIsPrivateInAPrivateDirectory() throws {
        let store = FileSessionStore(directory: directory, fileName: "s.json")
        try store.save(sampleSession().encoded())
        var fileInfo = stat()
        XCTAssertEqual(stat(store.path, &fileInfo), 0)
        XCTAssertEqual(fileInfo.st_mode & 0o777, 0o600)
        var dirInfo = stat()
        XCTAssertEqual(stat(directory, &dirInfo), 0)
        XCTAssertEqual(dirInfo.st_mode & 0o777, 0o700)
    }

    func testSaveReplacesTheWholeFileAtomicallyAndLeavesNoTemporaries() throws {
        let store = FileSessionStore(directory: directory, fileName: "s.json")
        try store.save(sampleSession(uid: "first").encoded())
        try store.save(sampleSession(uid: "second").encoded())
        let loaded = PersistedSession.decode(try XCTUnwrap(store.load()), appName: "app", apiKey: "key")
        XCTAssertEqual(loaded?.user.uid, "second")
        let entries = try listDirectory(directory)
        XCTAssertEqual(entries, ["s.json"])
    }

    func testEraseRemovesTheFileAndErasingNothingIsFine() throws {
        let store = FileSessionStore(directory: directory, fileName: "s.json")
        try store.save(sampleSession().encoded())
        try store.erase()
        XCTAssertNil(store.load())
        XCTAssertNoThrow(try store.erase())
    }

    func testCorruptTruncatedOrForeignFilesReadAsSignedOut() throws {
        let good = sampleSession().encoded()
        XCTAssertNil(PersistedSession.decode(Array("not json".utf8), appName: "app", apiKey: "key"))
        XCTAssertNil(PersistedSession.decode(Array(good.prefix(good.count / 2)), appName: "app", apiKey: "key"))
        XCTAssertNil(PersistedSession.decode([], appName: "app", apiKey: "key"))
        XCTAssertNil(PersistedSession.decode(good, appName: "other-app", apiKey: "key"))
        XCTAssertNil(PersistedSession.decode(good, appName: "app", apiKey: "other-key"))
        let future = String(decoding: good, as: UTF8.self).replacingOccurrences(of: #""format":1"#, with: #""format":99"#)
        XCTAssertTrue(future.contains(#""format":99"#))
        XCTAssertNil(PersistedSession.decode(Array(future.utf8), appName: "app", apiKey: "key"))
    }

    /// A tenant's user is written in format 2 with its tenant, and loads back with it.
    func testATenantsUserIsSavedInTheFormatWithTenantsAndLoadsBackWithItsTenant() throws {
        var session = sampleSession()
        session.user.tenantId = "tenant-\u{1F600}"
        let encoded = session.encoded()
        guard case .object(let document)? = try? JSONValue.parse(encoded) else { return XCTFail("not JSON") }
        XCTAssertEqual(document["format"], .number(2))
        XCTAssertEqual(document["user"]?.objectValue?["tenantId"], .string("tenant-\u{1F600}"))
        let loaded = try XCTUnwrap(PersistedSession.decode(encoded, appName: "app", apiKey: "key"))
        XCTAssertEqual(loaded.user.tenantId, "tenant-\u{1F600}")
        XCTAssertEqual(loaded, session)
    }

    /// A project's own user stays in format 1, without the key, which builds from before tenants read.
    func testAProjectUsersSessionKeepsTheFirstFormat() throws {
        let encoded = sampleSession().encoded()
        guard case .object(let document)? = try? JSONValue.parse(encoded) else { return XCTFail("not JSON") }
        XCTAssertEqual(document["format"], .number(1))
        XCTAssertNil(document["user"]?.objectValue?["tenantId"])
        XCTAssertNil(try XCTUnwrap(PersistedSession.decode(encoded, appName: "app", apiKey: "key")).user.tenantId)
    }

    func testTenantsInTheWrongFormatOrEmptyMakeTheSessionUnreadable() {
        let tokens = #","tokens":{"idToken":"id","refreshToken":"r","expiresAtMs":1}}"#
        let cases: [(String, Bool)] = [
            (#"{"format":2,"appName":"app","apiKey":"key","user":{"uid":"u","tenantId":"t-1"}"#, true),
            // Format 2 without a tenant is a project user written by a newer writer: fine.
            (#"{"format":2,"appName":"app","apiKey":"key","user":{"uid":"u"}"#, true),
            // Format 1 has no tenants: a tenant in it is not what any build wrote.
            (#"{"format":1,"appName":"app","apiKey":"key","user":{"uid":"u","tenantId":"t-1"}"#, false),
            (#"{"format":2,"appName":"app","apiKey":"key","user":{"uid":"u","tenantId":""}"#, false),
            (#"{"format":2,"appName":"app","apiKey":"key","user":{"uid":"u","tenantId":7}"#, false),
            (#"{"format":3,"appName":"app","apiKey":"key","user":{"uid":"u","tenantId":"t-1"}"#, false),
        ]
        for (text, readable) in cases {
            let decoded = PersistedSession.decode(Array((text + tokens).utf8), appName: "app", apiKey: "key")
            XCTAssertEqual(decoded != nil, readable, text)
        }
    }

    /// Byte for byte what builds that wrote sessions with Foundation's JSONEncoder left on disk
    /// (unsorted keys, escaped slashes): users upgrading stay signed in.
    func testASessionWrittenByEarlierBuildsStillLoads() throws {
        let earlier = #"{"format":1,"appName":"app","apiKey":"key","user":{"uid":"uid-1","email":"a@example.com","#
            + #""displayName":"Ann","photoURL":"https:\/\/example.com\/a.png","phoneNumber":"+15555550100","#
            + #""isAnonymous":false,"isEmailVerified":true,"creationTimestamp":1795312159262,"#
            + #""lastSignInTimestamp":1795312159267,"providerData":[{"uid":"a@example.com","providerId":"password","#
            + #""email":"a@example.com","displayName":"","photoURL":"","phoneNumber":""}],"multiFactor":[{"#
            + #""factorId":"phone","uid":"enr-1","displayName":"Work","phoneNumber":"+15555550101","#
            + #""enrollmentTimestamp":1795312159000}]},"tokens":{"idToken":"id","refreshToken":"refresh","#
            + #""expiresAtMs":1795315759267}}"#
        let session = try XCTUnwrap(PersistedSession.decode(Array(earlier.utf8), appName: "app", apiKey: "key"))
        XCTAssertEqual(session.user.photoURL, "https://example.com/a.png")
        XCTAssertEqual(session.user.creationTimestamp, 1_795_312_159_262)
        XCTAssertEqual(session.user.providerData.map(\.providerId), ["password"])
        XCTAssertEqual(session.user.multiFactor.first?.enrollmentTimestamp, 1_795_312_159_000)
        XCTAssertEqual(session.tokens, TokenSet(idToken: "id", refreshToken: "refresh", expiresAtMs: 1_795_315_759_267))
        XCTAssertTrue(session.user.isEmailVerified)
        // Sessions from before a profile field existed load with the field's default.
        let oldest = #"{"format":1,"appName":"app","apiKey":"key","user":{"uid":"u"},"#
            + #""tokens":{"idToken":"id","refreshToken":"r","expiresAtMs":1}}"#
        XCTAssertEqual(PersistedSession.decode(Array(oldest.utf8), appName: "app", apiKey: "key")?.user,
                       UserProfile(uid: "u"))
    }

    func testEveryFieldRoundTrips() throws {
        var profile = UserProfile(uid: "uid-\u{1F600}")
        profile.email = "a@example.com"
        profile.displayName = "Ann \"Quote\" \\ Back"
        profile.photoURL = "https://example.com/a.png"
        profile.phoneNumber = "+15555550100"
        profile.isAnonymous = true
        profile.isEmailVerified = true
        profile.creationTimestamp = 1_795_312_159_262
        profile.lastSignInTimestamp = 1_795_312_159_267
        profile.providerData = [UserInfoSnapshot(uid: "g-1", providerId: "google.com", email: "g@example.com",
                                                 displayName: "G", photoURL: "p", phoneNumber: "+1")]
        profile.multiFactor = [MultiFactorInfoSnapshot(factorId: "totp", uid: "enr", displayName: "Phone app",
                                                       phoneNumber: "", enrollmentTimestamp: 7)]
        let session = PersistedSession(appName: "app", apiKey: "key", user: profile,
                                       tokens: TokenSet(idToken: "i", refreshToken: "r", expiresAtMs: -5))
        XCTAssertEqual(PersistedSession.decode(session.encoded(), appName: "app", apiKey: "key"), session)
    }

    func testFieldsOfTheWrongTypeMakeTheSessionUnreadable() {
        let variants = [
            #""user":{"uid":"u","isAnonymous":"yes"}"#,
            #""user":{"uid":"u","creationTimestamp":-1}"#,
            #""user":{"uid":"u","creationTimestamp":1.5}"#,
            #""user":{"uid":"u","providerData":[{"uid":"x"}]}"#,
            #""user":{"uid":7}"#,
            #""user":[]"#,
        ]
        for user in variants {
            let text = #"{"format":1,"appName":"app","apiKey":"key","# + user
                + #","tokens":{"idToken":"id","refreshToken":"r","expiresAtMs":1}}"#
            XCTAssertNil(PersistedSession.decode(Array(text.utf8), appName: "app", apiKey: "key"), user)
        }
        let badExpiry = #"{"format":1,"appName":"app","apiKey":"key","user":{"uid":"u"},"#
            + #""tokens":{"idToken":"id","refreshToken":"r","expiresAtMs":"1"}}"#
        XCTAssertNil(PersistedSession.decode(Array(badExpiry.utf8), appName: "app", apiKey: "key"))
    }

    func testUnreadableDirectoryMakesSaveFailWithAReason() {
        let store = FileSessionStore(directory: "/proc/hearth-cannot-exist", fileName: "s.json")
        XCTAssertThrowsError(try store.save([1, 2, 3])) { error in
            XCTAssertFalse((error as? SessionStoreError)?.message.isEmpty ?? true)
        }
    }

    func testSessionFileNamesAreStableAndSafe() {
        var configuration = AppConfiguration(apiKey: "key/with:odd*chars")
        configuration.appName = "../../etc/passwd"
        let name = configuration.sessionFileName
        XCTAssertEqual(name, configuration.sessionFileName)
        XCTAssertFalse(name.contains("/"))
        var other = configuration
        other.apiKey = "another-key"
        XCTAssertNotEqual(name, other.sessionFileName)
    }

    private func listDirectory(_ path: String) throws -> [String] {
        guard let dir = opendir(path) else { throw SessionStoreError("opendir") }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }
}

final class NoPersistenceTests: XCTestCase {
    func testPersistenceNoneKeepsNothingAndSaysSo() throws {
        let store = NoSessionStore()
        XCTAssertFalse(store.keepsSessions)
        try store.save([1, 2, 3])
        XCTAssertNil(store.load())
        XCTAssertTrue(MemorySessionStore().keepsSessions)
        XCTAssertTrue(FileSessionStore(directory: "/tmp", fileName: "x").keepsSessions)
    }
}

final class FileSessionStoreTemporariesTests: XCTestCase {
    func testASaveRemovesTemporariesLeftByDeadProcessesButNotByLiveOnes() throws {
        var template = Array("/tmp/hearth-tmp-XXXXXX".utf8CString)
        let directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        defer { _ = system("rm -rf '\(directory)'") }
        let store = FileSessionStore(directory: directory, fileName: "s.json")
        // pid 2^22+1 is above Linux's pid_max: no such process.
        let dead = directory + "/s.json.tmp-4194305-1"
        let live = directory + "/s.json.tmp-1-2"  // init is always alive
        for path in [dead, live] {
            let fd = creat(path, 0o600)
            XCTAssertGreaterThanOrEqual(fd, 0)
            close(fd)
        }
        try store.save([1])
        XCTAssertNotEqual(access(dead, F_OK), 0, "a dead process's temporary is removed")
        XCTAssertEqual(access(live, F_OK), 0, "a live process's temporary is kept")
    }
}
