//! The command line's own reports (`build`, `plan`, `list`, `info`,
//! `verify`, `pack`, `unpack`, `slurm`) as typed answers: each struct's `Display` is the text
//! and its `Serialize` the JSON (`Answer::of`), so the two cannot drift.

use nimrod::pipeline::{OnDisk, PlannedJob};
use serde::Serialize;
use std::fmt;

/// One job's line of a build.
#[derive(Serialize)]
pub struct BuildRow {
    pub job: String,
    pub state: &'static str,
    pub detail: String,
}

/// `nimrod build`.
#[derive(Serialize)]
pub struct BuildSummary {
    pub config: String,
    pub ok: bool,
    pub wall_seconds: f64,
    pub jobs: Vec<BuildRow>,
    pub removed_temporaries: Vec<String>,
}

impl fmt::Display for BuildSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in &self.jobs {
            writeln!(f, "{:<8} {:<24} {}", r.state, r.job, r.detail)?;
        }
        let count = |s: &str| self.jobs.iter().filter(|r| r.state == s).count();
        writeln!(
            f,
            "build {}: {} built, {} up to date, {} failed, in {:.2} s wall",
            if self.ok { "finished" } else { "FAILED" },
            count("built"),
            count("skipped"),
            count("failed") + count("not run"),
            self.wall_seconds
        )
    }
}

/// `nimrod plan`.
#[derive(Serialize)]
pub struct PlanAnswer {
    pub jobs: Vec<PlannedJob>,
}

/// "45 s", "12 min", "3.4 h".
pub fn duration(seconds: f64) -> String {
    if seconds < 90.0 {
        format!("{seconds:.0} s")
    } else if seconds < 5400.0 {
        format!("{:.0} min", seconds / 60.0)
    } else {
        format!("{:.1} h", seconds / 3600.0)
    }
}

/// What `nimrod plan --data` says a data directory holds of a job.
fn on_disk_line(on_disk: &OnDisk, estimate: Option<&nimrod::pipeline::Estimate>) -> String {
    match on_disk {
        OnDisk::Built => "on disk: built (a build skips it)".to_string(),
        OnDisk::Saved { path } => {
            format!("on disk: a saved state ({path}); a build goes on from it if it fits")
        }
        OnDisk::NotStarted { why: None } => "on disk: not started".to_string(),
        OnDisk::NotStarted { why: Some(why) } => format!("on disk: not started ({why})"),
        OnDisk::Started(r) => format!(
            "on disk: goes on from {}: {} of {} {} done{}",
            r.from,
            r.work_done,
            estimate.map_or(0, |e| e.work),
            estimate.map_or("units", |e| e.work_unit.as_str()),
            r.cpu_seconds_left
                .as_ref()
                .map_or(String::new(), |c| format!(
                    ", about {} of one core left ({} to {})",
                    duration(c.typical),
                    duration(c.low),
                    duration(c.high)
                ))
        ),
    }
}

