//! `nimrod query klondike --deal N`: the deal, the greedy player's game and
//! the solver's verdict; `--report` prints the batch report. `nimrod play
//! klondike --deal N` plays a deal with the greedy player as the hint key.

use super::cards::DealId;
use super::greedy::{self, Player};
use super::nopeek::{self, NoPeek, MAX_SAMPLES};
use super::nopeek_games;
use super::parse_rules;
use super::records::{self, ReportStats};
use super::seeds::SeedStats;
use super::solver;
use super::state::{Move, Rules, State};
use super::verdict::Verdict;
use crate::games::query::{open_table, Answer, QueryContext};
use anyhow::Result;
use serde::Serialize;

#[cfg_attr(feature = "cli", derive(clap::Parser))]
#[cfg_attr(feature = "cli", command(
    after_help = "Examples:\n  nimrod query klondike --report\n  nimrod query klondike --deal 3\n  nimrod query klondike --deal 3 --draw 3 --redeal unlimited\n  nimrod query klondike --deal solvitaire:22 --draw 1"
))]
#[cfg_attr(feature = "cli", command(about = "Klondike: a deal with the greedy player's game and the solver's verdict"))]
/// The arguments of `nimrod query klondike` (a library caller fills it in).
#[derive(Clone, Debug, PartialEq)]
pub struct KlondikeQuery {
    /// Deal: our number N (the shuffle in cards.rs), or solvitaire:S for
    /// Solvitaire's seed S.
    #[cfg_attr(feature = "cli", arg(long))]
    pub deal: Option<DealId>,
    /// Cards dealt from the stock at a time: 1 or 3.
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 1))]
    pub draw: u8,
    /// Stock passes: none, unlimited or a number.
    #[cfg_attr(feature = "cli", arg(long, default_value = "unlimited"))]
    pub redeal: String,
    /// Forbid worrying back (a card coming back from its foundation).
    #[cfg_attr(feature = "cli", arg(long))]
    pub no_worry: bool,
    /// Greedy player 0..7: classic shortest/late, longest/late,
    /// shortest/early, longest/early; 4 (seed) the seed's list ported
    /// literally, our earlier reading of Gruber's player; 5 (strong) the
    /// strong priority list; 6 (gruber) Gruber's next_move() as written,
    /// one pass through the deck; 7 (gruber-turned-over) the same with the
    /// stack turned over when the deck is empty; nopeek the no-peek
    /// search player (`--samples` a decision), which sees no hidden card.
    #[cfg_attr(feature = "cli", arg(long, default_value = "0", value_parser = greedy::parse_player))]
    pub variant: usize,
    /// Samples of the unseen cards a decision, for `--variant nopeek`
    /// (1 ..= 4096).
    #[cfg_attr(feature = "cli", arg(long, default_value_t = DEFAULT_PLAY_SAMPLES))]
    pub samples: u32,
    /// Positions (classes) the solver may store before answering unknown
    /// (at most 10^9: it keeps 10 to 12.5 bytes a class).
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 20_000_000))]
    pub budget: u64,
    /// Print the batch report instead (every rule set and player the
    /// build covered: the deal, rule, player and budget options do not
    /// apply to it and are refused beside it).
    #[cfg_attr(
        feature = "cli",
        arg(long, conflicts_with_all = ["deal", "draw", "redeal", "no_worry", "variant", "samples", "budget"])
    )]
    pub report: bool,
}

/// The command line's defaults, so that a library caller's
/// `KlondikeQuery { .., ..Default::default() }` asks what the command would.
impl Default for KlondikeQuery {
    fn default() -> Self {
        KlondikeQuery {
            deal: None,
            draw: 1,
            redeal: "unlimited".into(),
            no_worry: false,
            variant: 0,
            samples: DEFAULT_PLAY_SAMPLES,
            budget: 20_000_000,
            report: false,
        }
    }
}

/// The largest `--budget`: about 12 GB of positions seen.
pub const MAX_BUDGET: u64 = 1_000_000_000;

