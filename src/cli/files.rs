//! Commands about table files themselves: list, info, verify, pack, unpack.

use super::reports::{
    CheckpointAnswer, InfoAnswer, ListAnswer, ListRow, OctalCheckpointAnswer, PackAnswer, PackRow,
    PayloadSection, UnpackAnswer, UnpackRow, VerifyAnswer, VerifyRow,
};
use super::show;
use anyhow::{bail, ensure, Context, Result};
use nimrod::games::{self, Answer};
use nimrod::table::pack::{pack_file, DEFAULT_FRAME_SIZE};
use nimrod::table::shipped::Codec;
use nimrod::table::Table;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Table files (raw, packed, and leftover temporaries) under `dir`, sorted.
fn table_files(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries = std::fs::read_dir(&d)
            .with_context(|| format!("cannot read directory {}", d.display()))?;
        for e in entries {
            let p = e
                .with_context(|| format!("cannot read directory {}", d.display()))?
                .path();
            let name = p.to_string_lossy();
            if p.is_dir() && name.ends_with(".nmt") {
                // Listed as bad (opening it says it is a directory), not
                // skipped: it stands where a table should be.
                out.push(p);
            } else if p.is_dir() {
                stack.push(p);
            } else if name.ends_with(".nmt") || name.ends_with(".nmt.zst") || name.ends_with(".tmp")
            {
                out.push(p);
            }
        }
    }
    out.sort();
    Ok(out)
}

pub fn list(data: &Path, json: bool, quick: bool) -> Result<ExitCode> {
    if data.is_file() {
        bail!(
            "--data {} is a file, not a data directory (for one table: nimrod info {})",
            data.display(),
            data.display()
        );
    }
    if !data.is_dir() {
        bail!(
            "data directory {} does not exist (run nimrod build first)",
            data.display()
        );
    }
    let mut rows = Vec::new();
    for p in table_files(data)? {
        let size = std::fs::metadata(&p).map(|m| m.len()).unwrap_or(0);
        let (state, what, entries) = if p.to_string_lossy().ends_with(".tmp") {
            (
                "partial".to_string(),
                "unfinished write (removed by the next build)".to_string(),
                0,
            )
        } else {
            // `ok` only for what `verify` would pass on checksums: a packed
            // table whose payload frame is damaged opens fine.
            match Table::open(&p).and_then(|t| if quick { Ok(t) } else { t.verify().map(|_| t) }) {
                Ok(t) => (
                    if quick { "opens" } else { "ok" }.to_string(),
                    format!("{}/{} [{}]", t.meta().game, t.meta().table, t.storage()),
                    t.len(),
                ),
                // A shipped table: its blocks are what `verify` can check
                // without its game's restore.
                Err(nimrod::table::TableError::Shipped { .. }) => {
                    match nimrod::table::ShippedTable::open(&p).and_then(|s| {
                        if quick {
                            Ok(s)
                        } else {
                            s.verify().map(|_| s)
                        }
                    }) {
                        Ok(s) => (
                            if quick { "opens" } else { "ok" }.to_string(),
                            format!(
                                "{}/{} [{}]",
                                s.meta().game,
                                s.meta().table,
                                shipped_name(&s)
                            ),
                            s.len(),
                        ),
                        Err(e) => ("bad".to_string(), e.to_string(), 0),
                    }
                }
                Err(e) => ("bad".to_string(), e.to_string(), 0),
            }
        };
        rows.push(ListRow {
            path: p.strip_prefix(data).unwrap_or(&p).display().to_string(),
            bytes: size,
            state,
            entries,
            detail: what,
        });
    }
    show(json, &Answer::of(&ListAnswer(rows)));
    Ok(ExitCode::SUCCESS)
}

