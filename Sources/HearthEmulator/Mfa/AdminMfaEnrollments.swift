/// Second factors set directly, as the Admin SDKs do: signUp `mfaInfo[]` (new ids are generated) and
/// accounts:update `mfa.enrollments[]` (which replaces the account's factors; ids are required).
/// Only SMS factors can be created this way, as with Firebase's Admin SDKs. An update may keep an
/// existing TOTP factor by naming its `mfaEnrollmentId` with `totpInfo: {}`, since its secret is
/// only ever given to the account's own authenticator app.
enum AdminMfaEnrollments {
    static let schema = RequestSchema([
        "displayName": .string, "emailInfo": .message(RequestSchema(["emailAddress": .string])),
        "enrolledAt": .string, "mfaEnrollmentId": .string, "phoneInfo": .string,
        "totpInfo": .message(RequestSchema([:])), "unobfuscatedPhoneInfo": .string,
    ])

    struct Input: Decodable {
        var mfaEnrollmentId: String?
        var displayName: String?
        var enrolledAt: String?
        var phoneInfo: String?
        var totpInfo: JSONValue?
    }

    /// The account's new list of factors. Repeated phone numbers are dropped (the first is kept), as
    /// production does.
    static func enrollments(
        from inputs: [Input], generatingIds: Bool, existing: [MfaEnrollment], now: String
    ) throws(ApiError) -> [MfaEnrollment] {
        var result: [MfaEnrollment] = []
        var phoneNumbers = Set<String>()
        var ids = Set<String>()
        for input in inputs {
            if input.totpInfo != nil {
                guard let id = input.mfaEnrollmentId,
                      var kept = existing.first(where: { $0.mfaEnrollmentId == id && $0.totpInfo != nil }) else {
                    throw .badRequest(
                        "MFA_ENROLLMENT_NOT_FOUND : ((TOTP second factors can only be kept by their mfaEnrollmentId here; enroll new ones with mfaEnrollment:start.))")
                }
                try require(ids.insert(id).inserted, "DUPLICATE_MFA_ENROLLMENT_ID")
                if let displayName = input.displayName { kept.displayName = displayName }
                result.append(kept)
                continue
            }
            guard let phoneNumber = input.phoneInfo, PhoneNumber.isValid(phoneNumber) else {
                throw .badRequest("INVALID_MFA_PHONE_NUMBER : Invalid format.")
            }
            guard phoneNumbers.insert(phoneNumber).inserted else { continue }
            var id = input.mfaEnrollmentId
            if generatingIds {
                id = RandomID.alphanumeric(28)
                while ids.contains(id ?? "") { id = RandomID.alphanumeric(28) }
            }
            let enrollmentId = try requiredText(id, "INVALID_MFA_ENROLLMENT_ID : mfaEnrollmentId must be defined.")
            try require(ids.insert(enrollmentId).inserted, "DUPLICATE_MFA_ENROLLMENT_ID")
            result.append(MfaEnrollment(
                mfaEnrollmentId: enrollmentId, displayName: input.displayName, enrolledAt: input.enrolledAt ?? now,
                phoneInfo: phoneNumber, unobfuscatedPhoneInfo: phoneNumber))
        }
        try require(result.count <= MfaRules.maximumSecondFactors, "SECOND_FACTOR_LIMIT_EXCEEDED")
        return result
    }
}
