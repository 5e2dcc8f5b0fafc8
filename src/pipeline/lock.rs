//! One builder per job at a time, any number of jobs at once in one data
//! directory. Each job's lock is an advisory `flock` on
//! `<data>/.locks/<job id>.lock`, released by the kernel when the holder
//! exits or is killed, so it never goes stale; the file holds the holder's
//! pid for the messages. Two builds (or two Slurm array tasks) that
//! run different jobs share the directory; a second plain build of the
//! same job waits for the first (then finds its table current), and a
//! second builder of the same part (`--shard`) is refused, naming the first.
//!
//! Under the lock a job removes its own stale temporaries (files next to
//! its table whose names start with the table's and end in `.tmp`), which
//! no other job writes; a `nimrod pack` of the table writes
//! `FILE.zst.tmp` and holds it locked while it does, and a locked
//! temporary is left alone. On a network filesystem, `flock` must reach the
//! server: NFS v4 does; Lustre needs the `flock` mount option (without it
//! `flock` fails with ENOSYS/EINVAL, and the build stops with an error
//! naming the lock file rather than build without one).

use anyhow::{bail, Context, Result};
use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// The directory of the job locks, under the data directory.
pub const LOCK_DIR: &str = ".locks";

/// Held while a job is checked and built; dropping it releases the lock.
#[derive(Debug)]
pub struct JobLock {
    _file: File,
    #[cfg(any(test, feature = "internals"))]
    path: PathBuf,
}

impl JobLock {
    /// Takes job `id`'s lock in `data_dir` or fails at once, naming the
    /// process that holds it.
    pub fn acquire(data_dir: &Path, id: &str) -> Result<JobLock> {
        Self::take(data_dir, id, None)
    }

    /// Takes job `id`'s lock, waiting while another builder holds it:
    /// `waiting` is told once, naming the holder. The kernel releases the
    /// lock when the holder exits or is killed, so the wait lasts at most
    /// as long as the other build of that job. Two plain builds started
    /// together into one directory used to fail each on the other's job;
    /// now the second waits, then finds the table current and skips it.
    pub fn acquire_waiting(data_dir: &Path, id: &str, waiting: &dyn Fn(&str)) -> Result<JobLock> {
        Self::take(data_dir, id, Some(waiting))
    }

    fn take(data_dir: &Path, id: &str, waiting: Option<&dyn Fn(&str)>) -> Result<JobLock> {
        let path = data_dir.join(LOCK_DIR).join(format!("{id}.lock"));
        let dir = path.parent().expect("a lock path has a directory");
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create the lock directory {}", dir.display()))?;
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .with_context(|| format!("cannot open the job lock {}", path.display()))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                let holder = holder_pid(&mut file)
                    .map_or_else(|| "pid unknown".to_string(), |p| format!("pid {p}"));
                let Some(waiting) = waiting else {
                    bail!(
                        "job {id} in {} is being built by another nimrod build ({holder}); wait for it to finish or use another --data",
                        data_dir.display(),
                    );
                };
                waiting(&format!(
                    "job {id} in {} is being built by another nimrod build ({holder}); waiting for it",
                    data_dir.display()
                ));
                file.lock()
                    .with_context(|| format!("cannot lock {}", path.display()))?;
            }
            Err(TryLockError::Error(e)) => {
                return Err(e).with_context(|| {
                    format!(
                        "cannot lock {} (does this filesystem support flock? Lustre needs the flock mount option)",
                        path.display()
                    )
                })
            }
        }
        file.set_len(0)
            .and_then(|()| file.seek(SeekFrom::Start(0)))
            .and_then(|_| writeln!(file, "{}", std::process::id()))
            .with_context(|| format!("cannot write the job lock {}", path.display()))?;
        Ok(JobLock {
            _file: file,
            #[cfg(any(test, feature = "internals"))]
            path,
        })
    }

    #[cfg(any(test, feature = "internals"))]
    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Removes the temporary files a killed or failed build of this job
    /// left next to `output` (names starting with the table's file name,
    /// ending in `.tmp`), except one another process holds locked: a
    /// `nimrod pack` of the finished table writes `FILE.zst.tmp` and holds
    /// it locked until it renames it (found when a build restarted beside a
    /// packing loop removed the pack's file under it). Returns them.
    pub fn remove_stale_temporaries(&self, output: &Path) -> Result<Vec<PathBuf>> {
        let (Some(dir), Some(name)) = (output.parent(), output.file_name()) else {
            return Ok(Vec::new());
        };
        let name = name.to_string_lossy();
        let mut removed = Vec::new();
        let entries = match std::fs::read_dir(dir) {
            Ok(e) => e,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(removed),
            Err(e) => {
                return Err(e).with_context(|| format!("cannot read directory {}", dir.display()))
            }
        };
        for e in entries {
            let e = e.with_context(|| format!("cannot read directory {}", dir.display()))?;
            let file_name = e.file_name().to_string_lossy().into_owned();
            let p = e.path();
            let is_file = e
                .file_type()
                .with_context(|| format!("cannot read {}", p.display()))?
                .is_file();
            if is_file && file_name.starts_with(name.as_ref()) && file_name.ends_with(".tmp") {
                if in_use(&p) {
                    continue;
                }
                std::fs::remove_file(&p)
                    .with_context(|| format!("cannot remove stale temporary {}", p.display()))?;
                removed.push(p);
            }
        }
        removed.sort();
        Ok(removed)
    }
}

