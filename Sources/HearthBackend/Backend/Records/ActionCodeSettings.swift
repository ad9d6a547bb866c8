import HearthWire

/// Where an email action link leads and which apps may open it (Firebase's ActionCodeSettings), sent
/// with accounts:sendOobCode. nil fields are left out of the request.
package struct ActionCodeSettings: Sendable, Equatable {
    /// The continue URL (`continueUrl`): where the action page sends the browser afterwards, and for a
    /// sign-in link the URL the link is handed to (with the link's parameters added).
    package var url: String?
    /// `canHandleCodeInApp`: the app completes the action itself rather than Firebase's web page.
    /// Sign-in links require it.
    package var handleCodeInApp = false
    package var iOSBundleId: String?
    package var androidPackageName: String?
    package var androidInstallApp = false
    package var androidMinimumVersion: String?
    /// The Firebase Hosting domain the link uses (`linkDomain`).
    package var linkDomain: String?
    /// The Firebase Dynamic Links domain (deprecated by Firebase together with Dynamic Links).
    package var dynamicLinkDomain: String?

    package init(url: String? = nil) {
        self.url = url
    }

    /// Why Firebase's SDKs would refuse these settings before sending them, if they would: the checks
    /// of the JS SDK's `_setActionCodeSettingsOnRequest`, in its order. A C host states "no Android
    /// app" with a NULL package name, so Android settings without one are refused here too (Firebase's
    /// server says MISSING_ANDROID_PACKAGE_NAME).
    package var validationError: AuthError? {
        guard let url, !url.isEmpty else {
            return AuthError(code: .invalidContinueUri,
                             message: "The action code settings need a continue URL (url is \(url == nil ? "NULL" : "empty")).")
        }
        if dynamicLinkDomain?.isEmpty == true {
            return AuthError(code: .invalidLinkDomain, message: "The dynamic link domain is empty: leave it unset instead.")
        }
        if linkDomain?.isEmpty == true {
            return AuthError(code: .invalidLinkDomain, message: "The link domain is empty: leave it unset instead.")
        }
        if iOSBundleId?.isEmpty == true {
            return AuthError(code: .missingIosBundleId, message: "The iOS bundle id is empty: leave it unset for no iOS app.")
        }
        if (androidPackageName ?? "").isEmpty && (androidPackageName != nil || androidInstallApp || androidMinimumVersion != nil) {
            return AuthError(code: .invalidArgument,
                             message: "The Android settings need the app's package name (Firebase: MISSING_ANDROID_PACKAGE_NAME).")
        }
        return nil
    }

    /// The request members these settings stand for, with the names Firebase's iOS SDK and the REST
    /// API use (the JS SDK alone says `androidMinimumVersionCode`); booleans only when true, as iOS sends them.
    func write(to body: inout JSONObject) {
        body.setIfPresent("continueUrl", url)
        if handleCodeInApp { body["canHandleCodeInApp"] = true }
        body.setIfPresent("iOSBundleId", iOSBundleId)
        body.setIfPresent("androidPackageName", androidPackageName)
        if androidInstallApp { body["androidInstallApp"] = true }
        body.setIfPresent("androidMinimumVersion", androidMinimumVersion)
        body.setIfPresent("linkDomain", linkDomain)
        body.setIfPresent("dynamicLinkDomain", dynamicLinkDomain)
    }
}
