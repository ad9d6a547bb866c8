import HearthCrypto
import HearthWire

/// The `otpauth://totp/…` URI authenticator apps read from a QR code (Google Authenticator's Key Uri
/// Format): `otpauth://totp/<issuer>:<account>?secret=<base32>&issuer=<issuer>&algorithm=<alg>&digits=<n>&period=<s>`.
///
/// Unlike the Firebase SDKs, which paste issuer and account name in as they are, the label parts and the
/// issuer parameter are percent-encoded (RFC 3986 unreserved characters kept, so a space is %20 and a ':'
/// inside a name is %3A, leaving the one literal ':' as the separator). The secret is unpadded base32.
/// All parameters are written, the defaults included, so apps that ignore some still agree.
package enum OTPAuthURI {
    /// An empty issuer leaves out both the label prefix and the `issuer` parameter.
    package static func totp(secret: [UInt8], accountName: String, issuer: String, algorithm: TOTPAlgorithm,
                            digits: Int, periodSeconds: Int) -> String {
        var uri = "otpauth://totp/"
        if !issuer.isEmpty { uri += PercentEncoding.encode(issuer) + ":" }
        uri += PercentEncoding.encode(accountName)
        uri += "?secret=" + Base32.encode(secret, padding: false)
        if !issuer.isEmpty { uri += "&issuer=" + PercentEncoding.encode(issuer) }
        uri += "&algorithm=" + algorithm.rawValue
        uri += "&digits=" + String(digits)
        uri += "&period=" + String(periodSeconds)
        return uri
    }

    /// The URI for a generator's secret and parameters.
    package static func totp(_ generator: TOTPGenerator, accountName: String, issuer: String) -> String {
        totp(secret: generator.secret, accountName: accountName, issuer: issuer, algorithm: generator.algorithm,
             digits: generator.digits, periodSeconds: generator.periodSeconds)
    }
}
