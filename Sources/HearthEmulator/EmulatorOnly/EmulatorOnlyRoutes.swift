/// Routes that exist only in the emulator, for tests and tools; no authentication.
enum EmulatorOnlyRoutes {
    static let project = "/emulator/v1/projects/{targetProjectId}"

    static let routes: [Route] = [
        Route(.get, "/", Readiness.operation),
        Route(.get, ActionLink.path, ActionLink.operation),
        Route(.get, OpenAPIDocument.path, OpenAPIDocument.operation),
        Route(.get, AuthIframePage.path, AuthIframePage.operation),
        Route(.delete, "\(project)/accounts", DeleteAllAccounts.operation),
        Route(.get, "\(project)/oobCodes", ListOobCodes.operation),
        Route(.get, "\(project)/verificationCodes", ListVerificationCodes.operation),
        Route(.delete, "\(project)/tenants/{tenantId}/accounts", DeleteAllAccounts.operation),
        Route(.get, "\(project)/tenants/{tenantId}/oobCodes", ListOobCodes.operation),
        Route(.get, "\(project)/tenants/{tenantId}/verificationCodes", ListVerificationCodes.operation),
        Route(.get, "\(project)/config", EmulatorConfig.getOperation),
        Route(.patch, "\(project)/config", EmulatorConfig.updateOperation),
        Route(.get, AuthHandlerPage.path, AuthHandlerPage.pageOperation),
        Route(.get, AuthHandlerPage.choosePath, AuthHandlerPage.chooseOperation),
        Route(.post, AuthHandlerPage.choosePath, AuthHandlerPage.choosePostOperation),
        Route(.get, VerifyAppPage.verifyPath, VerifyAppPage.verifyOperation),
        Route(.post, VerifyAppPage.verifyPath, VerifyAppPage.verifyPostOperation),
        Route(.get, ConsentPage.path, ConsentPage.pageOperation),
        Route(.get, ConsentPage.choosePath, ConsentPage.chooseOperation),
        Route(.post, ConsentPage.choosePath, ConsentPage.choosePostOperation),
    ]
}
