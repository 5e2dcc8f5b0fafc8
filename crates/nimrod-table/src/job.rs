//! A table's identity: where the table of a build job lives under a data
//! directory, the hash that ties it to the job's parameters, and the
//! checked open that refuses a table renamed, copied over another or with
//! edited metadata. Programs that read tables should open them through
//! [`open_job_table`], as the nimrod CLI does.

use crate::{Table, TableError, FORMAT_VERSION};
use std::path::{Path, PathBuf};

/// The raw table file of job `id` (like `grundy/values`) under `data_dir`.
/// Its packed form is the same path with `.zst` appended.
pub fn table_path(data_dir: &Path, id: &str) -> PathBuf {
    data_dir.join(format!("{id}.nmt"))
}

/// Hash of the job id, the table format version and the parameters (JSON
/// with sorted keys, so the same parameters always hash the same). It is
/// stored in the header, and a table whose recorded parameters do not hash
/// to it is refused.
pub fn param_hash(id: &str, params: &serde_json::Value) -> u64 {
    let doc = serde_json::json!({
        "id": id,
        "format": FORMAT_VERSION,
        "params": params,
    });
    xxhash_rust::xxh3::xxh3_64(doc.to_string().as_bytes())
}

/// Checks that an open table is the one job `id` wrote, with the
/// parameters its header was hashed from.
pub fn check_identity(t: &Table, id: &str) -> Result<(), TableError> {
    check_identity_of(t.path(), t.meta(), t.header(), id)
}

/// [`check_identity`] on a table's parts (a shipped table has no `Table`).
pub fn check_identity_of(
    file: &Path,
    meta: &crate::TableMeta,
    header: &crate::Header,
    id: &str,
) -> Result<(), TableError> {
    let path = file.display();
    let wrong = |what: String| {
        Err(TableError::Identity {
            path: file.to_path_buf(),
            what,
        })
    };
    let Some(job) = &meta.job else {
        return wrong(format!(
            "{path} does not record which job wrote it (built by an older nimrod?)"
        ));
    };
    if job.id != id {
        return wrong(format!(
            "{path} holds the table of {}, not {id} (renamed or copied over it)",
            job.id
        ));
    }
    if param_hash(id, &job.params) != header.param_hash {
        return wrong(format!(
            "{path}: its recorded job parameters {} do not hash to its header's parameter hash (edited or damaged metadata)",
            job.params
        ));
    }
    Ok(())
}

/// Where `nimrod pack` puts the packed form of the raw table `raw`:
/// `FILE.nmt.zst` beside it.
pub fn packed_path(raw: &Path) -> PathBuf {
    let mut packed = raw.to_path_buf().into_os_string();
    packed.push(".zst");
    PathBuf::from(packed)
}

/// Opens the table of job `id` under `data_dir`, raw or else packed, and
/// checks it is that job's table ([`check_identity`]) before anything is
/// read from it.
///
/// ```no_run
/// let values = nimrod_table::open_job_table("data".as_ref(), "grundy/values")?;
/// let g: u16 = values.get(1000)?;
/// # Ok::<(), nimrod_table::TableError>(())
/// ```
pub fn open_job_table(data_dir: &Path, id: &str) -> Result<Table, TableError> {
    open_job_table_with(data_dir, id, Table::open)
}

/// As [`open_job_table`], but a packed table is decompressed whole into
/// memory ([`Table::open_unpacked`]): for a reader that probes all over a
/// table (a chess build probing its captures' tables), where a small cache
/// of frames would decompress a frame for almost every probe.
pub fn open_job_table_unpacked(data_dir: &Path, id: &str) -> Result<Table, TableError> {
    open_job_table_with(data_dir, id, Table::open_unpacked)
}

fn open_job_table_with(
    data_dir: &Path,
    id: &str,
    open: fn(&Path) -> Result<Table, TableError>,
) -> Result<Table, TableError> {
    let raw = table_path(data_dir, id);
    let packed = packed_path(&raw);
    for p in [&raw, &packed] {
        // Only "no such file" means absent: a directory that cannot be read
        // (permissions) is an error naming it, not a missing table.
        match std::fs::metadata(p) {
            Ok(_) => {
                let t = open(p)?;
                check_identity(&t, id)?;
                return Ok(t);
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(TableError::io(p, e)),
        }
    }
    Err(TableError::Missing {
        id: id.to_string(),
        data_dir: data_dir.to_path_buf(),
        raw,
    })
}
