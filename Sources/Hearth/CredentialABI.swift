#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HearthAuth
import HearthBackend
import HearthCrypto

private func credential(_ pointer: OpaquePointer?) -> CredentialHandle? {
    HandleRegistry.shared.object(UnsafeRawPointer(pointer), as: CredentialHandle.self)
}

@_cdecl("hearth_credential_create_email")
public func abi_email_credential(_ email: UnsafePointer<CChar>?, _ password: UnsafePointer<CChar>?) -> OpaquePointer? {
    do throws(HostString.Problem) {
        let credential = Credential.emailPassword(email: try HostString.required(email, "email"),
                                                  password: try HostString.required(password, "password"))
        return OpaquePointer(HandleRegistry.shared.register(CredentialHandle(credential)))
    } catch {
        LastError.set(error, "hearth_credential_create_email")
        return nil
    }
}

@_cdecl("hearth_credential_provider")
public func abi_credential_provider(_ c: OpaquePointer?) -> UnsafePointer<CChar>? {
    credential(c)?.provider.borrowed
}

@_cdecl("hearth_credential_is_valid")
public func abi_credential_is_valid(_ c: OpaquePointer?) -> Int32 {
    credential(c) == nil ? 0 : 1
}

@_cdecl("hearth_credential_retain")
public func abi_credential_retain(_ c: OpaquePointer?) -> OpaquePointer? {
    guard let handle = credential(c) else {
        LastError.set(.invalidHandle, "hearth_credential_retain", "credential is not a live credential (NULL or released).")
        return nil
    }
    return OpaquePointer(HandleRegistry.shared.register(CredentialHandle(handle.credential)))
}

@_cdecl("hearth_credential_release")
public func abi_credential_release(_ c: OpaquePointer?) {
    // Credentials borrowed from an auth result belong to it: releasing one is a no-op.
    guard let handle = credential(c), !handle.isBorrowed else { return }
    HandleRegistry.shared.unregister(UnsafeRawPointer(c), as: CredentialHandle.self)
}

@_cdecl("hearth_credential_id_token")
public func abi_credential_id_token(_ c: OpaquePointer?) -> UnsafePointer<CChar>? { credential(c)?.idToken.borrowed }

@_cdecl("hearth_credential_access_token")
public func abi_credential_access_token(_ c: OpaquePointer?) -> UnsafePointer<CChar>? {
    credential(c)?.accessToken.borrowed
}

@_cdecl("hearth_credential_secret")
public func abi_credential_secret(_ c: OpaquePointer?) -> UnsafePointer<CChar>? { credential(c)?.secret.borrowed }

/// A new credential handle, or NULL (with `function`'s last error) when an argument is missing or not
/// UTF-8.
private func newCredential(_ function: StaticString, _ make: () throws(HostString.Problem) -> FederatedCredential)
    -> OpaquePointer? {
    do throws(HostString.Problem) {
        let federated = try make()
        return OpaquePointer(HandleRegistry.shared.register(CredentialHandle(.federated(federated))))
    } catch {
        LastError.set(error, function)
        return nil
    }
}

public typealias CStringArg = UnsafePointer<CChar>?

@_cdecl("hearth_credential_create_google")
public func abi_google_credential(_ idToken: CStringArg, _ accessToken: CStringArg) -> OpaquePointer? {
    newCredential("hearth_credential_create_google") { () throws(HostString.Problem) in
        .google(idToken: try HostString.optional(idToken, "id_token"),
                accessToken: try HostString.optional(accessToken, "access_token"))
    }
}

@_cdecl("hearth_credential_create_facebook")
public func abi_facebook_credential(_ accessToken: CStringArg) -> OpaquePointer? {
    newCredential("hearth_credential_create_facebook") { () throws(HostString.Problem) in
        .facebook(accessToken: try HostString.required(accessToken, "access_token"))
    }
}

@_cdecl("hearth_credential_create_facebook_limited_login")
public func abi_facebook_limited_login_credential(_ idToken: CStringArg, _ rawNonce: CStringArg) -> OpaquePointer? {
    newCredential("hearth_credential_create_facebook_limited_login") { () throws(HostString.Problem) in
        .facebookLimitedLogin(idToken: try HostString.required(idToken, "id_token"),
                              rawNonce: try HostString.required(rawNonce, "raw_nonce"))
    }
}

@_cdecl("hearth_credential_create_twitter")
public func abi_twitter_credential(_ token: CStringArg, _ secret: CStringArg) -> OpaquePointer? {
    newCredential("hearth_credential_create_twitter") { () throws(HostString.Problem) in
        .twitter(token: try HostString.required(token, "token"), secret: try HostString.required(secret, "secret"))
    }
}

