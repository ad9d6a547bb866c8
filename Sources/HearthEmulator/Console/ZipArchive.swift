#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A zip archive of stored (uncompressed) files: what the console's export downloads, so the
/// directory `firebase emulators:export` writes arrives as one file that every unzip tool opens.
/// Names are UTF-8 (flag bit 11); no file may reach 4 GiB (no ZIP64).
enum ZipArchive {
    struct Entry {
        var path: String
        var bytes: [UInt8]
    }

    struct TooLarge: Error {}

    static func stored(_ entries: [Entry], modified: time_t = time(nil)) throws(TooLarge) -> [UInt8] {
        let (dosTime, dosDate) = dosTimestamp(modified)
        var archive: [UInt8] = []
        var directory: [UInt8] = []
        for entry in entries {
            let name = Array(entry.path.utf8)
            guard entry.bytes.count < Int(UInt32.max), archive.count < Int(UInt32.max), name.count <= Int(UInt16.max) else {
                throw TooLarge()
            }
            let crc = CRC32.checksum(entry.bytes)
            let offset = UInt32(archive.count)
            let size = UInt32(entry.bytes.count)

            archive.appendLittleEndian(UInt32(0x0403_4b50))
            archive.appendLittleEndian(UInt16(10))          // version needed: stored files
            archive.appendLittleEndian(UInt16(0x0800))      // UTF-8 names
            archive.appendLittleEndian(UInt16(0))           // stored
            archive.appendLittleEndian(dosTime)
            archive.appendLittleEndian(dosDate)
            archive.appendLittleEndian(crc)
            archive.appendLittleEndian(size)
            archive.appendLittleEndian(size)
            archive.appendLittleEndian(UInt16(name.count))
            archive.appendLittleEndian(UInt16(0))
            archive.append(contentsOf: name)
            archive.append(contentsOf: entry.bytes)

            directory.appendLittleEndian(UInt32(0x0201_4b50))
            directory.appendLittleEndian(UInt16(3 << 8 | 20))   // made by: Unix, zip 2.0
            directory.appendLittleEndian(UInt16(10))
            directory.appendLittleEndian(UInt16(0x0800))
            directory.appendLittleEndian(UInt16(0))
            directory.appendLittleEndian(dosTime)
            directory.appendLittleEndian(dosDate)
            directory.appendLittleEndian(crc)
            directory.appendLittleEndian(size)
            directory.appendLittleEndian(size)
            directory.appendLittleEndian(UInt16(name.count))
            directory.appendLittleEndian(UInt16(0))             // extra field
            directory.appendLittleEndian(UInt16(0))             // comment
            directory.appendLittleEndian(UInt16(0))             // disk
            directory.appendLittleEndian(UInt16(0))             // internal attributes
            directory.appendLittleEndian(UInt32(0o100644) << 16) // -rw-r--r--
            directory.appendLittleEndian(offset)
            directory.append(contentsOf: name)
        }
        guard archive.count + directory.count < Int(UInt32.max), entries.count <= Int(UInt16.max) else { throw TooLarge() }
        let directoryOffset = UInt32(archive.count)
        archive.append(contentsOf: directory)
        archive.appendLittleEndian(UInt32(0x0605_4b50))
        archive.appendLittleEndian(UInt16(0))
        archive.appendLittleEndian(UInt16(0))
        archive.appendLittleEndian(UInt16(entries.count))
        archive.appendLittleEndian(UInt16(entries.count))
        archive.appendLittleEndian(UInt32(directory.count))
        archive.appendLittleEndian(directoryOffset)
        archive.appendLittleEndian(UInt16(0))
        return archive
    }

    /// MS-DOS time and date (UTC; zip has no time zone), which start in 1980.
    private static func dosTimestamp(_ seconds: time_t) -> (time: UInt16, date: UInt16) {
        var clock = seconds
        var parts = tm()
        guard gmtime_r(&clock, &parts) != nil, parts.tm_year >= 80 else { return (0, UInt16(1 << 5 | 1)) }
        let time = UInt16(parts.tm_hour) << 11 | UInt16(parts.tm_min) << 5 | UInt16(parts.tm_sec / 2)
        let date = UInt16(parts.tm_year - 80) << 9 | UInt16(parts.tm_mon + 1) << 5 | UInt16(parts.tm_mday)
        return (time, date)
    }
}

/// CRC-32 (IEEE 802.3, reflected), as zip records it.
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}

extension Array where Element == UInt8 {
    fileprivate mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
        var little = value.littleEndian
        Swift.withUnsafeBytes(of: &little) { append(contentsOf: $0) }
    }
}
