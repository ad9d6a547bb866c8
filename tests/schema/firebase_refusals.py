"""The 501 NOT_IMPLEMENTED answers Firebase's Auth Emulator gives itself (firebase-tools src/emulator/auth,
at the commit of firebase-auth-emulator-openapi.json; emulator-reference.md and emulator-routes.txt in
shared/protocol list them): whole operations it has no handler for, and particular fields of operations it
does serve. hearth-emulator may answer 501 for exactly these (operation, field) pairs and nothing else; any
other 501 is a gap of hearth-emulator's own, which the schema run reports as a failure."""

# Operations of the API description without a handler in Firebase's emulator: it answers any request
# with 501 "<operationId> is not implemented in the Auth Emulator."
STUB_OPERATIONS = frozenset("""
identitytoolkit.accounts.issueSamlResponse identitytoolkit.accounts.revokeToken
identitytoolkit.accounts.signInWithGameCenter identitytoolkit.accounts.verifyIosClient
identitytoolkit.defaultSupportedIdps.list identitytoolkit.getPasswordPolicy identitytoolkit.getRecaptchaConfig
identitytoolkit.getSessionCookiePublicKeys
identitytoolkit.projects.defaultSupportedIdpConfigs.create identitytoolkit.projects.defaultSupportedIdpConfigs.delete
identitytoolkit.projects.defaultSupportedIdpConfigs.get identitytoolkit.projects.defaultSupportedIdpConfigs.list
identitytoolkit.projects.defaultSupportedIdpConfigs.patch identitytoolkit.projects.identityPlatform.initializeAuth
identitytoolkit.projects.inboundSamlConfigs.create identitytoolkit.projects.inboundSamlConfigs.delete
identitytoolkit.projects.inboundSamlConfigs.get identitytoolkit.projects.inboundSamlConfigs.list
identitytoolkit.projects.inboundSamlConfigs.patch identitytoolkit.projects.oauthIdpConfigs.create
identitytoolkit.projects.oauthIdpConfigs.delete identitytoolkit.projects.oauthIdpConfigs.get
identitytoolkit.projects.oauthIdpConfigs.list identitytoolkit.projects.oauthIdpConfigs.patch
identitytoolkit.projects.tenants.defaultSupportedIdpConfigs.create
identitytoolkit.projects.tenants.defaultSupportedIdpConfigs.delete
identitytoolkit.projects.tenants.defaultSupportedIdpConfigs.get
identitytoolkit.projects.tenants.defaultSupportedIdpConfigs.list
identitytoolkit.projects.tenants.defaultSupportedIdpConfigs.patch identitytoolkit.projects.tenants.getIamPolicy
identitytoolkit.projects.tenants.inboundSamlConfigs.create identitytoolkit.projects.tenants.inboundSamlConfigs.delete
identitytoolkit.projects.tenants.inboundSamlConfigs.get identitytoolkit.projects.tenants.inboundSamlConfigs.list
identitytoolkit.projects.tenants.inboundSamlConfigs.patch identitytoolkit.projects.tenants.oauthIdpConfigs.create
identitytoolkit.projects.tenants.oauthIdpConfigs.delete identitytoolkit.projects.tenants.oauthIdpConfigs.get
identitytoolkit.projects.tenants.oauthIdpConfigs.list identitytoolkit.projects.tenants.oauthIdpConfigs.patch
identitytoolkit.projects.tenants.setIamPolicy identitytoolkit.projects.tenants.testIamPermissions
""".split())

OOB_REQUEST_TYPES = ["OOB_REQ_TYPE_UNSPECIFIED", "PASSWORD_RESET", "OLD_EMAIL_AGREE", "NEW_EMAIL_ACCEPT",
                     "VERIFY_EMAIL", "RECOVER_EMAIL", "EMAIL_SIGNIN", "VERIFY_AND_CHANGE_EMAIL",
                     "REVERT_SECOND_FACTOR_ADDITION"]
DELETABLE_ATTRIBUTES = ["USER_ATTRIBUTE_NAME_UNSPECIFIED", "EMAIL", "DISPLAY_NAME", "PROVIDER", "PHOTO_URL",
                        "PASSWORD", "RAW_USER_INFO"]
SORT_FIELDS = ["SORT_BY_FIELD_UNSPECIFIED", "USER_ID", "NAME", "CREATED_AT", "LAST_LOGIN_AT", "USER_EMAIL"]


def _given(body, name):
    """The field as a request gives it: absent and null are not given."""
    return body.get(name) if isinstance(body, dict) else None


def _truthy(value):
    """JavaScript's truthiness, which the reference's checks use."""
    return value not in (None, False, 0, "") and value == value