@_cdecl("hearth_credential_create_github")
public func abi_github_credential(_ token: CStringArg) -> OpaquePointer? {
    newCredential("hearth_credential_create_github") { () throws(HostString.Problem) in
        .gitHub(token: try HostString.required(token, "token"))
    }
}

@_cdecl("hearth_credential_create_play_games")
public func abi_play_games_credential(_ code: CStringArg) -> OpaquePointer? {
    newCredential("hearth_credential_create_play_games") { () throws(HostString.Problem) in
        .playGames(serverAuthCode: try HostString.required(code, "server_auth_code"))
    }
}

@_cdecl("hearth_credential_create_oauth")
public func abi_oauth_credential(_ providerId: CStringArg, _ idToken: CStringArg, _ accessToken: CStringArg) -> OpaquePointer? {
    newCredential("hearth_credential_create_oauth") { () throws(HostString.Problem) in
        .oauth(OAuthCredential(providerId: try HostString.required(providerId, "provider_id"),
                               idToken: try HostString.optional(idToken, "id_token"),
                               accessToken: try HostString.optional(accessToken, "access_token")))
    }
}

@_cdecl("hearth_credential_create_oauth_with_nonce")
public func abi_oauth_credential_with_nonce(_ providerId: CStringArg, _ idToken: CStringArg, _ rawNonce: CStringArg,
                                            _ accessToken: CStringArg) -> OpaquePointer? {
    newCredential("hearth_credential_create_oauth_with_nonce") { () throws(HostString.Problem) in
        let provider = try HostString.required(providerId, "provider_id")
        let token = try HostString.required(idToken, "id_token")
        let nonce = try HostString.required(rawNonce, "raw_nonce")
        let access = try HostString.optional(accessToken, "access_token")
        if provider == ProviderID.apple {
            return .apple(idToken: token, rawNonce: nonce, authorizationCode: access, fullName: nil)
        }
        return .oauth(OAuthCredential(providerId: provider, idToken: token, accessToken: access, rawNonce: nonce))
    }
}

@_cdecl("hearth_credential_create_apple")
public func abi_apple_credential(_ idToken: CStringArg, _ rawNonce: CStringArg, _ code: CStringArg,
                                 _ givenName: CStringArg, _ familyName: CStringArg) -> OpaquePointer? {
    newCredential("hearth_credential_create_apple") { () throws(HostString.Problem) in
        let given = try HostString.optional(givenName, "given_name")
        let family = try HostString.optional(familyName, "family_name")
        let name = PersonName(givenName: given, familyName: family)
        return .apple(idToken: try HostString.required(idToken, "id_token"),
                      rawNonce: try HostString.required(rawNonce, "raw_nonce"),
                      authorizationCode: try HostString.optional(code, "authorization_code"),
                      fullName: name.isEmpty ? nil : name)
    }
}

/// Copies `text` plus a NUL into a host buffer of `HEARTH_*_SIZE` bytes.
private func copy(_ text: String, to buffer: UnsafeMutablePointer<CChar>) {
    var index = 0
    for byte in text.utf8 {
        buffer[index] = CChar(bitPattern: byte)
        index += 1
    }
    buffer[index] = 0
}

@_cdecl("hearth_nonce_generate")
public func abi_nonce_generate(_ raw: UnsafeMutablePointer<CChar>?, _ hex: UnsafeMutablePointer<CChar>?) -> Int32 {
    guard let raw else { return LastError.set(.invalidArgument, "hearth_nonce_generate", "raw_nonce is NULL.") }
    guard let hex else { return LastError.set(.invalidArgument, "hearth_nonce_generate", "sha256_hex is NULL.") }
    do throws(AuthError) {
        let nonce = try Nonce.random(length: 32)
        copy(nonce.raw, to: raw)
        copy(nonce.sha256Hex, to: hex)
        return 0
    } catch {
        return LastError.set(error, "hearth_nonce_generate")
    }
}

@_cdecl("hearth_nonce_hash")
public func abi_sha256_hex(_ input: CStringArg, _ hex: UnsafeMutablePointer<CChar>?) -> Int32 {
    guard let hex else { return LastError.set(.invalidArgument, "hearth_nonce_hash", "sha256_hex is NULL.") }
    do throws(HostString.Problem) {
        copy(SHA256.hexDigest(try HostString.required(input, "input")), to: hex)
        return 0
    } catch {
        return LastError.set(error, "hearth_nonce_hash")
    }
}