/// The arguments of `nimrod play klondike`: the deal and rules, as the
/// query takes them.
#[cfg_attr(feature = "cli", derive(clap::Parser))]
#[cfg_attr(feature = "cli", command(
    about = "Play a Klondike deal yourself, with a player's move as a hint (a greedy player, or the no-peek search)",
    after_help = "Examples:\n  nimrod play klondike --deal 42\n  nimrod play klondike --deal 7 --draw 3\n  nimrod play klondike --deal 7 --draw 3 --variant nopeek\n\nA move number plays that move; 'hint' shows the player's move, 'greedy' plays it, 'quit' ends the game."
))]
#[derive(Clone, Debug, PartialEq)]
pub struct KlondikePlay {
    /// Deal: our number N (the shuffle in cards.rs), or solvitaire:S for
    /// Solvitaire's seed S.
    #[cfg_attr(feature = "cli", arg(long))]
    pub deal: Option<DealId>,
    /// Cards dealt from the stock at a time: 1 or 3.
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 1))]
    pub draw: u8,
    /// Stock passes: none, unlimited or a number.
    #[cfg_attr(feature = "cli", arg(long, default_value = "unlimited"))]
    pub redeal: String,
    /// Forbid worrying back (a card coming back from its foundation).
    #[cfg_attr(feature = "cli", arg(long))]
    pub no_worry: bool,
    /// The player giving hints, 0..7 or a name (as `query klondike
    /// --variant`); nopeek: the no-peek search player.
    #[cfg_attr(feature = "cli", arg(long, default_value = "0", value_parser = greedy::parse_player))]
    pub variant: usize,
    /// Samples a decision of the no-peek player (1 ..= 4096).
    #[cfg_attr(feature = "cli", arg(long, default_value_t = DEFAULT_PLAY_SAMPLES))]
    pub samples: u32,
}

/// The command line's defaults, so that a library caller's
/// `KlondikePlay { .., ..Default::default() }` asks what the command would.
impl Default for KlondikePlay {
    fn default() -> Self {
        KlondikePlay {
            deal: None,
            draw: 1,
            redeal: "unlimited".into(),
            no_worry: false,
            variant: 0,
            samples: DEFAULT_PLAY_SAMPLES,
        }
    }
}

/// Samples a decision of the no-peek player in `query` and `play`.
pub const DEFAULT_PLAY_SAMPLES: u32 = 64;

/// The player a query or a game asks for.
#[derive(Clone, Copy, Debug)]
enum Hinter {
    /// A greedy player.
    Greedy(Player),
    /// The no-peek search player.
    NoPeek(NoPeek),
}

impl Hinter {
    fn label(&self) -> String {
        match self {
            Hinter::Greedy(p) => p.label(),
            Hinter::NoPeek(p) => nopeek_games::label(p.samples),
        }
    }
}

impl KlondikePlay {
    /// The same deal and rules as a query (play has no solver budget and no
    /// report: it used to list both and ignore them).
    fn as_query(&self) -> KlondikeQuery {
        KlondikeQuery {
            deal: self.deal,
            draw: self.draw,
            redeal: self.redeal.clone(),
            no_worry: self.no_worry,
            variant: self.variant,
            samples: self.samples,
            budget: 1,
            report: false,
        }
    }
}

fn rules_of(q: &KlondikeQuery) -> Result<(Rules, Hinter)> {
    let worry = if q.no_worry { "/noworry" } else { "" };
    let rules = parse_rules(&format!("{}/{}{worry}", q.draw, q.redeal))?;
    crate::ensure_input!(
        (1..=MAX_BUDGET).contains(&q.budget),
        "--budget {} is out of range: 1 to {MAX_BUDGET} solver positions",
        q.budget
    );
    crate::ensure_input!(
        (1..=MAX_SAMPLES).contains(&q.samples),
        "--samples {} is out of range: 1 to {MAX_SAMPLES} samples a decision",
        q.samples
    );
    if q.variant == greedy::NOPEEK {
        return Ok((rules, Hinter::NoPeek(NoPeek::with_samples(q.samples))));
    }
    crate::ensure_input!(
        q.variant < Player::ALL.len(),
        "--variant {} is out of range (0 ..= {} or nopeek)",
        q.variant,
        Player::ALL.len() - 1
    );
    Ok((rules, Hinter::Greedy(Player::ALL[q.variant])))
}

fn describe_line(start: &State, rules: &Rules, moves: &[Move]) -> Vec<String> {
    let mut s = *start;
    moves
        .iter()
        .map(|&m| {
            let d = s.describe(m);
            s.apply(m, rules);
            d
        })
        .collect()
}

