//! Grundy's game: split one heap into two unequal heaps. Normal play by the
//! sparse-space method (values table + perfect-hashed table of rare heaps),
//! misère play by exhaustive search over multisets (single-heap table).

pub mod block;
mod crew;
pub mod driver;
pub mod misere;
pub mod naive;
pub mod rare;
pub mod search;
pub mod sparse;
pub mod stats;
mod targets;
pub mod values;

use super::query::{from_matches, open_table, Answer, QueryContext};
use super::Game;
use crate::pipeline::config::game_params;
use crate::pipeline::{Job, JobContext, Planner};
use crate::table::writer::{write_hashed, write_ranked};
use crate::table::{EntryKind, Table, TableMeta, TableWriter};
use anyhow::{bail, ensure, Context, Result};
use rare::is_rare_value;
use serde::{Deserialize, Serialize};
use serde_json::json;
use stats::GrundyStats;

/// Bumped whenever the solver's output could change; part of the parameter hash.
const SOLVER_VERSION: u32 = 2;
/// Heaps cross-checked against the naive mex by `nimrod verify`.
const VERIFY_NAIVE_HEAPS: u64 = 20_000;

pub struct Grundy;

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GrundyParams {
    /// Largest heap whose value is computed.
    pub bound: u64,
    /// How the values are held while they are computed.
    #[serde(default)]
    pub mode: Mode,
    #[serde(default = "default_window")]
    pub window: u64,
    /// Largest single heap solved in misère play.
    #[serde(default = "default_misere_bound")]
    pub misere_bound: u64,
}

/// `mode` in `[grundy]`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Every value in memory (2 bytes a heap).
    #[default]
    Full,
    /// Two windows of `window` values; values are written as they come.
    Streaming,
}
fn default_window() -> u64 {
    1 << 20
}
fn default_misere_bound() -> u64 {
    70
}

impl Planner for Grundy {
    fn name(&self) -> &'static str {
        "grundy"
    }
    fn plan(&self, source: &str, section: &toml::Table) -> Result<Vec<Job>> {
        let p: GrundyParams = game_params(source, "grundy", section)?;
        ensure!(
            p.bound >= 3 && p.bound < (1u64 << 40),
            "{source}: [grundy] bound = {} is out of range (3 ..= 2^40 - 1)",
            p.bound
        );
        ensure!(
            p.misere_bound <= misere::MAX_HEAP,
            "{source}: [grundy] misere_bound = {} is out of range (0 ..= {})",
            p.misere_bound,
            misere::MAX_HEAP
        );
        let solver = SOLVER_VERSION;
        let job = ValuesJob {
            bound: p.bound,
            mode: p.mode,
            window: p.window,
            solver,
        };
        let table = ValuesTable {
            bound: p.bound,
            solver,
        };
        let values = Job {
            id: "grundy/values".into(),
            deps: vec![],
            params: serde_json::to_value(job)?,
            run: Box::new(move |ctx| build_values(ctx, &job)),
            parts: None,
        };
        let rare = Job {
            id: "grundy/rare".into(),
            deps: vec!["grundy/values".into()],
            params: serde_json::to_value(&table)?,
            run: Box::new(build_rare),
            parts: None,
        };
        let mb = p.misere_bound;
        let misere = Job {
            id: "grundy/misere".into(),
            deps: vec![],
            params: serde_json::to_value(MisereJob {
                misere_bound: mb,
                solver,
            })?,
            run: Box::new(move |ctx| build_misere(ctx, mb)),
            parts: None,
        };
        Ok(vec![values, rare, misere])
    }
}

impl Game for Grundy {
    fn summary(&self) -> &'static str {
        "Grundy's game: Sprague-Grundy values (normal play), single-heap outcomes (misère)"
    }

    fn query_command(&self) -> clap::Command {
        <GrundyQuery as clap::CommandFactory>::command()
    }

    fn query(&self, args: &clap::ArgMatches, ctx: &QueryContext) -> Result<Answer> {
        let q: GrundyQuery = from_matches(args)?;
        if q.misere {
            query_misere(q.heap, ctx)
        } else {
            query_normal(q.heap, q.all, ctx)
        }
    }

    fn verify(&self, table: &Table) -> Result<()> {
        match table.meta().table.as_str() {
            "values" => verify_values(table),
            "rare" => verify_rare(table),
            "misere" => verify_misere(table),
            other => bail!("unknown grundy table {other:?}"),
        }
    }
}