/// How `list` and `info` name the shipping form.
fn shipped_name(s: &nimrod::table::ShippedTable) -> &'static str {
    match (s.is_reduced(), s.codec()) {
        (true, Codec::Lzma) => "shipped, reduced (the game's coarser values, e.g. chess win/draw/loss, in LZMA blocks; the raw table cannot be restored from it)",
        (true, Codec::Zstd) => "shipped, reduced (the game's coarser values, e.g. chess win/draw/loss, in zstd blocks; the raw table cannot be restored from it)",
        (false, Codec::Lzma) => "shipped (part stored in LZMA blocks, the rest restored by its game)",
        (false, Codec::Zstd) => "shipped (part stored in zstd blocks, the rest restored by its game)",
    }
}

pub fn info(file: &Path, json: bool) -> Result<ExitCode> {
    // A build's saved state, or the last one a finished table kept.
    let name = file.to_string_lossy();
    if name.ends_with(".checkpoint") || name.ends_with(".extend") {
        return checkpoint_info(file, json);
    }
    let (table, shipped);
    let (h, m, storage, entry) = match Table::open(file) {
        Ok(t) => {
            table = t;
            let m = table.meta();
            let entry = games::find(&m.game)
                .map_or_else(|| m.entry.clone(), |g| g.entry_description(&table));
            (table.header(), m, table.storage(), entry)
        }
        Err(nimrod::table::TableError::Shipped { .. }) => {
            shipped = nimrod::table::ShippedTable::open(file)?;
            let m = shipped.meta();
            (shipped.header(), m, shipped_name(&shipped), m.entry.clone())
        }
        Err(e) => return Err(e.into()),
    };
    let answer = InfoAnswer {
        path: file.display().to_string(),
        entry,
        storage: storage.to_string(),
        format_version: h.version,
        entry_kind: h.entry_kind.name().to_string(),
        entries: h.entry_count,
        index: m.index.clone(),
        index_kind: format!("{:?}", h.index_kind),
        payload: PayloadSection {
            offset: h.payload.offset,
            bytes: h.payload.len,
        },
        param_hash: format!("{:016x}", h.param_hash),
        payload_checksum: format!("{:016x}", h.payload_checksum),
        meta: m.clone(),
    };
    show(json, &Answer::of(&answer));
    Ok(ExitCode::SUCCESS)
}

