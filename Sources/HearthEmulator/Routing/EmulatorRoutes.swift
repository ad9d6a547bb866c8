/// Every route the emulator serves, by feature; the rest of the API description answers 501.
enum EmulatorRoutes {
    static let table = RouteTable(
        implemented: EmulatorOnlyRoutes.routes + AccountsRoutes.routes + MfaRoutes.routes + AdminRoutes.routes + TokenRoutes.routes)
}
