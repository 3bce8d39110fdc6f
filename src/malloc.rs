//! glibc's allocator keeps one arena per thread that ever contended for
//! it, up to eight per core, and keeps what each arena freed. The searches
//! run on the blocking pool, a thread each, so after a burst of searches
//! every one of those threads holds an arena's worth of freed tree and
//! tactical tables: measured under the transport attacks
//! (`tests/solo/transport_memory.rs`, release), peak resident memory was
//! 121–131 MiB with glibc's default and 83 MiB with two arenas, at the same
//! latency. So the server asks for one arena per core (at least two),
//! unless the operator set `MALLOC_ARENA_MAX`, which glibc reads itself.

/// Caps glibc's malloc arenas at the number of cores (at least two), unless
/// `MALLOC_ARENA_MAX` is set. Call it first thing, before threads start.
/// Elsewhere than Linux with glibc it does nothing.
pub fn limit_arenas() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        if std::env::var_os("MALLOC_ARENA_MAX").is_some() {
            return;
        }
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get()).max(2);
        let arenas = libc::c_int::try_from(cores).unwrap_or(libc::c_int::MAX);
        // SAFETY: mallopt only sets an allocator parameter; it is called
        // before the runtime starts any thread.
        unsafe {
            libc::mallopt(libc::M_ARENA_MAX, arenas);
        }
    }
}
