/// Which requests may be in curl at once, per host: at most `limit` each (0: no limit); the rest wait
/// here, in the order they were sent, until one of that host's requests leaves curl.
///
/// curl has a queue of its own for this (`CURLMOPT_MAX_HOST_CONNECTIONS`), but a request parked there is
/// taken back through the whole connection setup (proxy variables read from the environment, the
/// connection cache searched, the request's state rebuilt) each time any transfer ends, and parked
/// again: with 256 sign-ins in flight on 64 connections, 420,000 instructions per sign-in instead of
/// 270,000 (bench, issue 19). Requests waiting here cost nothing until their turn. curl's own limit
/// stays set as a backstop; it is never reached. Hosts are small integers (`CheckedURLCache` numbers
/// them), so counting costs no hashing. Loop thread only.
struct HostAdmission {
    /// A request waiting for its turn: its id, and when its time runs out (loop time, ms).
    struct Waiting {
        let id: RequestID
        let deadlineMs: UInt64
    }

    private struct Host {
        var active = 0
        var waiting: [Waiting] = []
        /// Entries before this index have been taken.
        var head = 0
    }

    let limit: Int
    private var hosts: [Host] = []

    init(limit: Int) {
        self.limit = limit
    }

    /// Whether a request to `host` may go to curl now; if so it counts as active until `left`.
    mutating func admit(host: Int) -> Bool {
        guard limit > 0 else { return true }
        if host >= hosts.count { hosts.append(contentsOf: repeatElement(Host(), count: host + 1 - hosts.count)) }
        guard hosts[host].active < limit else { return false }
        hosts[host].active += 1
        return true
    }

    /// Queues a request that `admit` refused.
    mutating func wait(_ entry: Waiting, host: Int) {
        hosts[host].waiting.append(entry)
    }

    /// A request of `host` that was let in (by `admit` or `next`) has left curl, or did not go after all:
    /// its place is free.
    mutating func left(host: Int) {
        guard limit > 0, host < hosts.count else { return }
        hosts[host].active -= 1
    }

    /// The oldest request waiting for `host` while it has a free place; it then counts as active.
    mutating func next(host: Int) -> Waiting? {
        guard limit > 0, host < hosts.count, hosts[host].active < limit, hosts[host].head < hosts[host].waiting.count
        else { return nil }
        let taken = hosts[host].waiting[hosts[host].head]
        hosts[host].head += 1
        if hosts[host].head == hosts[host].waiting.count {
            hosts[host].waiting.removeAll(keepingCapacity: true)
            hosts[host].head = 0
        }
        hosts[host].active += 1
        return taken
    }

    /// Takes out waiting requests whose deadline is at or before `nowMs` and returns their ids, with
    /// the earliest deadline of those left, if any.
    mutating func expire(nowMs: UInt64) -> (expired: [RequestID], nextDeadlineMs: UInt64?) {
        var expired: [RequestID] = []
        var nextDeadline: UInt64?
        for host in hosts.indices where hosts[host].head < hosts[host].waiting.count {
            var kept: [Waiting] = []
            for waiting in hosts[host].waiting[hosts[host].head...] {
                if waiting.deadlineMs <= nowMs {
                    expired.append(waiting.id)
                } else {
                    kept.append(waiting)
                    nextDeadline = min(nextDeadline ?? waiting.deadlineMs, waiting.deadlineMs)
                }
            }
            hosts[host].waiting = kept
            hosts[host].head = 0
        }
        return (expired, nextDeadline)
    }
}
