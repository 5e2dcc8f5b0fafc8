//! `nimrod query knight`: one tour drawn as the board with move numbers,
//! or with `--trials N` the success rate of a rule (with `--compare`,
//! every reading of the text's rule beside Warnsdorff's and a random walk).

use super::tour::{is_knight_path, tour, Reading, Rule};
use crate::games::query::Answer;
use crate::rng::SplitMix64;
use crate::stats::wilson;
use anyhow::{ensure, Result};
use serde::Serialize;

#[cfg_attr(feature = "cli", derive(clap::Parser))]
#[cfg_attr(
    feature = "cli",
    command(
        after_help = "Examples:\n  nimrod query knight --rule text --seed 3\n  nimrod query knight --rule warnsdorff --trials 10000\n  nimrod query knight --trials 10000 --compare\n\nReadings of the text's rule: ring-first or turn-first (which wish decides first), then\nevery13, once13 or lap (when the sense of turning reverses); see docs/machines.md."
    )
)]
#[cfg_attr(
    feature = "cli",
    command(
        about = "The knight's tour by the chapter's rule of thumb, Warnsdorff's rule or at random"
    )
)]
/// The arguments of `nimrod query knight`.
#[derive(Clone, Debug, PartialEq)]
pub struct KnightQuery {
    /// text (the chapter's rule of thumb), warnsdorff or random.
    #[cfg_attr(feature = "cli", arg(long, default_value = "text"))]
    pub rule: String,
    /// Which reading of the text's rule (see the examples).
    #[cfg_attr(feature = "cli", arg(long, default_value = "ring-first/every13"))]
    pub reading: String,
    /// Seed of the random tie-breaks.
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 1))]
    pub seed: u64,
    /// Run this many tours and report the success rate instead of one tour.
    #[cfg_attr(feature = "cli", arg(long, value_parser = clap::value_parser!(u64).range(1..=MAX_TRIALS)))]
    pub trials: Option<u64>,
    /// With --trials: every reading of the text's rule, Warnsdorff's rule
    /// and a random walk, on the same seeds.
    #[cfg_attr(feature = "cli", arg(long, requires = "trials"))]
    pub compare: bool,
}

/// The command line's defaults, so that a library caller's
/// `KnightQuery { .., ..Default::default() }` asks what the command would.
impl Default for KnightQuery {
    fn default() -> Self {
        KnightQuery {
            rule: "text".into(),
            reading: "ring-first/every13".into(),
            seed: 1,
            trials: None,
            compare: false,
        }
    }
}

fn rule_of(q: &KnightQuery) -> Result<Rule> {
    Ok(match q.rule.as_str() {
        "text" => Rule::Text(Reading::parse(&q.reading).ok_or_else(|| {
            let names: Vec<String> = Reading::ALL.iter().map(|r| r.name()).collect();
            crate::games::error::bad_input(anyhow::anyhow!(
                "--reading {:?}: one of {}",
                q.reading,
                names.join(", ")
            ))
        })?),
        "warnsdorff" => Rule::Warnsdorff,
        "random" => Rule::Random,
        other => crate::bail_input!("--rule {other:?}: text, warnsdorff or random"),
    })
}

/// One tour, drawn.
#[derive(Serialize)]
struct TourAnswer {
    rule: String,
    seed: u64,
    completed: bool,
    squares_visited: usize,
    /// Squares in visit order (a1, c2, …).
    path: Vec<String>,
}

fn square(s: u8) -> String {
    format!("{}{}", (b'a' + s % 8) as char, s / 8 + 1)
}

