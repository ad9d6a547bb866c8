/// Addresses with a tag each: the ABI's handle registry (a handle's address and its kind). Open
/// addressing with linear probing, hashed by one multiplication instead of `Hasher`'s SipHash: every
/// call across the C ABI looks its handles up here, and the keys are our own objects' addresses, never
/// an attacker's choice. Not thread-safe: the registry holds it under its lock.
package struct AddressTable {
    /// 0 marks an empty slot (no object lives at address 0).
    private var addresses: [UInt]
    private var tags: [UInt]
    /// 64 − log2(slot count): the multiply-shift hash keeps the product's top bits.
    private var shift: UInt64
    package private(set) var count = 0

    package init(minimumCapacity: Int = 32) {
        var slots = 16
        while slots < minimumCapacity * 2 { slots <<= 1 }
        addresses = Array(repeating: 0, count: slots)
        tags = Array(repeating: 0, count: slots)
        shift = UInt64(64 - slots.trailingZeroBitCount)
    }

    /// The tag stored with `address`, or nil.
    package func tag(of address: UInt) -> UInt? {
        guard address != 0 else { return nil }
        let index = slot(of: address)
        return addresses[index] == address ? tags[index] : nil
    }

    /// Stores `address` with `tag`, replacing its previous tag.
    package mutating func insert(_ address: UInt, tag: UInt) {
        precondition(address != 0, "address 0 cannot be stored")
        // At most half full: probes stay short.
        if (count + 1) * 2 > addresses.count { grow() }
        let index = slot(of: address)
        if addresses[index] == 0 {
            addresses[index] = address
            count += 1
        }
        tags[index] = tag
    }

    /// Removes `address`; returns its tag, or nil if it was not stored.
    @discardableResult
    package mutating func remove(_ address: UInt) -> UInt? {
        guard address != 0 else { return nil }
        var hole = slot(of: address)
        guard addresses[hole] == address else { return nil }
        let tag = tags[hole]
        // Backward shift instead of a tombstone: each later entry of the run moves into the hole unless
        // its home slot lies after the hole (it would then no longer be found from home).
        let mask = addresses.count - 1
        var index = (hole + 1) & mask
        while addresses[index] != 0 {
            let home = self.home(of: addresses[index])
            if (index &- home) & mask >= (index &- hole) & mask {
                addresses[hole] = addresses[index]
                tags[hole] = tags[index]
                hole = index
            }
            index = (index + 1) & mask
        }
        addresses[hole] = 0
        tags[hole] = 0
        count -= 1
        return tag
    }

    private func home(of address: UInt) -> Int {
        Int(truncatingIfNeeded: (UInt64(address) &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// The slot holding `address`, or the empty slot that ends its probe run.
    private func slot(of address: UInt) -> Int {
        let mask = addresses.count - 1
        var index = home(of: address)
        while true {
            let found = addresses[index]
            if found == address || found == 0 { return index }
            index = (index + 1) & mask
        }
    }

    private mutating func grow() {
        let (oldAddresses, oldTags) = (addresses, tags)
        addresses = Array(repeating: 0, count: oldAddresses.count * 2)
        tags = Array(repeating: 0, count: oldAddresses.count * 2)
        shift -= 1
        count = 0
        for (address, tag) in zip(oldAddresses, oldTags) where address != 0 {
            insert(address, tag: tag)
        }
    }
}
