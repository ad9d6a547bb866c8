/// Values that hold tokens or passwords print and dump without them: never log secrets.
package protocol Redacted: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// What may be shown, e.g. "localId: abc".
    var redactedSummary: String { get }
}

extension Redacted {
    package var description: String { "\(Self.self)(\(redactedSummary))" }
    package var debugDescription: String { description }
    package var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
