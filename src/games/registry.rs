//! The list of games, and what only the list can know: which game a table
//! belongs to, and the command that builds a table (by planning the configs
//! that ship). Nothing inside a game imports this file.

use super::error::{ErrorKind, GameError};
use super::game::CommandLine;
use super::{bridgit, chess, gops, grundy, guessit, half, klondike, knight, nim, octal, ttt};
use crate::pipeline::Planner;
use crate::table::TableError;
use anyhow::Result;
use std::path::Path;

static REGISTRY: &[&dyn CommandLine] = &[
    &grundy::Grundy,
    &gops::Gops,
    &octal::Octal,
    &nim::Nim,
    &half::Half,
    &ttt::Ttt,
    &guessit::GuessIt,
    &bridgit::Bridgit,
    &chess::Chess,
    &klondike::Klondike,
    &knight::Knight,
];

/// Every game, in the order `nimrod query list` shows them.
pub fn registry() -> &'static [&'static dyn CommandLine] {
    REGISTRY
}

/// The game called `name` (`grundy`, `chess`, …).
pub fn find(name: &str) -> Option<&'static dyn CommandLine> {
    REGISTRY.iter().copied().find(|g| g.name() == name)
}

/// Every game as the pipeline's planner, for `run_build`; a game that
/// builds nothing refuses its config section, saying so.
pub fn planners() -> Vec<&'static dyn Planner> {
    static PLANLESS: std::sync::OnceLock<Vec<NothingToBuild>> = std::sync::OnceLock::new();
    let planless = PLANLESS.get_or_init(|| {
        REGISTRY
            .iter()
            .filter(|g| g.planner().is_none())
            .map(|g| NothingToBuild(g.name()))
            .collect()
    });
    REGISTRY
        .iter()
        .map(|&g| match g.planner() {
            Some(p) => p,
            None => planless
                .iter()
                .find(|p| p.0 == g.name())
                .expect("every planless game has one") as &dyn Planner,
        })
        .collect()
}

/// The planner of a game that is answered without tables (Nim, the
/// knight's tour): its config section is an error that says so.
struct NothingToBuild(&'static str);

impl Planner for NothingToBuild {
    fn name(&self) -> &'static str {
        self.0
    }

    fn plan(&self, source: &str, _section: &toml::Table) -> Result<Vec<crate::pipeline::Job>> {
        anyhow::bail!(
            "{source}: [{0}] has nothing to build: {0} is answered without tables (nimrod query {0} …)",
            self.0
        )
    }
}

/// Every game's name.
pub fn names() -> Vec<&'static str> {
    REGISTRY.iter().map(|g| g.name()).collect()
}

/// `e` with what to do about it: for a missing table, where else to look
/// and the command that builds it; for a damaged one under `data_dir`, the
/// command that rebuilds it.
pub fn with_hint(e: GameError, data_dir: &Path) -> GameError {
    if e.hint().is_some() {
        return e;
    }
    if let Some(n) = e.no_table_for() {
        let hint = match n.ids.iter().find(|id| shipped_config_of(id).is_some()) {
            Some(id) => missing_hint(&n.data_dir, id),
            None => n.otherwise.clone(),
        };
        return e.with_hint(hint);
    }
    let hint = match (e.kind(), e.table_error()) {
        (ErrorKind::TableMissing, Some(TableError::Missing { id, data_dir, .. })) => {
            Some(missing_hint(data_dir, id))
        }
        (ErrorKind::TableDamaged, Some(t)) => damaged_id(t, data_dir).map(|id| {
            format!(
                "rebuild it: nimrod build {}--force --only {id} --data {}",
                shipped_config_of(&id)
                    .flatten()
                    .map(|n| format!("--config {n} "))
                    .unwrap_or_default(),
                data_dir.display()
            )
        }),
        _ => None,
    };
    match hint {
        Some(h) => e.with_hint(h),
        None => e,
    }
}

/// The job id of a damaged table file under `data_dir` (its path there,
/// less `.nmt` and a packing suffix).
fn damaged_id(t: &TableError, data_dir: &Path) -> Option<String> {
    let path = match t {
        TableError::Corrupt { path, .. }
        | TableError::Truncated { path, .. }
        | TableError::Identity { path, .. }
        | TableError::Version { path, .. }
        | TableError::Foreign { path } => path,
        _ => return None,
    };
    let rel = path.strip_prefix(data_dir).ok()?.to_str()?;
    let id = rel.trim_end_matches(".zst").strip_suffix(".nmt")?;
    Some(id.replace(std::path::MAIN_SEPARATOR, "/"))
}

/// The whole payload of a shipped table, restored by the game whose table
/// it is (unchecked: `ShippedTable::restore_table` and `restore` check it).
pub fn restored_payload(s: &crate::table::ShippedTable) -> Result<Vec<u8>> {
    let game = find(&s.meta().game).ok_or_else(|| {
        anyhow::anyhow!("{}: no game named {}", s.path().display(), s.meta().game)
    })?;
    super::query::restored_payload(s, &|s| game.restore(s))
}

/// The raw table of an open shipped file, restored by its own game and
/// checked against the raw table's checksums.
pub fn restore_file(s: &crate::table::ShippedTable) -> Result<crate::table::Table> {
    Ok(s.restore_table(&restored_payload(s)?)?)
}

/// The shipped config whose plan has job `id`: `Some(None)` for the
/// embedded default, `Some(Some("config/big.toml"))`, or None.
pub fn shipped_config_of(id: &str) -> Option<Option<&'static str>> {
    let shipped = [
        (None, crate::pipeline::DEFAULT_CONFIG),
        (Some("config/big.toml"), crate::pipeline::config::BIG_CONFIG),
    ];
    shipped.into_iter().find_map(|(name, text)| {
        crate::pipeline::Config::parse(name.unwrap_or("default"), text)
            .map_err(anyhow::Error::from)
            .and_then(|c| crate::pipeline::plan(&c, &planners()))
            .is_ok_and(|jobs| jobs.iter().any(|j| j.id == id))
            .then_some(name)
    })
}

/// What to do about a table that is not in `data_dir`: look elsewhere, or
/// build it (see `build_hint`).
pub fn missing_hint(data_dir: &Path, id: &str) -> String {
    format!(
        "if the tables are elsewhere, say where with --data DIR or NIMROD_DATA=DIR; {}",
        build_hint(data_dir, id)
    )
}

/// The command that builds table `id`, found by planning the configs that
/// ship with nimrod: the embedded default first, then `config/big.toml`.
/// A table neither builds is said to need a config of its own.
pub fn build_hint(data_dir: &Path, id: &str) -> String {
    if let Some(config) = shipped_config_of(id) {
        return format!(
            "to build it: nimrod build {}--only {id} --data {}",
            config.map(|n| format!("--config {n} ")).unwrap_or_default(),
            data_dir.display()
        );
    }
    let game = id.split('/').next().unwrap_or(id);
    format!(
        "no shipped config builds {id}: add it to the [{game}] section of a config (see config/big.toml) and run nimrod build --config FILE --only {id} --data {}",
        data_dir.display()
    )
}