/// `nimrod info` of a long build's saved state: what it has solved so far.
fn checkpoint_info(file: &Path, json: bool) -> Result<ExitCode> {
    let path = file.display().to_string();
    if let Some(saved) = nimrod::games::grundy::read_saved(file)? {
        let answer = CheckpointAnswer {
            path,
            job: "grundy/values".to_string(),
            saved,
        };
        show(json, &Answer::of(&answer));
    } else if let Some(saved) = nimrod::games::octal::read_saved(file)? {
        let answer = OctalCheckpointAnswer {
            path,
            job: format!("octal/{}", saved.code),
            saved,
        };
        show(json, &Answer::of(&answer));
    } else {
        bail!(
            "{path}: not a saved state `nimrod info` can read (it reads those of grundy/values and of octal/CODE; the others are read by the build that resumes them)"
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn verify_one(p: &Path, depth: &games::VerifyDepth) -> Result<Option<games::VerifyNote>> {
    let t = match Table::open(p) {
        // A shipped table is verified as the raw table it restores to.
        Err(nimrod::table::TableError::Shipped { .. }) => {
            games::registry::restore_file(&nimrod::table::ShippedTable::open(p)?)?
        }
        other => other?,
    };
    t.verify()?;
    check_name(p, &t)?;
    let game = games::find(&t.meta().game)
        .with_context(|| format!("{}: table of unknown game {:?}", p.display(), t.meta().game))?;
    game.verify_deep(&t, depth)
        .with_context(|| format!("{} invariant", t.meta().game))
}

/// A table file must sit where its job writes it: its path ends with the job
/// id it records (`…/octal/0.77.nmt` holds octal/0.77), and that id with the
/// recorded parameters hashes to the header's parameter hash.
fn check_name(p: &Path, t: &Table) -> Result<()> {
    let Some(job) = &t.meta().job else {
        bail!("does not record which job wrote it (built by an older nimrod?); rebuild it with --force");
    };
    let name = p.to_string_lossy();
    let stem = name
        .strip_suffix(".nmt.zst")
        .or_else(|| name.strip_suffix(".nmt"))
        .unwrap_or(&name);
    let stem = stem.replace(std::path::MAIN_SEPARATOR, "/");
    ensure!(
        stem == job.id || stem.ends_with(&format!("/{}", job.id)),
        "holds the table of {}, but its file name says otherwise (renamed or swapped)",
        job.id
    );
    Ok(nimrod::table::check_identity(t, &job.id)?)
}

pub fn verify(
    paths: Vec<PathBuf>,
    data: &Path,
    json: bool,
    depth: &games::VerifyDepth,
) -> Result<ExitCode> {
    let roots = if paths.is_empty() {
        vec![data.to_path_buf()]
    } else {
        paths
    };
    let mut files = Vec::new();
    for r in roots {
        if r.is_dir() {
            files.extend(
                table_files(&r)?
                    .into_iter()
                    .filter(|p| !p.to_string_lossy().ends_with(".tmp")),
            );
        } else if r.exists() {
            files.push(r);
        } else {
            bail!("{}: no such file or directory", r.display());
        }
    }
    if files.is_empty() {
        bail!("no table files to verify");
    }
    let mut rows = Vec::new();
    for p in &files {
        let path = p.display().to_string();
        rows.push(match verify_one(p, depth) {
            Ok(note) => VerifyRow {
                path,
                ok: true,
                recheck_text: note.as_ref().map(|n| n.text.clone()),
                recheck: note.map(|n| n.json),
                error: None,
            },
            Err(e) => VerifyRow {
                path,
                ok: false,
                recheck: None,
                recheck_text: None,
                error: Some(format!("{e:#}")),
            },
        });
    }
    let bad = rows.iter().filter(|r| !r.ok).count();
    show(
        json,
        &Answer::of(&VerifyAnswer {
            ok: bad == 0,
            tables: rows,
        }),
    );
    Ok(if bad == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// Refuses to replace an existing output unless `force`.
fn refuse_overwrite(out: &Path, force: bool) -> Result<()> {
    if !force && std::fs::symlink_metadata(out).is_ok() {
        bail!(
            "{} already exists; pass --force to replace it",
            out.display()
        );
    }
    Ok(())
}

/// `nimrod pack`'s options (see its help).
pub struct PackOptions {
    pub level: i32,
    pub remove: bool,
    pub force: bool,
    pub frame_size: Option<u64>,
    pub seekable: bool,
    pub codec: Codec,
    pub wdl: bool,
}

pub fn pack(files: &[PathBuf], options: PackOptions, json: bool) -> Result<ExitCode> {
    let PackOptions {
        level,
        remove,
        force,
        frame_size,
        seekable,
        codec,
        wdl,
    } = options;
    if !(1..=22).contains(&level) {
        bail!("--level {level} is out of range (1 ..= 22)");
    }
    for f in files {
        // Packing a packed table made an unreadable FILE.zst.zst.
        if f.to_string_lossy().ends_with(".zst") {
            bail!(
                "{} is already packed; pack takes raw tables (.nmt)",
                f.display()
            );
        }
        let mut out = f.clone().into_os_string();
        out.push(".zst");
        refuse_overwrite(Path::new(&out), force)?;
    }
    let mut rows = Vec::new();
    for f in files {
        // Only a valid table is packed, so a packed file is never worse than its source.
        let t = Table::open(f)?;
        t.verify()?;
        ensure!(
            !t.storage().starts_with("packed"),
            "{} is already packed; pack takes raw tables (.nmt)",
            f.display()
        );
        let game = nimrod::games::find(&t.meta().game);
        let mut out = f.clone().into_os_string();
        out.push(".zst");
        let out = PathBuf::from(out);
        let shipped = game.filter(|_| !seekable).and_then(|g| {
            let block = frame_size.map_or(codec.default_block(), |n| n as usize);
            g.ship(&t, &out, block, codec, wdl)
        });
        ensure!(
            !wdl || shipped.is_some(),
            "{}: --wdl keeps win/draw/loss of chess tables; {} tables have no such form",
            f.display(),
            t.meta().game
        );
        // What the shipping form kept, or None for the zstd form.
        let (raw_len, packed_len, kept) = match shipped {
            Some(kept) => {
                let kept = kept.with_context(|| format!("{}: cannot pack", f.display()))?;
                drop(t);
                let lens = (std::fs::metadata(f)?.len(), std::fs::metadata(&out)?.len());
                (lens.0, lens.1, Some(kept))
            }
            None => {
                let frame = match frame_size {
                    Some(n) => n as usize,
                    None => game.map_or(DEFAULT_FRAME_SIZE, |g| g.packed_frame_size()),
                };
                drop(t);
                // Streamed and read back before it is renamed into place:
                // memory stays small whatever the table's size.
                let (raw_len, packed_len) = pack_file(f, &out, level, frame)
                    .with_context(|| format!("{}: cannot pack", f.display()))?;
                (raw_len, packed_len, None)
            }
        };
        if remove {
            std::fs::remove_file(f).with_context(|| format!("cannot remove {}", f.display()))?;
        }
        rows.push(PackRow {
            input: f.display().to_string(),
            output: out.display().to_string(),
            raw_bytes: raw_len,
            packed_bytes: packed_len,
            form: kept
                .as_ref()
                .map(|_| if wdl { "shipped-wdl" } else { "shipped" }),
            kept,
        });
    }
    show(json, &Answer::of(&PackAnswer(rows)));
    Ok(ExitCode::SUCCESS)
}

pub fn unpack(files: &[PathBuf], force: bool, json: bool) -> Result<ExitCode> {
    let mut rows = Vec::new();
    let output = |f: &PathBuf| -> Result<PathBuf> {
        let name = f.to_string_lossy();
        let Some(out) = name.strip_suffix(".zst") else {
            bail!("{}: expected a packed table ending in .zst", f.display());
        };
        Ok(PathBuf::from(out))
    };
    for f in files {
        refuse_overwrite(&output(f)?, force)?;
    }
    for f in files {
        let out = output(f)?;
        let raw_len = if is_shipped_file(f)? {
            unship(f, &out)?
        } else {
            unpack_checked(f, &out)?
        };
        rows.push(UnpackRow {
            input: f.display().to_string(),
            output: out.display().to_string(),
            raw_bytes: raw_len,
        });
    }
    show(json, &Answer::of(&UnpackAnswer(rows)));
    Ok(ExitCode::SUCCESS)
}

/// Unpacks `packed` to `out` through the table crate (streamed, checked
/// as a table before the rename); returns the raw length.
fn unpack_checked(packed: &Path, out: &Path) -> Result<u64> {
    Ok(nimrod::table::pack::unpack_file(packed, out)?)
}

/// Whether `f` starts like a shipped table.
fn is_shipped_file(f: &Path) -> Result<bool> {
    use std::io::Read;
    let mut head = [0u8; 8];
    let mut file =
        std::fs::File::open(f).with_context(|| format!("cannot open {}", f.display()))?;
    let n = file
        .read(&mut head)
        .with_context(|| format!("cannot read {}", f.display()))?;
    Ok(nimrod::table::shipped::is_shipped(&head[..n]))
}

/// Restores the raw table of the shipped `f` to `out` through its game;
/// the bytes are checked against the raw table's checksums first.
fn unship(f: &Path, out: &Path) -> Result<u64> {
    let s = nimrod::table::ShippedTable::open(f)?;
    Ok(s.restore(out, &games::registry::restored_payload(&s)?)?)
}