impl fmt::Display for PlanAnswer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mb = |b: u64| b as f64 / 1e6;
        for j in &self.jobs {
            let size = match &j.estimate {
                Some(e) => format!(
                    "{} entries, {:.1} MB out, {:.1} MB memory, {} {}{}",
                    e.entries,
                    mb(e.output_bytes),
                    mb(e.memory_bytes),
                    e.work,
                    e.work_unit,
                    e.cpu_seconds.as_ref().map_or(String::new(), |c| format!(
                        ", about {} of one core ({} to {})",
                        duration(c.typical),
                        duration(c.low),
                        duration(c.high)
                    ))
                ),
                None => "no estimate".to_string(),
            };
            writeln!(
                f,
                "{:<28} {}  {}{}",
                j.id,
                if j.shardable {
                    "shardable"
                } else {
                    "whole    "
                },
                size,
                if j.deps.is_empty() {
                    String::new()
                } else {
                    format!("  after {}", j.deps.join(", "))
                }
            )?;
            if let Some(on_disk) = &j.on_disk {
                writeln!(
                    f,
                    "{:<28} {}",
                    "",
                    on_disk_line(on_disk, j.estimate.as_ref())
                )?;
            }
        }
        let known: Vec<_> = self
            .jobs
            .iter()
            .filter_map(|j| j.estimate.as_ref())
            .collect();
        writeln!(
            f,
            "{} jobs; {} with estimates: {:.1} MB of tables in all, the largest job {:.1} MB of memory",
            self.jobs.len(),
            known.len(),
            mb(known.iter().map(|e| e.output_bytes).sum()),
            mb(known.iter().map(|e| e.memory_bytes).max().unwrap_or(0)),
        )?;
        let timed: Vec<_> = known
            .iter()
            .filter_map(|e| e.cpu_seconds.as_ref())
            .collect();
        if let Some(first) = timed.first() {
            let sum =
                |g: fn(&&nimrod::pipeline::CpuSeconds) -> f64| timed.iter().map(g).sum::<f64>();
            writeln!(
                f,
                "{} jobs with measured costs: about {} of one core ({} to {}); e.g. {}",
                timed.len(),
                duration(sum(|c| c.typical)),
                duration(sum(|c| c.low)),
                duration(sum(|c| c.high)),
                timed
                    .iter()
                    .max_by(|a, b| a.typical.total_cmp(&b.typical))
                    .unwrap_or(first)
                    .basis
            )?;
        }
        if self.jobs.iter().any(|j| j.on_disk.is_some()) {
            let left: Vec<_> = self
                .jobs
                .iter()
                .filter(|j| j.on_disk != Some(OnDisk::Built))
                .collect();
            let cpu = |j: &PlannedJob| match &j.on_disk {
                Some(OnDisk::Started(r)) => r.cpu_seconds_left.clone(),
                _ => j.estimate.as_ref().and_then(|e| e.cpu_seconds.clone()),
            };
            let timed: Vec<_> = left.iter().filter_map(|j| cpu(j)).collect();
            writeln!(
                f,
                "left to build: {} of {} jobs ({} of them started); {} with measured costs: about {} of one core ({} to {})",
                left.len(),
                self.jobs.len(),
                left.iter()
                    .filter(|j| matches!(j.on_disk, Some(OnDisk::Started(_) | OnDisk::Saved { .. })))
                    .count(),
                timed.len(),
                duration(timed.iter().map(|c| c.typical).sum()),
                duration(timed.iter().map(|c| c.low).sum()),
                duration(timed.iter().map(|c| c.high).sum()),
            )?;
        }
        Ok(())
    }
}

/// One table's line of `nimrod list`.
#[derive(Serialize)]
pub struct ListRow {
    pub path: String,
    pub bytes: u64,
    pub state: String,
    pub entries: u64,
    pub detail: String,
}

/// `nimrod list`: a JSON array of rows.
#[derive(Serialize)]
#[serde(transparent)]
pub struct ListAnswer(pub Vec<ListRow>);

impl fmt::Display for ListAnswer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in &self.0 {
            writeln!(
                f,
                "{:<32} {:>12} B  {:<8} {:>12} entries  {}",
                r.path, r.bytes, r.state, r.entries, r.detail
            )?;
        }
        if self.0.is_empty() {
            writeln!(f, "no tables")?;
        }
        Ok(())
    }
}

/// One table's line of `nimrod verify`.
#[derive(Serialize)]
pub struct VerifyRow {
    pub path: String,
    pub ok: bool,
    /// What a deep check re-derived, as JSON.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recheck: Option<serde_json::Value>,
    /// The same, in one line for people.
    #[serde(skip)]
    pub recheck_text: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// `nimrod verify`.
#[derive(Serialize)]
pub struct VerifyAnswer {
    pub ok: bool,
    pub tables: Vec<VerifyRow>,
}

impl fmt::Display for VerifyAnswer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in &self.tables {
            match (&r.error, &r.recheck_text) {
                (Some(e), _) => {
                    // Table errors name the file already; say it once a line.
                    let short = e.strip_prefix(&format!("{}: ", r.path)).unwrap_or(e);
                    writeln!(f, "FAILED  {}: {short}", r.path)?;
                }
                (None, Some(note)) => writeln!(f, "ok      {}: {note}", r.path)?,
                (None, None) => writeln!(f, "ok      {}", r.path)?,
            }
        }
        let good = self.tables.iter().filter(|r| r.ok).count();
        writeln!(f, "{good} of {} tables verified", self.tables.len())
    }
}

/// One file of `nimrod pack`.
#[derive(Serialize)]
pub struct PackRow {
    pub input: String,
    pub output: String,
    pub raw_bytes: u64,
    pub packed_bytes: u64,
    /// `shipped` for a game's shipping form; absent for the zstd form.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub form: Option<&'static str>,
    /// What the shipping form kept.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kept: Option<String>,
}

/// `nimrod pack`: a JSON array of rows.
#[derive(Serialize)]
#[serde(transparent)]
pub struct PackAnswer(pub Vec<PackRow>);

