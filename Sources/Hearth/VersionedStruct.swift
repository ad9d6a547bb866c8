/// An options struct from the host, read field by field up to its `struct_size`: a host built against
/// an older, smaller struct gets the default for every field it does not have. Only the bytes of a field
/// inside `size` are read, never the struct as a whole (that would read past the end of an older one).
struct VersionedStruct<S> {
    let pointer: UnsafePointer<S>
    let size: Int

    func field<T>(_ path: KeyPath<S, T>, default value: T) -> T {
        guard let offset = MemoryLayout<S>.offset(of: path), offset + MemoryLayout<T>.size <= size else {
            return value
        }
        return UnsafeRawPointer(pointer).loadUnaligned(fromByteOffset: offset, as: T.self)
    }
}
