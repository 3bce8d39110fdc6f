//! The endgame tables kept in a folder (`--endgame-tables-dir`), so that a
//! server (or an arena run) loads in seconds what would take minutes of CPU
//! to build; and the build of every game's tables, on a thread of its own
//! or in the foreground (`parlour tables`). docs/operations.md, "Endgame
//! tables".

use parlour_engine::front::AnyGame;
use parlour_engine::registry::Registry;
use parlour_engine::store::{NoStore, TableStore};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A folder of table images, one file a part, named by the engine
/// (`scala-original-8-v1.table`). A file is written beside its final name
/// and renamed into place, so a reader never sees half of one; a missing
/// file is built, a damaged one is logged, built and replaced.
pub struct TableDir {
    dir: PathBuf,
}

impl TableDir {
    /// The folder `dir`, created (with its parents) if missing; an error
    /// names the folder and what failed.
    /// Partial files older than [`STALE_PARTIAL`] (left by a process that
    /// stopped while writing) are removed.
    pub fn open(dir: &Path) -> Result<TableDir, String> {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: cannot create the folder: {e}", dir.display()))?;
        if !dir.is_dir() {
            return Err(format!("{}: not a folder", dir.display()));
        }
        let store = TableDir { dir: dir.to_path_buf() };
        store.remove_stale_partials();
        Ok(store)
    }

    fn remove_stale_partials(&self) {
        let Ok(entries) = std::fs::read_dir(&self.dir) else { return };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if !(name.starts_with('.') && name.ends_with(PARTIAL)) {
                continue;
            }
            let age = entry.metadata().and_then(|m| m.modified()).ok().and_then(|t| t.elapsed().ok());
            if age.is_some_and(|a| a > STALE_PARTIAL) && std::fs::remove_file(entry.path()).is_ok() {
                tracing::info!(path = %entry.path().display(), "removed a partial endgame table left by a stopped writer");
            }
        }
    }

    fn write(&self, name: &str, image: &[u8]) -> std::io::Result<PathBuf> {
        let path = self.dir.join(name);
        // Unique among writers sharing the folder, even two replicas that
        // are each process 1 of their container.
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
        let partial = self.dir.join(format!(".{name}.{}.{nanos}{PARTIAL}", std::process::id()));
        let written = (|| {
            let mut f = std::fs::File::create(&partial)?;
            f.write_all(image)?;
            f.sync_all()?;
            std::fs::rename(&partial, &path)
        })();
        if written.is_err() {
            let _ = std::fs::remove_file(&partial);
        }
        written.map(|()| path)
    }
}

impl TableStore for TableDir {
    fn load(&self, name: &str) -> Option<Vec<u8>> {
        let path = self.dir.join(name);
        match std::fs::read(&path) {
            Ok(image) => {
                tracing::info!(path = %path.display(), bytes = image.len(), "endgame table read");
                Some(image)
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                tracing::info!(path = %path.display(), "endgame table not stored yet; building it");
                None
            }
            Err(e) => {
                tracing::warn!(path = %path.display(), error = %e, "cannot read the endgame table; building it");
                None
            }
        }
    }

    fn save(&self, name: &str, image: &[u8]) {
        match self.write(name, image) {
            Ok(path) => tracing::info!(path = %path.display(), bytes = image.len(), "endgame table saved"),
            Err(e) => tracing::warn!(
                folder = %self.dir.display(),
                table = name,
                error = %e,
                "cannot save the endgame table; it stays in use, and is built again next start"
            ),
        }
    }

    fn rejected(&self, name: &str, why: &str) {
        tracing::warn!(path = %self.dir.join(name).display(), why, "stored endgame table not used; building it again");
    }
}

/// The ending of a file being written ([`TableDir`]).
const PARTIAL: &str = ".partial";

/// A partial file this old is a writer's that stopped (writing one takes
/// under a second).
const STALE_PARTIAL: Duration = Duration::from_secs(600);

/// Builds (or loads from `dir`, saving what is built there) the tables of
/// each of `games`, logging each game that took time. Returns the time taken.
pub fn prepare_all<'a>(games: impl IntoIterator<Item = &'a dyn AnyGame>, dir: Option<&TableDir>) -> Duration {
    let store: &dyn TableStore = match dir {
        Some(d) => d,
        None => &NoStore,
    };
    let all = Instant::now();
    for game in games {
        let started = Instant::now();
        game.prepare(store);
        let took = started.elapsed();
        if took > Duration::from_millis(100) {
            let d = game.description();
            tracing::info!(game = d.id, variant = d.variant, secs = took.as_secs_f64(), "endgame tables ready");
        }
    }
    all.elapsed()
}

