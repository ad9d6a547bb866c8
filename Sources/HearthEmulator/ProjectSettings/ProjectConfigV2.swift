import HearthWire

/// `GET` / `PATCH /identitytoolkit.googleapis.com/v2/projects/{p}/config` (the Admin SDKs'
/// project config): the project's `Config` resource, as Firebase's emulator keeps it. It starts as
/// `{"signIn": {"allowDuplicateEmails": false}, "blockingFunctions": {}, "emailPrivacyConfig":
/// {"enableImprovedEmailPrivacy": false}}`; what the emulator acts on is `signIn.allowDuplicateEmails`
/// (one account per email), `emailPrivacyConfig.enableImprovedEmailPrivacy` (what createAuthUri,
/// sendOobCode and password sign-in reveal) and `blockingFunctions`.
///
/// PATCH with `?updateMask=a.b,c` changes the masked fields present in the body (`FieldMask`);
/// without a mask it sets those three from the body, absent ones to their defaults (other fields a
/// masked update added stay, as in the reference). A trigger for an unknown event, or without an
/// absolute `functionUri`, is INVALID_BLOCKING_FUNCTION. The project's tenants share the result.
enum ProjectConfigV2 {
    static let getOperation = Operation("identitytoolkit.projects.getConfig") { project, _ throws(ApiError) in
        Reply(JSONValue.object(project.config.admin))
    }

    static let updateOperation = Operation(
        "identitytoolkit.projects.updateConfig", body: .json(AdminV2Schemas.config), handler: .global(update))

    private static func update(_ request: OperationRequest, _ state: EmulatorState) throws(ApiError) -> Reply {
        let body = request.body
        try BlockingFunctionsConfig.validate(body["blockingFunctions"]?.objectValue)
        let family = state.family(request.projectId)
        let mask = request.query["updateMask"]
        let admin = family.project.write { project in
            project.config.admin = updated(project.config.admin, with: body, mask: mask)
            return project.config.admin
        }
        family.shareConfig()
        return Reply(JSONValue.object(admin))
    }

    static func updated(_ current: JSONObject, with body: JSONObject, mask: String?) -> JSONObject {
        var admin = current
        if let mask, !mask.isEmpty {
            FieldMask(mask).apply(body, to: &admin)
            return admin
        }
        var signIn = admin["signIn"]?.objectValue ?? JSONObject()
        signIn["allowDuplicateEmails"] = .bool(body["signIn"]?.objectValue?["allowDuplicateEmails"]?.boolValue == true)
        admin["signIn"] = .object(signIn)
        admin["blockingFunctions"] = .object(body["blockingFunctions"]?.objectValue ?? JSONObject())
        var privacy = admin["emailPrivacyConfig"]?.objectValue ?? JSONObject()
        privacy["enableImprovedEmailPrivacy"] =
            .bool(body["emailPrivacyConfig"]?.objectValue?["enableImprovedEmailPrivacy"]?.boolValue == true)
        admin["emailPrivacyConfig"] = .object(privacy)
        return admin
    }
}
