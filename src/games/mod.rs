//! One module per game. Each owns its rules, indexing, solver and query.
//! Below the games: the traits a game implements (`game`), its typed error
//! (`error`) and the query plumbing (`query`); above them the registry, one
//! line per game (`registry`). A game imports the first three, never the
//! registry.
//!
//! Every game's query is a struct literal away. Build a small config's
//! tables (a fraction of a second), then ask each game:
//!
//! ```
//! use nimrod::games::*;
//! use nimrod::pipeline::{run_build, BuildOptions, Config};
//!
//! let data = tempfile::tempdir()?;
//! let config = Config::parse("example", r#"
//!     [octal]
//!     games = ["0.77"]
//!     bound = 100
//!     [half]
//!     bound = 100
//!     [gops]
//!     cards = 3
//!     win_cards = 1
//!     [ttt]
//!     all_boards_up_to = 3
//!     menace_runs = 1
//!     menace_games = 10
//!     [guessit]
//!     max_hand = 2
//!     [bridgit]
//!     sizes = [3]
//!     exhaustive_up_to = 3
//!     trees_exhaustive_up_to = 3
//!     random_games = 10
//!     [chess]
//!     pieces = [3]
//!     [grundy]
//!     bound = 100
//!     misere_bound = 10
//! "#)?;
//! let options = BuildOptions {
//!     data_dir: data.path().to_path_buf(),
//!     only: vec![],
//!     force: false,
//!     force_dependencies: false,
//!     threads: Some(1),
//!     shard: None,
//!     memory_budget: None,
//! };
//! assert!(run_build(&config, &planners(), &options)?.ok());
//! let ctx = QueryContext { data_dir: data.path().to_path_buf() };
//!
//! // Kayles (0.77): G(4) = 1.
//! let q = octal::OctalQuery { code: "0.77".into(), heap: 4 };
//! assert_eq!(octal::Octal.query(&q, &ctx)?.json()["value"], 1);
//!
//! let q = grundy::GrundyQuery { heap: 5, misere: false, all: false, lecture: false };
//! assert_eq!(grundy::Grundy.query(&q, &ctx)?.json()["value"], 2);
//!
//! let q = half::HalfQuery { pile: 10, last_loses: false };
//! assert_eq!(half::Half.query(&q, &ctx)?.json()["safe"], false);
//!
//! let q = nim::NimQuery { heaps: vec![1, 2, 3], k: 1, misere: false };
//! assert_eq!(nim::Nim.query(&q, &ctx)?.json()["safe"], true);
//!
//! // GOPS with 3 cards is symmetric: value 0.
//! let q = gops::GopsQuery {
//!     cards: 3,
//!     first_move: true,
//!     mine: vec![],
//!     theirs: vec![],
//!     prizes: vec![],
//!     upcard: None,
//!     objective: gops::Objective::Score,
//!     diff: 0,
//!     against: None,
//! };
//! assert_eq!(gops::Gops.query(&q, &ctx)?.json()["value"], 0.0);
//!
//! // Noughts and crosses is a draw.
//! let q = ttt::TttQuery {
//!     board: Some(".........".into()),
//!     size: "3x3".into(),
//!     k: None,
//!     first: vec![],
//!     second: vec![],
//!     fifteen: false,
//!     report: false,
//!     defensive: false,
//!     trials: 0,
//!     seed: 0,
//! };
//! assert_eq!(ttt::Ttt.query(&q, &ctx)?.json()["value"], 0);
//!
//! let q = guessit::GuessItQuery {
//!     mine: Some(1),
//!     theirs: Some(1),
//!     tables: None,
//!     compare: None,
//! };
//! println!("{}", guessit::GuessIt.query(&q, &ctx)?.text());
//!
//! // The first player's opening under the stored pairing.
//! let q = bridgit::BridgitQuery {
//!     size: 3,
//!     moves: String::new(),
//!     strategy: bridgit::StrategyKind::Pairing,
//!     table: false,
//! };
//! assert!(bridgit::Bridgit.query(&q, &ctx)?.json()["opening"].is_string());
//!
//! // King and queen against king: a win for the queen's side.
//! let q = chess::ChessQuery {
//!     fen: Some("8/8/8/8/8/2k5/8/KQ6 w - - 0 1".into()),
//!     fens: None,
//!     stats: None,
//!     sample: None,
//!     table: None,
//!     seed: 1,
//!     search: false,
//!     nodes: 5_000_000,
//!     depth: 64,
//! };
//! assert_eq!(chess::Chess.query(&q, &ctx)?.json()["wdl"], 1);
//!
//! // Klondike deals are solved on the spot when no table holds them.
//! let q = klondike::KlondikeQuery {
//!     deal: Some(klondike::cards::DealId::Ours(0)),
//!     draw: 1,
//!     redeal: "unlimited".into(),
//!     no_worry: false,
//!     variant: 0,
//!     samples: 64,
//!     budget: 20_000,
//!     report: false,
//! };
//! println!("{}", klondike::Klondike.query(&q, &ctx)?.text());
//! # Ok::<(), anyhow::Error>(())
//! ```

pub mod bridgit;
pub mod chess;
pub mod error;
pub mod game;
pub mod gops;
pub mod grundy;
pub mod guessit;
pub mod half;
pub mod klondike;
pub mod knight;
pub mod nim;
pub mod octal;
pub mod query;
pub mod registry;
pub mod ttt;

pub use error::{ErrorKind, GameError};
#[cfg(feature = "cli")]
pub use game::ask;
pub use game::{CommandLine, Game, PlayCommand, Plays, Queries, VerifyDepth, VerifyNote};
pub use query::{Answer, QueryContext, QueryError, Usage};
pub use registry::{find, names, planners, registry};
