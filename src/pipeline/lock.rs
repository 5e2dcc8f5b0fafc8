//! One build at a time per data directory. Two builds into one directory
//! would share temporary names, and the cleanup of stale temporaries at
//! the start of a build is only safe when no other build is writing. The
//! lock is an advisory `flock` on `<data>/.nimrod-build.lock`, released by
//! the kernel when the holder exits or is killed, so it never goes stale;
//! the file holds the holder's pid for the error message.

use anyhow::{bail, Context, Result};
use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

pub const LOCK_FILE: &str = ".nimrod-build.lock";

/// Held for the whole build; dropping it releases the lock.
#[derive(Debug)]
pub struct BuildLock {
    _file: File,
    path: PathBuf,
}

impl BuildLock {
    /// Takes the data directory's build lock or fails at once, naming the
    /// process that holds it.
    pub fn acquire(data_dir: &Path) -> Result<BuildLock> {
        std::fs::create_dir_all(data_dir)
            .with_context(|| format!("cannot create data directory {}", data_dir.display()))?;
        let path = data_dir.join(LOCK_FILE);
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .with_context(|| format!("cannot open the build lock {}", path.display()))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                let mut holder = String::new();
                let _ = file.read_to_string(&mut holder);
                let holder = holder.trim();
                bail!(
                    "data directory {} is being built by another nimrod build ({}); wait for it to finish or use another --data",
                    data_dir.display(),
                    if holder.is_empty() { "pid unknown".to_string() } else { format!("pid {holder}") }
                );
            }
            Err(TryLockError::Error(e)) => {
                return Err(e).with_context(|| format!("cannot lock {}", path.display()))
            }
        }
        file.set_len(0)
            .and_then(|()| file.seek(SeekFrom::Start(0)))
            .and_then(|_| writeln!(file, "{}", std::process::id()))
            .with_context(|| format!("cannot write the build lock {}", path.display()))?;
        Ok(BuildLock { _file: file, path })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// Removes the temporary files (`*.tmp`) a killed or failed build left
/// under `data_dir`; only safe while holding the build lock. Returns them.
pub fn remove_stale_temporaries(_lock: &BuildLock, data_dir: &Path) -> Result<Vec<PathBuf>> {
    let mut removed = Vec::new();
    let mut stack = vec![data_dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries = std::fs::read_dir(&d)
            .with_context(|| format!("cannot read directory {}", d.display()))?;
        for e in entries {
            let e = e.with_context(|| format!("cannot read directory {}", d.display()))?;
            let p = e.path();
            let kind = e
                .file_type()
                .with_context(|| format!("cannot read {}", p.display()))?;
            if kind.is_dir() {
                stack.push(p);
            } else if kind.is_file() && p.extension().is_some_and(|x| x == "tmp") {
                std::fs::remove_file(&p)
                    .with_context(|| format!("cannot remove stale temporary {}", p.display()))?;
                removed.push(p);
            }
        }
    }
    removed.sort();
    Ok(removed)
}