#[derive(clap::Parser)]
#[command(
    after_help = "Examples:\n  nimrod query grundy 1000000\n  nimrod query grundy 1000000 --all --json\n  nimrod query grundy 20 --misere"
)]
#[command(about = "Grundy's game: value of a heap and its winning splits")]
struct GrundyQuery {
    /// Heap size.
    heap: u64,
    /// Misère play (the player who cannot move wins).
    #[arg(long)]
    misere: bool,
    /// List every winning split, not only the first 20.
    #[arg(long)]
    all: bool,
}

/// The parameters of the `grundy/values` job (hashed into its table's header).
#[derive(Serialize, Clone, Copy)]
struct ValuesJob {
    bound: u64,
    mode: Mode,
    window: u64,
    solver: u32,
}

/// The parameters recorded in the values table (and hashed for the rare
/// table): the mode and window change how the values are computed, not
/// which values they are.
#[derive(Serialize)]
struct ValuesTable {
    bound: u64,
    solver: u32,
}

/// The parameters of the `grundy/misere` job and its table.
#[derive(Serialize)]
struct MisereJob {
    misere_bound: u64,
    solver: u32,
}

fn build_values(ctx: &JobContext, job: &ValuesJob) -> Result<()> {
    let bound = job.bound;
    let params = serde_json::to_value(ValuesTable {
        bound,
        solver: job.solver,
    })?;
    let stage = ctx.progress.stage(ctx.id, "sparse-space values", bound + 1);
    let meta = |stats: &GrundyStats| {
        TableMeta::new(
            "grundy",
            "values",
            params.clone(),
            "heap-size",
            "u16 Sprague-Grundy value G(n) of a heap of n",
            json!(stats),
        )
        .stamped(ctx.stamp())
    };
    if job.mode == Mode::Streaming {
        let mut w = TableWriter::create(&ctx.output, EntryKind::U16)?;
        let stats = driver::stream(bound, job.window, |chunk| {
            stage.inc(chunk.len() as u64);
            Ok(w.write_entries(chunk)?)
        })?;
        w.finish(&meta(&stats), ctx.param_hash)?;
    } else {
        let (g, stats) = driver::values(bound, |k| stage.inc(k))?;
        write_ranked(&ctx.output, &g, &meta(&stats), ctx.param_hash)?;
    }
    stage.finish();
    Ok(())
}

/// Visits the values table in chunks (works for raw and packed tables).
fn for_each_value(t: &Table, mut f: impl FnMut(u64, u16)) -> Result<()> {
    const CHUNK: u64 = 1 << 20;
    let mut start = 0;
    while start < t.len() {
        let n = CHUNK.min(t.len() - start);
        for (i, v) in t.read_range::<u16>(start, n)?.into_iter().enumerate() {
            f(start + i as u64, v);
        }
        start += n;
    }
    Ok(())
}

fn build_rare(ctx: &JobContext) -> Result<()> {
    let stage = ctx.progress.stage(ctx.id, "rare heaps", 1);
    let values = ctx.open("grundy/values")?;
    let (mut keys, mut vals) = (Vec::new(), Vec::new());
    for_each_value(&values, |n, v| {
        if is_rare_value(v) {
            keys.push(n);
            vals.push(v);
        }
    })?;
    let stats =
        json!({"rare_count": keys.len(), "last_rare_heap": keys.last(), "bound": values.len() - 1});
    write_hashed(
        &ctx.output,
        &keys,
        &vals,
        &TableMeta::new(
            "grundy",
            "rare",
            values.meta().params.clone(),
            "perfect-hash",
            "u16 value of a heap whose value is rare (even parity of bits above the lowest); key = heap size",
            stats,
        ).stamped(ctx.stamp()),
        ctx.param_hash,
    )?;
    stage.inc(1);
    stage.finish();
    Ok(())
}