/// The answer to `query klondike` (a deal, or `--report`).
pub fn answer(q: &KlondikeQuery, ctx: &QueryContext) -> Result<Answer> {
    if q.report {
        // A library caller has no parser to refuse these: check here too.
        crate::ensure_input!(
            q.deal.is_none(),
            "query klondike: --report covers every deal of the build; it takes no --deal"
        );
        return report(ctx);
    }
    let Some(deal) = q.deal else {
        crate::bail_input!("query klondike: give --deal N (or --report)");
    };
    let (rules, variant) = rules_of(q)?;
    let start = State::from_deck(&deal.deck());
    let played = match variant {
        Hinter::Greedy(p) => greedy::play_from(start, &rules, &p),
        Hinter::NoPeek(p) => {
            let g = nopeek::play_game(start, &rules, &p, nopeek_games::SEED);
            greedy::Played {
                won: g.home == 52,
                home: g.home,
                moves: g.line,
            }
        }
    };
    let greedy_moves = describe_line(&start, &rules, &played.moves);
    let mut solved = solver::solve_from(&start, &rules, q.budget);
    if solved.verdict == Verdict::Unknown && played.won {
        // The search ran out, but the greedy game itself proves the deal.
        solved.verdict = Verdict::Won(played.moves.clone());
    }
    let line = match &solved.verdict {
        Verdict::Won(line) => describe_line(&start, &rules, line),
        _ => Vec::new(),
    };
    Ok(Answer::of(&DealAnswer {
        deal: deal.to_string(),
        rules: rules.label(),
        layout: start.render(true),
        variant: variant.label(),
        nopeek: matches!(variant, Hinter::NoPeek(_)),
        greedy: GreedyGame {
            won: played.won,
            home: played.home,
            moves: greedy_moves,
        },
        solver: SolverAnswer {
            budget: q.budget,
            verdict: solved.verdict.label().to_string(),
            positions: solved.classes,
            relaxed: solved.relaxed,
            line,
        },
    }))
}

/// `nimrod query klondike --deal N`.
#[derive(Serialize)]
struct DealAnswer {
    /// The deal's number ("42", or "solvitaire:22").
    deal: String,
    rules: String,
    /// The deal as dealt, face-down cards in parentheses.
    layout: String,
    variant: String,
    /// Whether the game is the no-peek player's (else a greedy player's).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    nopeek: bool,
    greedy: GreedyGame,
    solver: SolverAnswer,
}

#[derive(Serialize)]
struct GreedyGame {
    won: bool,
    home: u32,
    moves: Vec<String>,
}

#[derive(Serialize)]
struct SolverAnswer {
    budget: u64,
    verdict: String,
    /// Positions (classes of arrangements) the search stored.
    positions: u64,
    /// Whether the relaxed game proved the loss at the deal (no search).
    relaxed: bool,
    /// A winning line, when the verdict is winnable.
    line: Vec<String>,
}

fn numbered(f: &mut std::fmt::Formatter<'_>, moves: &[String]) -> std::fmt::Result {
    for (i, m) in moves.iter().enumerate() {
        writeln!(f, "  {:>4}. {m}", i + 1)?;
    }
    Ok(())
}

impl std::fmt::Display for DealAnswer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "deal {} ({}), face-down cards in parentheses:",
            self.deal, self.rules
        )?;
        f.write_str(&self.layout)?;
        let g = &self.greedy;
        writeln!(
            f,
            "{} player ({}): {} after {} moves, {} cards home",
            if self.nopeek { "no-peek" } else { "greedy" },
            self.variant,
            if g.won { "won" } else { "gave up" },
            g.moves.len(),
            g.home
        )?;
        numbered(f, &g.moves)?;
        let s = &self.solver;
        if s.relaxed {
            writeln!(
                f,
                "solver (every card visible): {}, proved by the relaxed game at the deal",
                s.verdict
            )?;
        } else {
            writeln!(
                f,
                "solver (every card visible, budget {} positions): {} after {} positions",
                s.budget, s.verdict, s.positions
            )?;
        }
        if !s.line.is_empty() {
            writeln!(f, "a winning line ({} moves):", s.line.len())?;
            numbered(f, &s.line)?;
        }
        Ok(())
    }
}

