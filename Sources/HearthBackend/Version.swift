import CHearthHeader

/// Hearth's version, from the numbers of include/hearth.h (the one place it is written): the library's
/// hearth_version, the X-Client-Version header and the emulator handler's `v` parameter all read it here.
public enum HearthCoreVersion {
    public static let major = Int(HEARTH_VERSION_MAJOR)
    public static let minor = Int(HEARTH_VERSION_MINOR)
    public static let patch = Int(HEARTH_VERSION_PATCH)
    public static let string = "\(major).\(minor).\(patch)"
    /// major * 10000 + minor * 100 + patch, as HEARTH_VERSION_NUMBER.
    public static let number = major * 10000 + minor * 100 + patch
}