def _enum(value, names):
    """An enum value as its name (the reference maps integer values to names)."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(names):
        return names[value]
    return value


def _lookup(body, message):
    return message == "Lookup by initialEmail is not implemented." and _given(body, "initialEmail") is not None


def _query(body, message):
    if message == "expression is not implemented.":
        return bool(_given(body, "expression"))
    if _given(body, "returnUserInfo") is False:
        return False
    if message == "limit is not implemented.":
        return _truthy(_given(body, "limit"))
    if message == "offset is not implemented.":
        return _given(body, "offset") not in (None, "", "0", 0)
    if message == "Only sorting by USER_ID is implemented.":
        return _enum(_given(body, "sortBy"), SORT_FIELDS) not in (None, "USER_ID", "SORT_BY_FIELD_UNSPECIFIED")
    return False


def _send_oob_code(body, message):
    request_type = _enum(_given(body, "requestType"), OOB_REQUEST_TYPES)
    refused = {"OLD_EMAIL_AGREE", "NEW_EMAIL_ACCEPT", "RECOVER_EMAIL", "REVERT_SECOND_FACTOR_ADDITION"}
    return request_type in refused and message == request_type


def _update(body, message):
    if message == "provider is not implemented yet.":
        return _given(body, "provider") is not None
    if message == "upgradeToFederatedLogin is not implemented yet.":
        return _given(body, "upgradeToFederatedLogin") is not None
    if message.startswith("deleteAttribute: "):
        attributes = [_enum(a, DELETABLE_ATTRIBUTES) for a in (_given(body, "deleteAttribute") or [])]
        return message[len("deleteAttribute: "):] in attributes and message.endswith(("PROVIDER", "RAW_USER_INFO"))
    # A PASSWORD_RESET or EMAIL_SIGNIN code given to accounts:update.
    return message in ("PASSWORD_RESET", "EMAIL_SIGNIN") and _truthy(_given(body, "oobCode"))


def _sign_in_with_idp(body, message):
    if message == "returnRefreshToken is not implemented yet.":
        return _given(body, "returnRefreshToken") is True
    if message == "pendingIdToken is not implemented yet.":
        return _truthy(_given(body, "pendingIdToken"))
    # A credential without a readable id_token.
    return _truthy(_given(body, "requestUri")) and message.startswith("The Auth Emulator ")


def _sign_in_with_password(body, message):
    if message == "captcha unimplemented":
        return _truthy(_given(body, "captchaResponse")) or _truthy(_given(body, "captchaChallenge"))
    if message == "idToken / pendingIdToken is no longer in use and unsupported by the Auth Emulator.":
        return _truthy(_given(body, "idToken")) or _truthy(_given(body, "pendingIdToken"))
    return False


def _finalize_with_android_proof(body, message):
    info = _given(body, "phoneVerificationInfo")
    return message == "androidVerificationProof is unsupported!" and isinstance(info, dict) \
        and _truthy(info.get("androidVerificationProof"))


# operationId (project, tenant and client variants) -> the fields it refuses.
FIELD_REFUSALS = {
    "identitytoolkit.accounts.lookup": _lookup,
    "identitytoolkit.projects.accounts.lookup": _lookup,
    "identitytoolkit.projects.tenants.accounts.lookup": _lookup,
    "identitytoolkit.projects.accounts.query": _query,
    "identitytoolkit.projects.queryAccounts": _query,
    "identitytoolkit.projects.tenants.accounts.query": _query,
    "identitytoolkit.accounts.sendOobCode": _send_oob_code,
    "identitytoolkit.projects.accounts.sendOobCode": _send_oob_code,
    "identitytoolkit.projects.tenants.accounts.sendOobCode": _send_oob_code,
    "identitytoolkit.accounts.update": _update,
    "identitytoolkit.projects.accounts.update": _update,
    "identitytoolkit.projects.tenants.accounts.update": _update,
    "identitytoolkit.accounts.signInWithIdp": _sign_in_with_idp,
    "identitytoolkit.accounts.signInWithPassword": _sign_in_with_password,
    "identitytoolkit.accounts.mfaEnrollment.finalize": _finalize_with_android_proof,
    "identitytoolkit.accounts.mfaSignIn.finalize": _finalize_with_android_proof,
}


def is_firebase_refusal(operation_id, body, message):
    """Whether Firebase's emulator itself answers 501 with `message` to this request."""
    if operation_id in STUB_OPERATIONS:
        return message == f"{operation_id} is not implemented in the Auth Emulator."
    check = FIELD_REFUSALS.get(operation_id)
    return bool(check and check(body if isinstance(body, dict) else {}, message))
