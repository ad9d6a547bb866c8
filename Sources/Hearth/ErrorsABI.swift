#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CHearthHeader
import HearthBackend

/// Static C strings for error names and messages, built once.
private let errorTexts: [Int32: (name: CString, message: CString)] = {
    var table: [Int32: (CString, CString)] = [:]
    for code in AuthErrorCode.allCases {
        table[code.rawValue] = (CString(code.name), CString(code.defaultMessage))
    }
    return table
}()
private let unknownName = CString("HEARTH_ERROR_UNKNOWN")
private let unknownMessage = CString("Unknown error code.")
/// hearth.h's numbers: the header is the one source of the version (HearthVersion reads them too).
private let versionString = CString(HearthVersion.string)

@_cdecl("hearth_error_name")
public func abi_error_name(_ code: Int32) -> UnsafePointer<CChar> {
    errorTexts[code]?.name.borrowed ?? unknownName.borrowed
}

@_cdecl("hearth_error_message")
public func abi_error_message(_ code: Int32) -> UnsafePointer<CChar> {
    errorTexts[code]?.message.borrowed ?? unknownMessage.borrowed
}

@_cdecl("hearth_version")
public func abi_version() -> UnsafePointer<CChar> {
    versionString.borrowed
}

@_cdecl("hearth_version_number")
public func abi_version_number() -> Int32 {
    Int32(HearthVersion.number)
}

@_cdecl("hearth_free")
public func abi_free(_ pointer: UnsafeMutableRawPointer?) {
    free(pointer)
}
