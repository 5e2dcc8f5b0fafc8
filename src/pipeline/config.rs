//! The build configuration: one TOML table per game, holding that game's
//! parameters. The default configuration is embedded in the binary.

use anyhow::Result;
use std::path::Path;

/// `config/default.toml`, embedded: what `nimrod build` builds without `--config`.
pub const DEFAULT_CONFIG: &str = include_str!("../../config/default.toml");
/// `config/big.toml`, embedded so that a missing table's hint can say
/// whether it builds that table.
pub const BIG_CONFIG: &str = include_str!("../../config/big.toml");

#[derive(Debug, Clone)]
/// A build configuration: one section per game, checked by that game's planner.
pub struct Config {
    /// Where the config came from, for error messages.
    pub source: String,
    /// Game sections in file order.
    pub sections: Vec<(String, toml::Table)>,
}

impl Config {
    /// The configuration embedded in the binary (`config/default.toml`).
    pub fn embedded_default() -> Result<Config, ConfigError> {
        Config::parse("config/default.toml (embedded)", DEFAULT_CONFIG)
    }

    /// Reads and parses a config file.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|error| ConfigError::Read {
            path: path.to_path_buf(),
            error,
        })?;
        Config::parse(&path.display().to_string(), &text)
    }

    /// Parses a config's text; `source` names it in errors. Only the shape
    /// is checked here (every top-level key a table); each game's planner
    /// checks its own section.
    pub fn parse(source: &str, text: &str) -> Result<Config, ConfigError> {
        let doc: toml::Table = toml::from_str(text).map_err(|error| ConfigError::Toml {
            config: source.to_string(),
            error,
        })?;
        let mut sections = Vec::new();
        for (name, value) in doc {
            let toml::Value::Table(t) = value else {
                return Err(ConfigError::NotATable {
                    config: source.to_string(),
                    key: name,
                });
            };
            sections.push((name, t));
        }
        Ok(Config {
            source: source.to_string(),
            sections,
        })
    }
}

/// A config that cannot be read or does not have the shape of one.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file could not be read.
    #[error("cannot read config {}", path.display())]
    Read {
        /// The file.
        path: std::path::PathBuf,
        #[source]
        /// Why it could not be read.
        error: std::io::Error,
    },
    /// The text is not TOML.
    #[error("{config}: invalid TOML")]
    Toml {
        /// The config's name.
        config: String,
        #[source]
        /// What the TOML parser found.
        error: toml::de::Error,
    },
    /// A top-level key is a value, not a game's table.
    #[error("{config}: top-level key `{key}` must be a table ([{key}])")]
    NotATable {
        /// The config's name.
        config: String,
        /// The key.
        key: String,
    },
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
