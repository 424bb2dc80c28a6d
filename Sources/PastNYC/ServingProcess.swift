import Glibc

/// What the serving process sets up for itself, once, before the server starts: state
/// of the whole process, which a library must not change behind its caller's back.
enum ServingProcess {
    static func prepare() {
        // A peer that hangs up must not kill the process (the server's sends use MSG_NOSIGNAL too).
        signal(SIGPIPE, SIG_IGN)
        raiseDescriptorLimit()
    }

    /// Lifts the soft `RLIMIT_NOFILE` to the hard limit: each connection is a descriptor.
    private static func raiseDescriptorLimit() {
        var limit = rlimit()
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        setrlimit(resource, &limit)
    }
}