/// [`prepare_all`] on a thread of its own, so that a server started with
/// [`crate::service::Limits::endgame_tables`] serves at once and its
/// searches read the tables from when they are ready. On Linux the thread
/// (and the threads it starts, which inherit it) runs at nice
/// [`TABLES_NICE`], so that calls keep most of the CPU while the tables
/// are built. A thread that cannot be started is logged, and the server
/// goes on without them.
pub fn prepare_in_background(registry: Arc<Registry>, dir: Option<TableDir>) {
    let started = std::thread::Builder::new().name("endgame-tables".into()).spawn(move || {
        #[cfg(all(target_os = "linux", target_env = "gnu"))]
        // SAFETY: setpriority only changes this thread's nice value (on
        // Linux the nice value is a thread's, and the threads it starts
        // inherit it); it touches no memory.
        unsafe {
            let tid = libc::gettid() as libc::id_t;
            if libc::setpriority(libc::PRIO_PROCESS, tid, TABLES_NICE) != 0 {
                tracing::warn!("could not lower the endgame tables' priority; they build at the server's");
            }
        }
        prepare_all(registry.all(), dir.as_ref());
    });
    if let Err(e) = started {
        tracing::error!(error = %e, "could not start the endgame tables' thread; searches go on without them");
    }
}

/// The nice value of the endgame tables' build ([`prepare_in_background`]):
/// a call's thread (nice 0) gets about ten times its share of a core.
pub const TABLES_NICE: i32 = 10;

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("parlour-tables-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn a_folder_keeps_what_it_saved_and_replaces_it_whole() {
        let dir = scratch("keeps");
        let store = TableDir::open(&dir.join("nested")).unwrap();
        assert_eq!(store.load("x.table"), None);
        store.save("x.table", b"first");
        assert_eq!(store.load("x.table").as_deref(), Some(&b"first"[..]));
        store.save("x.table", b"second, longer");
        assert_eq!(store.load("x.table").as_deref(), Some(&b"second, longer"[..]));
        let names: Vec<_> = std::fs::read_dir(dir.join("nested"))
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert_eq!(names, ["x.table"], "no partial file is left behind");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A save that fails (the folder gone) and a read that fails (a
    /// folder where the file should be) are logged, never a panic: the
    /// tables are then built, and stay in use unsaved.
    #[test]
    fn a_failed_save_or_read_builds_instead() {
        let dir = scratch("fails");
        let store = TableDir::open(&dir).unwrap();
        std::fs::create_dir(dir.join("x.table")).unwrap();
        assert_eq!(store.load("x.table"), None, "a folder is not an image");
        std::fs::remove_dir_all(&dir).unwrap();
        store.save("y.table", b"lost");
        assert!(!dir.exists(), "nothing written, nothing left half-written");
        assert_eq!(store.load("y.table"), None);
    }

    #[test]
    fn a_stale_partial_file_is_removed_and_a_fresh_one_kept() {
        let dir = scratch("partial");
        std::fs::create_dir_all(&dir).unwrap();
        let stale = dir.join(".x.table.1.5.partial");
        let fresh = dir.join(".x.table.2.6.partial");
        let other = dir.join("notes.partial");
        for p in [&stale, &fresh, &other] {
            std::fs::write(p, b"half").unwrap();
        }
        let old = std::time::SystemTime::now() - STALE_PARTIAL - Duration::from_secs(60);
        for p in [&stale, &other] {
            std::fs::File::options().write(true).open(p).unwrap().set_modified(old).unwrap();
        }
        TableDir::open(&dir).unwrap();
        assert!(!stale.exists());
        assert!(fresh.exists(), "another writer may still be writing it");
        assert!(other.exists(), "not a file of ours");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_file_where_the_folder_should_be_is_refused_by_name() {
        let dir = scratch("file");
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("plain");
        std::fs::write(&file, b"").unwrap();
        let err = TableDir::open(&file).err().unwrap();
        assert!(err.starts_with(&file.display().to_string()), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
