/// The transport's requests from `send` until they complete, fail or are cancelled, found by id without
/// hashing: two dictionaries (by id, and by curl handle) cost five hash operations per request (the
/// table took ~0.9k instructions off a sign-in's two requests, bench/FINDINGS.md).
///
/// An id names a slot (its low 32 bits) and which use of that slot it was (its high 32 bits, never 0),
/// so the id of a request that is over finds nothing, even once its slot serves another request. A
/// transfer in curl carries its id on its handle (`CURLOPT_PRIVATE`), which is how a finished handle
/// finds its transfer.
struct TransferTable {
    private var transfers: ContiguousArray<CurlTransfer?> = []
    private var uses: ContiguousArray<UInt32> = []
    private var freeSlots: [Int] = []
    /// Reserved ids, with or without their transfer yet.
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    /// A new id, and its slot, empty until `fill`; `release` gives it back unused.
    mutating func reserve() -> RequestID {
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
        } else {
            slot = transfers.count
            transfers.append(nil)
            // Uses start at 1 and skip 0 when they wrap: no id is 0, so a handle's `CURLOPT_PRIVATE`
            // is never a null pointer.
            uses.append(1)
        }
        count += 1
        return RequestID(UInt64(uses[slot]) << 32 | UInt64(slot))
    }

    mutating func fill(_ id: RequestID, with transfer: CurlTransfer) {
        guard let slot = slot(of: id) else { return }
        transfers[slot] = transfer
    }

    /// The transfer of `id`, nil when it is over or was never filled.
    subscript(id: RequestID) -> CurlTransfer? {
        guard let slot = slot(of: id) else { return nil }
        return transfers[slot]
    }

    /// Ends `id`: its transfer, if it had one, and nil when `id` was already over.
    @discardableResult
    mutating func release(_ id: RequestID) -> CurlTransfer? {
        guard let slot = slot(of: id) else { return nil }
        let transfer = transfers[slot]
        transfers[slot] = nil
        uses[slot] = Self.next(uses[slot])
        freeSlots.append(slot)
        count -= 1
        return transfer
    }

    /// Every transfer, in slot order; the table is left empty (every id over).
    mutating func removeAll() -> [CurlTransfer] {
        var all: [CurlTransfer] = []
        all.reserveCapacity(count)
        for slot in transfers.indices {
            if let transfer = transfers[slot] { all.append(transfer) }
        }
        // New uses for every slot: no id handed out before this matches again.
        for slot in uses.indices { uses[slot] = Self.next(uses[slot]) }
        transfers = ContiguousArray(repeating: nil, count: transfers.count)
        freeSlots = Array(transfers.indices.reversed())
        count = 0
        return all
    }

    /// The transfers (for a deinit that frees them); the table is not changed.
    var all: [CurlTransfer] { transfers.compactMap { $0 } }

    private static func next(_ use: UInt32) -> UInt32 { use == .max ? 1 : use + 1 }

    private func slot(of id: RequestID) -> Int? {
        let slot = Int(truncatingIfNeeded: id.rawValue & 0xffff_ffff)
        let use = UInt32(truncatingIfNeeded: id.rawValue >> 32)
        guard use != 0, slot < uses.count, uses[slot] == use else { return nil }
        return slot
    }
}
