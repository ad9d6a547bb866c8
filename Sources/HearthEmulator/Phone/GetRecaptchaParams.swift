/// `GET v1/recaptchaParams`: the reference's obviously fake reCAPTCHA site key and token, the same
/// length and alphabet as real ones, so nothing sent to Google's reCAPTCHA by mistake is mistaken
/// for real. hearth-emulator's own reCAPTCHA is the page `VerifyAppPage` serves.
enum GetRecaptchaParams {
    struct Response: Encodable {
        let kind = "identitytoolkit#GetRecaptchaParamResponse"
        let recaptchaStoken =
            "This-is-a-fake-token__Dont-send-this-to-the-Recaptcha-service__The-Auth-Emulator-does-not-support-Recaptcha"
        let recaptchaSiteKey = "Fake-key__Do-not-send-this-to-Recaptcha_"
    }

    static let operation = Operation("identitytoolkit.getRecaptchaParams", tenantGates: [.enabled]) { _, _ throws(ApiError) in
        Reply(Response())
    }
}