fn report(ctx: &QueryContext) -> Result<Answer> {
    let t = open_table(&ctx.data_dir, "klondike/report")?;
    let report: ReportStats = records::read(&t)?;
    // The Solvitaire seed tables the data directory holds (a config with
    // `solvitaire_seeds` builds them), in name order.
    let mut names: Vec<String> = std::fs::read_dir(ctx.data_dir.join("klondike"))
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| e.file_name().into_string().ok())
        .filter_map(|n| {
            let stem = n.strip_suffix(".nmt")?;
            (stem.starts_with("solvitaire-") && !stem.contains(".part-")).then(|| stem.to_string())
        })
        .collect();
    names.sort();
    let solvitaire = names
        .iter()
        .map(|stem| records::read(&open_table(&ctx.data_dir, &format!("klondike/{stem}"))?))
        .collect::<Result<Vec<SeedStats>>>()?;
    Ok(Answer::of(&FullReport { report, solvitaire }))
}

/// `query klondike --report`: the batch report, and the Solvitaire seed
/// tables beside it when the data directory holds any.
#[derive(Serialize)]
struct FullReport {
    #[serde(flatten)]
    report: ReportStats,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    solvitaire: Vec<SeedStats>,
}

impl std::fmt::Display for FullReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.report)?;
        if !self.solvitaire.is_empty() {
            writeln!(f, "Solvitaire's numbered deals (every card visible)")?;
        }
        for s in &self.solvitaire {
            write!(
                f,
                "  {:<28} seeds {}..{}: {} winnable, {} not, {} unknown; {:.3}% of decided [{:.3}%, {:.3}%]",
                s.rules,
                s.first_seed,
                s.last_seed_excluded - 1,
                s.winnable,
                s.not_winnable,
                s.unknown,
                s.winnable_percent_of_decided,
                s.ci95_percent.0,
                s.ci95_percent.1
            )?;
            if let Some((share, pm)) = s.solvitaire_published_percent {
                write!(
                    f,
                    "; Solvitaire published {share:.3}% ± {pm:.3}% (10^6 seeds)"
                )?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

fn percent(x: f64) -> String {
    format!("{:.2}%", 100.0 * x)
}

impl std::fmt::Display for ReportStats {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "greedy players, win rate with 95% interval (Wilson); difference against the first player on the same deals (McNemar p)")?;
        for r in &self.greedy {
            write!(
                f,
                "  {:<28} {:<34} {:>6}/{:<6} {:>7}  [{}, {}]",
                r.rules,
                r.variant,
                r.wins,
                r.deals,
                percent(r.win_rate),
                percent(r.ci95.0),
                percent(r.ci95.1)
            )?;
            let paired = |f: &mut std::fmt::Formatter<'_>, what: &str, v: &records::VsFirst| {
                let p = if v.mcnemar_p < 0.001 {
                    "p<0.001".to_string()
                } else {
                    format!("p={:.3}", v.mcnemar_p)
                };
                write!(
                    f,
                    "  {what} {:+.2}% [{:+.2}%, {:+.2}%] {p}",
                    100.0 * v.diff,
                    100.0 * v.ci95.0,
                    100.0 * v.ci95.1
                )
            };
            if let Some(v) = &r.vs_first {
                paired(f, "diff", v)?;
            }
            if let Some(v) = &r.vs_earlier_reading {
                paired(f, "vs seed list", v)?;
            }
            writeln!(f)?;
        }
        if !self.nopeek.is_empty() {
            writeln!(f, "no-peek players (they see no face-down card), win rate with 95% interval; against the strong list on the same deals (McNemar p); winnable deals won")?;
        }
        for r in &self.nopeek {
            let v = &r.vs_strong;
            writeln!(
                f,
                "  {:<28} {:<34} {:>6}/{:<6} {:>7}  [{}, {}]  vs strong {:+.2}% [{:+.2}%, {:+.2}%] {}  winnable won {}/{} ({}) of the first {} deals; a game: {:.0} moves, {:.1} decisions, {:.0} solves",
                r.rules,
                r.player,
                r.wins,
                r.deals,
                percent(r.win_rate),
                percent(r.ci95.0),
                percent(r.ci95.1),
                100.0 * v.diff,
                100.0 * v.ci95.0,
                100.0 * v.ci95.1,
                if v.mcnemar_p < 0.001 {
                    "p<0.001".to_string()
                } else {
                    format!("p={:.3}", v.mcnemar_p)
                },
                r.winnable_won,
                r.winnable,
                percent(r.winnable_won as f64 / r.winnable.max(1) as f64),
                r.solver_deals,
                r.mean_moves,
                r.mean_decisions,
                r.mean_solves,
            )?;
        }
        writeln!(f, "solver (every card visible)")?;
        for r in &self.solver {
            let v = &r.solver;
            writeln!(
                f,
                "  {:<28} {} winnable ({} by a greedy game, {} by search), {} not, {} unknown of {} ({} decided)",
                r.rules,
                v.winnable,
                v.winnable_by_greedy_game,
                v.winnable_by_search,
                v.not_winnable,
                v.unknown,
                v.deals,
                percent(v.decided_share),
            )?;
            // The unknowns could go either way, so the honest rate is a
            // range: every unknown lost at one end, every unknown won at
            // the other.
            writeln!(
                f,
                "      winnable: {} [{}, {}] if every unknown is lost, {} [{}, {}] if every unknown is won; {} of decided [{}, {}]; positions searched median {} p90 {} p99 {}",
                percent(v.bounds_if_unknowns_all_lost_or_won.0),
                percent(v.ci95_winnable_if_unknowns_lost.0),
                percent(v.ci95_winnable_if_unknowns_lost.1),
                percent(v.bounds_if_unknowns_all_lost_or_won.1),
                percent(v.ci95_winnable_if_unknowns_won.0),
                percent(v.ci95_winnable_if_unknowns_won.1),
                percent(v.winnable_share_of_decided),
                percent(v.ci95_of_decided.0),
                percent(v.ci95_of_decided.1),
                v.nodes_decided.median,
                v.nodes_decided.p90,
                v.nodes_decided.p99,
            )?;
            for g in &v.greedy {
                writeln!(
                    f,
                    "      greedy {:<34} won {:>5}, lost {:>5} winnable deals",
                    g.variant, g.greedy_wins, g.winnable_but_lost
                )?;
            }
        }
        Ok(())
    }
}