impl std::fmt::Display for TourAnswer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut number = [0usize; 64];
        for (k, s) in self.path.iter().enumerate() {
            let b = s.as_bytes();
            number[(b[0] - b'a') as usize + 8 * (b[1] - b'1') as usize] = k + 1;
        }
        writeln!(
            f,
            "knight's tour from a1, rule {} (seed {})",
            self.rule, self.seed
        )?;
        for rank in (0..8).rev() {
            write!(f, "{} ", rank + 1)?;
            for file in 0..8 {
                match number[file + 8 * rank] {
                    0 => write!(f, "  .")?,
                    n => write!(f, "{n:3}")?,
                }
            }
            writeln!(f)?;
        }
        writeln!(f, "    a  b  c  d  e  f  g  h")?;
        if self.completed {
            writeln!(f, "completed: all 64 squares")
        } else {
            writeln!(
                f,
                "stuck after {} squares ({} moves)",
                self.squares_visited,
                self.squares_visited - 1
            )
        }
    }
}

/// A rule's success rate over `trials` tours.
#[derive(Serialize)]
struct Rate {
    rule: String,
    trials: u64,
    successes: u64,
    success_rate: f64,
    /// Wilson's 95% interval.
    interval_95: [f64; 2],
    /// Squares visited on average.
    mean_squares: f64,
}

fn rate(rule: Rule, trials: u64, seed: u64) -> Result<Rate> {
    let mut rng = SplitMix64::new(seed);
    let (mut successes, mut squares) = (0u64, 0u64);
    for _ in 0..trials {
        let t = tour(rule, &mut rng);
        ensure!(
            is_knight_path(&t),
            "{}: not a knight's path: {:?}",
            rule.name(),
            t.order
        );
        successes += u64::from(t.complete());
        squares += t.order.len() as u64;
    }
    let (lo, hi) = wilson(successes, trials);
    Ok(Rate {
        rule: rule.name(),
        trials,
        successes,
        success_rate: successes as f64 / trials as f64,
        interval_95: [lo, hi],
        mean_squares: squares as f64 / trials as f64,
    })
}

impl std::fmt::Display for Rate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "{:<28} {:>6} of {:>8} tours complete: {:6.2}% (95% {:.3}-{:.3}%), {:.1} squares on average",
            self.rule,
            self.successes,
            self.trials,
            100.0 * self.success_rate,
            100.0 * self.interval_95[0],
            100.0 * self.interval_95[1],
            self.mean_squares
        )
    }
}

/// `--compare`: every rule on the same seed.
#[derive(Serialize)]
struct Comparison {
    trials: u64,
    seed: u64,
    rules: Vec<Rate>,
}

impl std::fmt::Display for Comparison {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for r in &self.rules {
            write!(f, "{r}")?;
        }
        Ok(())
    }
}

/// The most tours one query may run.
pub const MAX_TRIALS: u64 = 10_000_000;

/// The answer to `query knight`.
pub fn answer(q: &KnightQuery) -> Result<Answer> {
    // The command line's range, held for library callers too.
    crate::ensure_input!(
        q.trials.is_none_or(|t| (1..=MAX_TRIALS).contains(&t)),
        "query knight: --trials {} is out of range (1 ..= {MAX_TRIALS})",
        q.trials.unwrap_or(0)
    );
    crate::ensure_input!(
        !q.compare || q.trials.is_some(),
        "query knight: --compare needs --trials"
    );
    let rule = rule_of(q)?;
    match (q.trials, q.compare) {
        (Some(trials), true) => {
            let mut rules: Vec<Rule> = Reading::ALL.iter().map(|&r| Rule::Text(r)).collect();
            rules.extend([Rule::Warnsdorff, Rule::Random]);
            let rules = rules
                .into_iter()
                .map(|r| rate(r, trials, q.seed))
                .collect::<Result<_>>()?;
            Ok(Answer::of(&Comparison {
                trials,
                seed: q.seed,
                rules,
            }))
        }
        (Some(trials), false) => Ok(Answer::of(&rate(rule, trials, q.seed)?)),
        (None, _) => {
            let t = tour(rule, &mut SplitMix64::new(q.seed));
            Ok(Answer::of(&TourAnswer {
                rule: rule.name(),
                seed: q.seed,
                completed: t.complete(),
                squares_visited: t.order.len(),
                path: t.order.iter().map(|&s| square(s)).collect(),
            }))
        }
    }
}