fn build_misere(ctx: &JobContext, bound: u64) -> Result<()> {
    let stage = ctx.progress.stage(ctx.id, "misère search", bound + 1);
    let mut solver = misere::MisereSolver::new();
    let mut entries = Vec::new();
    let mut p_heaps = Vec::new();
    for n in 0..=bound {
        let (win, split) = solver.single_heap(n as u8);
        if !win {
            p_heaps.push(n);
        }
        entries.push(misere::encode(win, split));
        stage.inc(1);
    }
    let stats = json!({
        "bound": bound,
        "p_heaps": p_heaps,
        "multisets_solved": solver.positions_solved(),
    });
    write_ranked(
        &ctx.output,
        &entries,
        &TableMeta::new(
            "grundy",
            "misere",
            ctx.params.clone(),
            "heap-size",
            "u32: 0 = P-position; bit 31 = player to move wins, low bits = smaller part of a winning split (0: no move exists)",
            stats,
        ).stamped(ctx.stamp()),
        ctx.param_hash,
    )?;
    stage.finish();
    Ok(())
}

fn heap_in_table(t: &Table, heap: u64, what: &str) -> Result<()> {
    if heap >= t.len() {
        bail!(
            "heap {heap} is beyond the {what} table (bound {}); raise the bound in the config and rebuild",
            t.len().saturating_sub(1)
        );
    }
    Ok(())
}

fn query_normal(heap: u64, all: bool, ctx: &QueryContext) -> Result<Answer> {
    let t = open_table(&ctx.data_dir, "grundy/values")?;
    heap_in_table(&t, heap, "grundy/values")?;
    let g = t.view::<u16>(0, heap + 1)?;
    let value = g[heap as usize];
    let splits: Vec<(u64, u64)> = (1..heap.div_ceil(2))
        .filter(|&a| g[a as usize] == g[(heap - a) as usize])
        .map(|a| (a, heap - a))
        .collect();
    let rare_table = open_table(&ctx.data_dir, "grundy/rare").ok();
    let rare = match &rare_table {
        Some(r) => {
            let stored = r.get_by_key::<u16>(heap)?;
            ensure!(
                stored.is_none_or(|v| v == value) && stored.is_some() == is_rare_value(value),
                "grundy/rare and grundy/values disagree at heap {heap}; run nimrod verify"
            );
            stored.is_some()
        }
        None => is_rare_value(value),
    };
    Ok(Answer::of(&NormalAnswer {
        game: "grundy",
        play: "normal",
        heap,
        value,
        outcome: if value == 0 { "P" } else { "N" },
        rare,
        winning_splits: splits.iter().map(|&(a, b)| [a, b]).collect(),
        list_all: all,
    }))
}

/// `nimrod query grundy HEAP`.
#[derive(Serialize)]
struct NormalAnswer {
    game: &'static str,
    play: &'static str,
    heap: u64,
    value: u16,
    /// "P": the previous player wins; "N": the next player wins.
    outcome: &'static str,
    rare: bool,
    /// Every split to a zero position (the text shows the first 20).
    winning_splits: Vec<[u64; 2]>,
    #[serde(skip)]
    list_all: bool,
}

impl std::fmt::Display for NormalAnswer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (heap, value) = (self.heap, self.value);
        write!(
            f,
            "Grundy's game, heap {heap}, normal play\n  value    G({heap}) = {value}\n  outcome  {} ({})\n  class    {}\n",
            self.outcome,
            if value == 0 { "previous player wins" } else { "next player wins" },
            if self.rare { "rare (even parity above the lowest bit)" } else { "common" }
        )?;
        if value == 0 {
            return writeln!(f, "  no split reaches a zero position");
        }
        let splits = &self.winning_splits;
        writeln!(f, "  winning splits (to a zero position): {}", splits.len())?;
        let shown = if self.list_all {
            splits.len()
        } else {
            splits.len().min(20)
        };
        for [a, b] in &splits[..shown] {
            writeln!(f, "    {heap} -> {a} + {b}")?;
        }
        if shown < splits.len() {
            writeln!(f, "    … {} more (--all lists them)", splits.len() - shown)?;
        }
        Ok(())
    }
}

