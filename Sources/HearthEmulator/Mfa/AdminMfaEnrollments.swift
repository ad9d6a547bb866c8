import HearthWire

/// Second factors set directly in a request, as the Admin SDKs set them and as Firebase's emulator
/// takes them: signUp `mfaInfo[]` (new ids are generated, given ones ignored) and accounts:update
/// `mfa.enrollments[]` (which replaces the account's factors; ids are required). Each needs a valid
/// phone number (INVALID_MFA_PHONE_NUMBER); a number given again is dropped (the first is kept);
/// an id given twice is DUPLICATE_MFA_ENROLLMENT_ID. The fields given are stored as given (no
/// enrollment time is invented), plus `unobfuscatedPhoneInfo`.
///
/// hearth-emulator only: an update may keep an existing TOTP factor by naming its
/// `mfaEnrollmentId` with `totpInfo: {}` and no phone number, since its secret is only ever given
/// to the account's own authenticator app (Firebase's emulator has no TOTP factors).
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

    /// The account's new list of factors.
    static func enrollments(
        from inputs: [Input], generatingIds: Bool, existing: [MfaEnrollment]
    ) throws(ApiError) -> [MfaEnrollment] {
        var result: [MfaEnrollment] = []
        var phoneNumbers = Set<String>()
        var ids = Set<String>()
        for input in inputs {
            if input.totpInfo != nil, input.phoneInfo == nil, let id = input.mfaEnrollmentId,
               var kept = existing.first(where: { $0.mfaEnrollmentId == id && $0.totpInfo != nil }) {
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
                mfaEnrollmentId: enrollmentId, displayName: input.displayName, enrolledAt: input.enrolledAt,
                phoneInfo: phoneNumber, unobfuscatedPhoneInfo: phoneNumber))
        }
        try require(result.count <= MfaRules.maximumSecondFactors, "SECOND_FACTOR_LIMIT_EXCEEDED")
        return result
    }
}
