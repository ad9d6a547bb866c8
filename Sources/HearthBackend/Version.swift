import CHearthHeader

/// Hearth's version, from the numbers of include/hearth.h (the one place it is written): the library's
/// hearth_version, the X-Client-Version header and the emulator handler's `v` parameter all read it here.
package enum HearthVersion {
    static let major = Int(HEARTH_VERSION_MAJOR)
    static let minor = Int(HEARTH_VERSION_MINOR)
    static let patch = Int(HEARTH_VERSION_PATCH)
    package static let string = "\(major).\(minor).\(patch)"
    /// major * 10000 + minor * 100 + patch, as HEARTH_VERSION_NUMBER.
    package static let number = major * 10000 + minor * 100 + patch
}