fn query_misere(heap: u64, ctx: &QueryContext) -> Result<Answer> {
    let t = open_table(&ctx.data_dir, "grundy/misere")?;
    heap_in_table(&t, heap, "grundy/misere")?;
    let (win, split) = misere::decode(t.get::<u32>(heap)?);
    ensure!(
        split.is_none_or(|a| a >= 1 && 2 * a < heap),
        "{}: heap {heap} stores the impossible split {split:?}; run nimrod verify",
        t.path().display()
    );
    Ok(Answer::of(&MisereAnswer {
        game: "grundy",
        play: "misere",
        heap,
        outcome: if win { "N" } else { "P" },
        winning_split: split.map(|a| [a, heap - a]),
    }))
}

/// `nimrod query grundy HEAP --misere`.
#[derive(Serialize)]
struct MisereAnswer {
    game: &'static str,
    play: &'static str,
    heap: u64,
    /// "N": the player to move wins; "P": the player to move loses.
    outcome: &'static str,
    winning_split: Option<[u64; 2]>,
}

impl std::fmt::Display for MisereAnswer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let heap = self.heap;
        writeln!(f, "Grundy's game, heap {heap}, misère play")?;
        writeln!(f, "  outcome  {}", self.outcome)?;
        match (self.outcome, self.winning_split) {
            ("P", _) => writeln!(f, "  every split loses"),
            (_, None) => writeln!(
                f,
                "  no move is possible, so the player to move has already won"
            ),
            (_, Some([a, b])) => writeln!(f, "  winning split {heap} -> {a} + {b}"),
        }
    }
}

fn verify_values(t: &Table) -> Result<()> {
    let stored: GrundyStats = serde_json::from_value(t.meta().stats.clone())
        .context("grundy/values statistics are malformed")?;
    let check = (t.len()).min(VERIFY_NAIVE_HEAPS + 1);
    let naive = naive::values(check as usize - 1);
    let head = t.read_range::<u16>(0, check)?;
    if let Some(n) = (0..check as usize).find(|&i| naive[i] != head[i]) {
        bail!(
            "G({n}) = {} in the table, the naive mex gives {}",
            head[n],
            naive[n]
        );
    }
    let mut s = GrundyStats {
        scan_steps: stored.scan_steps,
        full_scans: stored.full_scans,
        ..Default::default()
    };
    for_each_value(t, |n, v| {
        s.bound = n;
        if v > s.max_value || n == 0 {
            s.max_value = v;
            s.max_value_first_heap = n;
        }
        if v == 0 {
            s.zero_count += 1;
            s.last_zero_heap = n;
        }
        if is_rare_value(v) {
            s.rare_count += 1;
            s.last_rare_heap = n;
        }
    })?;
    ensure!(
        s == stored,
        "statistics {stored:?} do not match the values ({s:?})"
    );
    Ok(())
}

fn verify_rare(t: &Table) -> Result<()> {
    for slot in 0..t.len() {
        let v = t.get::<u16>(slot)?;
        ensure!(
            is_rare_value(v),
            "heap {} stored as rare with common value {v}",
            t.key_at(slot)?
        );
    }
    Ok(())
}

fn verify_misere(t: &Table) -> Result<()> {
    let mut solver = misere::MisereSolver::new();
    for n in 0..t.len() {
        let expect = solver.single_heap(n as u8);
        let got = misere::decode(t.get::<u32>(n)?);
        ensure!(
            got.0 == expect.0 && got.1 == expect.1.map(u64::from),
            "misère heap {n}: table says {got:?}, search says {expect:?}"
        );
    }
    Ok(())
}