impl fmt::Display for PackAnswer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in &self.0 {
            let ratio = r.raw_bytes as f64 / r.packed_bytes.max(1) as f64;
            match &r.kept {
                Some(kept) => writeln!(
                    f,
                    "shipped {} -> {}  {} -> {} bytes ({ratio:.2}x; {kept})",
                    r.input, r.output, r.raw_bytes, r.packed_bytes
                )?,
                None => writeln!(
                    f,
                    "packed  {} -> {}  {} -> {} bytes ({ratio:.2}x)",
                    r.input, r.output, r.raw_bytes, r.packed_bytes
                )?,
            }
        }
        Ok(())
    }
}

/// One file of `nimrod unpack`.
#[derive(Serialize)]
pub struct UnpackRow {
    pub input: String,
    pub output: String,
    pub raw_bytes: u64,
}

/// `nimrod unpack`: a JSON array of rows.
#[derive(Serialize)]
#[serde(transparent)]
pub struct UnpackAnswer(pub Vec<UnpackRow>);

impl fmt::Display for UnpackAnswer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in &self.0 {
            writeln!(
                f,
                "unpacked {} -> {} ({} bytes)",
                r.input, r.output, r.raw_bytes
            )?;
        }
        Ok(())
    }
}

/// Where a table's payload lies.
#[derive(Serialize)]
pub struct PayloadSection {
    pub offset: u64,
    pub bytes: u64,
}

/// `nimrod info FILE.checkpoint`: a saved state of a streaming Grundy solve.
#[derive(Serialize)]
pub struct CheckpointAnswer {
    pub path: String,
    pub job: String,
    #[serde(flatten)]
    pub saved: nimrod::games::grundy::SavedProgress,
}

impl fmt::Display for CheckpointAnswer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (p, s) = (&self.saved, &self.saved.stats);
        write!(
            f,
            "{}\n  saved state of {} (streaming, window {})\n  solved     heaps 0 .. {} (resumes at heap {})\n  largest    value {}, first at heap {}\n  rare       {} heaps with a rare value (heap 0 counted), the last at {}; {} rare values\n  zero       {} heaps of value 0, the last at {}\n  values     {} occur\n  step 2     {} splits tried, {} full scans\n",
            self.path,
            self.job,
            p.window,
            p.next_heap - 1,
            p.next_heap,
            s.max_value,
            s.max_value_first_heap,
            s.rare_count,
            s.last_rare_heap,
            p.rare_values,
            s.zero_count,
            s.last_zero_heap,
            s.first_heaps.len(),
            s.scan_steps,
            s.full_scans,
        )
    }
}

/// `nimrod info FILE.checkpoint`: a saved state of an octal sparse-space solve.
#[derive(Serialize)]
pub struct OctalCheckpointAnswer {
    pub path: String,
    pub job: String,
    #[serde(flatten)]
    pub saved: nimrod::games::octal::SavedOctal,
}

impl fmt::Display for OctalCheckpointAnswer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (p, s) = (&self.saved, &self.saved.stats);
        let rare = if s.dense {
            "none: the values are dense, every heap a full scan".to_string()
        } else if s.mask == 0 {
            "none yet (a mask is chosen from heap 1024 on)".to_string()
        } else {
            let kind = if s.domain { "domain" } else { "range" };
            let last = if s.rare_heaps == 0 {
                String::new()
            } else {
                format!(", the last at {}", s.last_rare_heap)
            };
            format!(
                "{} heaps under mask {} ({kind} kind){last}",
                s.rare_heaps, s.mask
            )
        };
        write!(
            f,
            "{}\n  saved state of {} (sparse space)\n  solved     heaps 0 .. {} (resumes at heap {})\n  largest    value {}, first at heap {}\n  rare       {rare}\n  zero       {} heaps of value 0, the last at {}\n  values     {} occur\n  step 2     {} splits tried, {} full scans, the longest {} at heap {}\n",
            self.path,
            self.job,
            p.next_heap - 1,
            p.next_heap,
            s.max_value,
            s.max_value_first_heap,
            s.zero_count,
            p.last_zero_heap,
            p.values,
            s.scanned_splits,
            s.full_scans,
            s.longest_scan,
            s.longest_scan_heap,
        )
    }
}

/// `nimrod info FILE`.
#[derive(Serialize)]
pub struct InfoAnswer {
    pub path: String,
    pub entry: String,
    pub storage: String,
    pub format_version: u32,
    pub entry_kind: String,
    pub entries: u64,
    pub index: String,
    pub index_kind: String,
    pub payload: PayloadSection,
    pub param_hash: String,
    pub payload_checksum: String,
    pub meta: nimrod::table::TableMeta,
}

