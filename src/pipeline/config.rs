//! The build configuration: one TOML table per game, holding that game's
//! parameters. The default configuration is embedded in the binary.

use anyhow::{bail, Context, Result};
use std::path::Path;

pub const DEFAULT_CONFIG: &str = include_str!("../../config/default.toml");
/// `config/big.toml`, embedded so that a missing table's hint can say
/// whether it builds that table.
pub const BIG_CONFIG: &str = include_str!("../../config/big.toml");

#[derive(Debug, Clone)]
pub struct Config {
    /// Where the config came from, for error messages.
    pub source: String,
    /// Game sections in file order.
    pub sections: Vec<(String, toml::Table)>,
}

impl Config {
    pub fn embedded_default() -> Result<Config> {
        Config::parse("config/default.toml (embedded)", DEFAULT_CONFIG)
    }

    pub fn load(path: &Path) -> Result<Config> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read config {}", path.display()))?;
        Config::parse(&path.display().to_string(), &text)
    }

    pub fn parse(source: &str, text: &str) -> Result<Config> {
        let doc: toml::Table =
            toml::from_str(text).with_context(|| format!("{source}: invalid TOML"))?;
        let mut sections = Vec::new();
        for (name, value) in doc {
            let toml::Value::Table(t) = value else {
                bail!("{source}: top-level key `{name}` must be a table ([{name}])");
            };
            sections.push((name, t));
        }
        Ok(Config {
            source: source.to_string(),
            sections,
        })
    }
}

/// Deserialises one game's section, naming the config and the game on error
/// (unknown keys included, via `deny_unknown_fields` on the game's struct).
pub fn game_params<T: serde::de::DeserializeOwned>(
    source: &str,
    game: &str,
    section: &toml::Table,
) -> Result<T> {
    section
        .clone()
        .try_into()
        .map_err(|e| anyhow::anyhow!("{source}: [{game}]: {}", e.to_string().trim()))
}