/// Interactive play: numbers pick a listed move, `h` shows the greedy
/// player's hint, `g` plays it, `q` quits.
pub fn play(
    p: &KlondikePlay,
    input: &mut dyn std::io::BufRead,
    output: &mut dyn std::io::Write,
) -> Result<()> {
    let q = &p.as_query();
    let Some(deal) = q.deal else {
        crate::bail_input!("play klondike: give --deal N");
    };
    let (rules, variant) = rules_of(q)?;
    let mut s = State::from_deck(&deal.deck());
    let who = match variant {
        Hinter::Greedy(_) => "greedy",
        Hinter::NoPeek(_) => "no-peek",
    };
    // What the no-peek player may see: the cards shown so far.
    let mut table = nopeek::Table::new(s, &rules);
    let mut moves = Vec::new();
    loop {
        writeln!(output, "{}", s.render(false))?;
        if s.is_won() {
            writeln!(output, "won!")?;
            return Ok(());
        }
        s.legal_moves(&rules, &mut moves);
        if moves.is_empty() {
            writeln!(output, "no moves left: {} cards home", s.home())?;
            return Ok(());
        }
        for (i, &m) in moves.iter().enumerate() {
            writeln!(output, "  {}) {}", i + 1, s.describe(m))?;
        }
        let line = crate::games::query::read_answer(
            input,
            output,
            "move number, h(int), g(reedy move), q(uit)> ",
            "klondike",
        )?;
        let hint = |s: &State, table: &nopeek::Table| match variant {
            Hinter::Greedy(p) => p.next_move(s, &rules, false),
            Hinter::NoPeek(p) => {
                nopeek::decide(&table.view(), &rules, &p, nopeek_games::SEED).first_move()
            }
        };
        let play = |s: &mut State, table: &mut nopeek::Table, m: Move| -> Result<()> {
            s.apply(m, &rules);
            table
                .apply(m, &rules)
                .map_err(|m| anyhow::anyhow!("play klondike: move {m:?} is not legal"))
        };
        match line.trim().to_ascii_lowercase().as_str() {
            "q" | "quit" => return Ok(()),
            "h" | "hint" => match hint(&s, &table) {
                Some(m) => writeln!(output, "hint: {}", s.describe(m))?,
                None => writeln!(output, "hint: the {who} player would give up here")?,
            },
            "g" | "greedy" => match hint(&s, &table) {
                Some(m) => {
                    writeln!(output, "{who} plays: {}", s.describe(m))?;
                    play(&mut s, &mut table, m)?;
                }
                None => writeln!(output, "the {who} player would give up here")?,
            },
            other => match other.parse::<usize>() {
                Ok(n) if (1..=moves.len()).contains(&n) => play(&mut s, &mut table, moves[n - 1])?,
                _ => writeln!(output, "not a move: \"{other}\"")?,
            },
        }
    }
}
