#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import HearthBackend

/// Bytes from the operating system's cryptographically secure generator: `getentropy` (the getrandom
/// system call on Linux), else `/dev/urandom`. Never a user-space PRNG: these bytes become nonces that
/// an attacker must not predict.
///
/// Failure is an error, not a crash (Swift's `SystemRandomNumberGenerator` traps instead).
enum SecureRandom {
    /// `getentropy` refuses requests above 256 bytes.
    private static let entropyChunk = 256

    static func bytes(_ count: Int) throws(AuthError) -> [UInt8] {
        guard count >= 0 else {
            throw AuthError(code: .invalidArgument, message: "A negative number of random bytes was requested.")
        }
        var buffer = [UInt8](repeating: 0, count: count)
        if count == 0 { return buffer }
        if fillFromGetEntropy(&buffer) || fillFromDevURandom(&buffer) {
            return buffer
        }
        throw AuthError(code: .failure, message: "The operating system's secure random number generator is unavailable.")
    }

    private static func fillFromGetEntropy(_ buffer: inout [UInt8]) -> Bool {
        buffer.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress else { return false }
            var offset = 0
            while offset < raw.count {
                let length = min(entropyChunk, raw.count - offset)
                if getentropy(base + offset, length) != 0 { return false }
                offset += length
            }
            return true
        }
    }

    private static func fillFromDevURandom(_ buffer: inout [UInt8]) -> Bool {
        let descriptor = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { _ = close(descriptor) }
        return buffer.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress else { return false }
            var offset = 0
            while offset < raw.count {
                let got = read(descriptor, base + offset, raw.count - offset)
                if got > 0 {
                    offset += got
                } else if got < 0 && errno == EINTR {
                    continue
                } else {
                    return false
                }
            }
            return true
        }
    }
}