/// The pid the lock's holder wrote into the file. The holder writes it
/// just after taking the lock, so a builder refused at the same instant
/// may find the file empty, or still naming an earlier holder that has
/// exited (found when two builds of one job started together: "pid
/// unknown"); it reads again for up to half a second until the file names
/// a live process.
fn holder_pid(file: &mut File) -> Option<u32> {
    for _ in 0..50 {
        let mut text = String::new();
        let read = file
            .seek(SeekFrom::Start(0))
            .and_then(|_| file.read_to_string(&mut text));
        if let (Ok(_), Ok(pid)) = (read, text.trim().parse::<u32>()) {
            if Path::new(&format!("/proc/{pid}")).exists() || !Path::new("/proc/self").exists() {
                return Some(pid);
            }
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    None
}

/// Whether another process holds `p` locked (a `nimrod pack` writing it).
/// A file that cannot be opened or locked for any other reason is not in
/// use as far as this check can tell.
fn in_use(p: &Path) -> bool {
    File::open(p).is_ok_and(|f| matches!(f.try_lock(), Err(TryLockError::WouldBlock)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A builder refused while the holder has the lock but has not yet
    /// written its pid (the file empty, or naming an exited process) waits
    /// for the pid instead of saying "pid unknown".
    #[test]
    fn a_refused_builder_names_the_holder_written_just_after_the_lock() {
        let d = tempfile::tempdir().unwrap();
        let held = JobLock::acquire(d.path(), "gops/n10/k05").unwrap();
        let me = std::process::id();
        for before in ["", "4294967295\n"] {
            std::fs::write(held.path(), before).unwrap();
            let path = held.path().to_path_buf();
            let writer = std::thread::spawn(move || {
                std::thread::sleep(std::time::Duration::from_millis(60));
                std::fs::write(path, format!("{me}\n")).unwrap();
            });
            let e = JobLock::acquire(d.path(), "gops/n10/k05").unwrap_err().to_string();
            writer.join().unwrap();
            assert!(e.contains(&format!("(pid {me})")), "{before:?}: {e}");
        }
        std::fs::write(held.path(), "").unwrap();
        let e = JobLock::acquire(d.path(), "gops/n10/k05").unwrap_err().to_string();
        assert!(e.contains("(pid unknown)"), "{e}");
    }

    #[test]
    fn a_temporary_another_process_holds_locked_is_left_alone() {
        let d = tempfile::tempdir().unwrap();
        let lock = JobLock::acquire(d.path(), "grundy/values").unwrap();
        let output = d.path().join("grundy/values.nmt");
        std::fs::create_dir_all(output.parent().unwrap()).unwrap();
        let stale = d.path().join("grundy/values.nmt.tmp");
        let packing = d.path().join("grundy/values.nmt.zst.tmp");
        let other_table = d.path().join("grundy/rare.nmt.tmp");
        for p in [&stale, &packing, &other_table] {
            std::fs::write(p, b"half-written").unwrap();
        }
        // What `pack_file` does while it writes: a second handle, locked.
        let held = File::open(&packing).unwrap();
        held.try_lock().unwrap();
        assert_eq!(lock.remove_stale_temporaries(&output).unwrap(), vec![stale.clone()]);
        assert!(packing.exists() && other_table.exists() && !stale.exists());
        drop(held);
        assert_eq!(lock.remove_stale_temporaries(&output).unwrap(), vec![packing.clone()]);
        assert!(!packing.exists() && other_table.exists());
    }
}
