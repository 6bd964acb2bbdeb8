//! The output folder's lock: one `crosscut-match` at a time writes to an
//! `--out` folder. The lock is an advisory lock on `out/.crosscut-match.lock`
//! (`flock` on Unix), held by the open file for the whole run, so the
//! operating system drops it when the runner ends in any way: a lock left
//! by a dead runner never blocks the next one. The file also holds the
//! holder's process id, for the message a second runner prints.

use std::fs::{File, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// The lock file's name inside the output folder.
pub const LOCK_FILE: &str = ".crosscut-match.lock";

/// How long a held lock is tried again before a runner refuses the folder.
const LINGER: std::time::Duration = std::time::Duration::from_millis(500);

/// The held lock; dropping it releases the folder.
#[derive(Debug)]
pub struct OutLock {
    _file: File,
    path: PathBuf,
}

impl OutLock {
    /// Locks the folder `dir` (which must exist) or says who holds it.
    /// A file system without locks is warned about, not refused.
    pub fn acquire(dir: &Path) -> Result<OutLock, String> {
        let path = dir.join(LOCK_FILE);
        let mut file = File::options()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
        // A lock whose runner just ended can linger for a moment in a
        // process forked meanwhile (the lock is the open file's, shared
        // until that process replaces itself): try again for a little
        // while before refusing.
        let mut result = file.try_lock();
        let deadline = std::time::Instant::now() + LINGER;
        while matches!(result, Err(TryLockError::WouldBlock))
            && std::time::Instant::now() < deadline
        {
            std::thread::sleep(std::time::Duration::from_millis(20));
            result = file.try_lock();
        }
        match result {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                let mut holder = String::new();
                let _ = file.read_to_string(&mut holder);
                let holder = holder.trim();
                let who = if holder.is_empty() {
                    "another crosscut-match".to_string()
                } else {
                    format!("another crosscut-match (pid {holder})")
                };
                return Err(format!(
                    "{} is in use by {who}: two runners on one --out would play every game twice; \
                     wait for it to end, or choose another --out",
                    dir.display()
                ));
            }
            Err(TryLockError::Error(e)) => {
                log::warn!(
                    "cannot lock {} ({e}): nothing stops a second runner on this folder",
                    path.display()
                );
            }
        }
        let _ = file
            .set_len(0)
            .and_then(|_| file.seek(SeekFrom::Start(0)))
            .and_then(|_| writeln!(file, "{}", std::process::id()))
            .and_then(|_| file.flush());
        Ok(OutLock { _file: file, path })
    }

    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_is_refused_until_the_first_is_dropped() {
        let dir = std::env::temp_dir().join(format!("crosscut-lock-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let first = OutLock::acquire(&dir).unwrap();
        let pid = std::process::id().to_string();
        let e = OutLock::acquire(&dir).unwrap_err();
        assert!(e.contains("in use") && e.contains(&pid), "{e}");
        assert!(first.path().exists());
        drop(first);
        // Released with its file: the folder can be locked again.
        let again = OutLock::acquire(&dir).unwrap();
        drop(again);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
