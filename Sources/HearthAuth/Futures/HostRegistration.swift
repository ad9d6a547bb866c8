/// A host registration whose end is "nothing uses it any more": its release runs (once, as host code,
/// through the dispatcher) when the last reference to this object goes away, or when the app is
/// destroyed first. The provider-flow UI delegate is one: replaced by a later delegate, it still
/// serves the flows that started with it, and is released after the last of them.
package final class HostRegistration: @unchecked Sendable {
    private let dispatcher: CallbackDispatcher
    private let token: CallbackDispatcher.ReleaseToken

    /// Nil once the app's destroy has begun: the registration must fail, and `release` never runs.
    package init?(dispatcher: CallbackDispatcher, release: @escaping () -> Void) {
        guard let token = dispatcher.keepRelease(release) else { return nil }
        self.dispatcher = dispatcher
        self.token = token
    }

    deinit {
        dispatcher.release(token)
    }
}