impl fmt::Display for InfoAnswer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let m = &self.meta;
        let stats = compact_pretty(&m.stats, 0);
        write!(
            f,
            "{}\n  game       {} / {}\n  storage    {}\n  format     v{}\n  entries    {} × {} ({})\n  index      {} ({})\n  payload    {} bytes at {}\n  params     {} (hash {})\n  tool       nimrod {}\n  statistics {}\n",
            self.path,
            m.game,
            m.table,
            self.storage,
            self.format_version,
            self.entries,
            self.entry_kind,
            self.entry,
            m.index,
            self.index_kind,
            self.payload.bytes,
            self.payload.offset,
            m.params,
            self.param_hash,
            m.tool_version,
            stats.replace('\n', "\n             "),
        )
    }
}

/// Pretty JSON, except that an array of scalars or of flat objects (a
/// Grundy table's 222 first heaps, a list of heaps) takes a line an element
/// rather than a line a field.
fn compact_pretty(v: &serde_json::Value, indent: usize) -> String {
    use serde_json::Value;
    let flat = |v: &Value| match v {
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.values().all(|x| !x.is_array() && !x.is_object()),
        _ => true,
    };
    let pad = " ".repeat(indent + 2);
    match v {
        Value::Object(o) if !o.is_empty() => {
            let fields: Vec<String> = o
                .iter()
                .map(|(k, x)| {
                    format!(
                        "{pad}{}: {}",
                        Value::from(k.as_str()),
                        compact_pretty(x, indent + 2)
                    )
                })
                .collect();
            format!("{{\n{}\n{}}}", fields.join(",\n"), " ".repeat(indent))
        }
        Value::Array(a) if !a.is_empty() => {
            if a.iter().all(|x| !x.is_array() && !x.is_object()) {
                return v.to_string();
            }
            let items: Vec<String> = a
                .iter()
                .map(|x| {
                    if flat(x) {
                        format!("{pad}{x}")
                    } else {
                        format!("{pad}{}", compact_pretty(x, indent + 2))
                    }
                })
                .collect();
            format!("[\n{}\n{}]", items.join(",\n"), " ".repeat(indent))
        }
        _ => v.to_string(),
    }
}

/// A submitted script and its Slurm job id.
#[derive(Serialize)]
pub struct Submitted {
    pub script: String,
    pub id: u64,
}

/// `nimrod slurm`: the scripts written, and what was submitted and built
/// when asked to.
#[derive(Serialize)]
pub struct SlurmAnswer {
    pub scripts_dir: std::path::PathBuf,
    pub scripts: Vec<nimrod::pipeline::slurm::Script>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub submitted: Option<Vec<Submitted>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wall_seconds: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ok: Option<bool>,
    /// With `ok`: the tables not built (or not current).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub missing: Option<Vec<String>>,
    /// How many tables the run was to build.
    #[serde(skip)]
    pub tables: usize,
}

impl fmt::Display for SlurmAnswer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "wrote {} scripts and submit.sh to {}",
            self.scripts.len(),
            self.scripts_dir.display()
        )?;
        let Some(submitted) = &self.submitted else {
            return writeln!(
                f,
                "submit with: bash {}",
                self.scripts_dir.join("submit.sh").display()
            );
        };
        writeln!(f, "submitted {} Slurm jobs", submitted.len())?;
        let (Some(missing), Some(wall)) = (&self.missing, self.wall_seconds) else {
            return Ok(());
        };
        writeln!(
            f,
            "slurm run {}: {} of {} tables built and current, in {wall:.1} s wall{}",
            if missing.is_empty() {
                "finished"
            } else {
                "FAILED"
            },
            self.tables - missing.len(),
            self.tables,
            if missing.is_empty() {
                String::new()
            } else {
                format!(
                    "; missing: {} (logs in {})",
                    missing.join(", "),
                    self.scripts_dir.join("logs").display()
                )
            }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::compact_pretty;

    #[test]
    fn statistics_print_a_line_a_field_and_a_line_an_element_of_flat_lists() {
        let v = serde_json::json!({
            "bound": 20,
            "first_heaps": [{"heap": 0, "value": 0}, {"heap": 3, "value": 1}],
            "p_heaps": [0, 1, 2],
            "side": {"wins": 1, "deep": {"x": []}},
            "empty": []
        });
        let text = compact_pretty(&v, 0);
        assert_eq!(
            text,
            "{\n  \"bound\": 20,\n  \"empty\": [],\n  \"first_heaps\": [\n    {\"heap\":0,\"value\":0},\n    {\"heap\":3,\"value\":1}\n  ],\n  \"p_heaps\": [0,1,2],\n  \"side\": {\n    \"deep\": {\n      \"x\": []\n    },\n    \"wins\": 1\n  }\n}"
        );
        // Still JSON, the same document.
        assert_eq!(serde_json::from_str::<serde_json::Value>(&text).unwrap(), v);
    }
}
