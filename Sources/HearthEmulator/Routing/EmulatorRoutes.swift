/// Every route the emulator serves, by feature; the rest of the API description answers 501.
enum EmulatorRoutes {
    static let implemented: [Route] = EmulatorOnlyRoutes.routes + AccountsRoutes.routes + MfaRoutes.routes
        + PasskeyRoutes.routes + AdminRoutes.routes + TenantRoutes.routes + ProjectSettingsRoutes.routes
        + TokenRoutes.routes

    static let table = RouteTable(implemented: implemented)
}
