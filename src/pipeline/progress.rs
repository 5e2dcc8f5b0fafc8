//! Progress reporting: indicatif bars on a terminal, one plain line per
//! finished stage otherwise (logs, CI, tests).

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// A build's progress: bars on a terminal, a line per finished stage otherwise.
pub struct Progress {
    bars: Option<MultiProgress>,
    start: Instant,
}

impl Progress {
    /// Progress with bars when standard error is a terminal.
    pub fn new() -> Progress {
        let bars = std::io::stderr()
            .is_terminal()
            .then(|| MultiProgress::with_draw_target(ProgressDrawTarget::stderr()));
        Progress {
            bars,
            start: Instant::now(),
        }
    }

    /// Progress that never draws bars (library use, tests).
    pub fn plain() -> Progress {
        Progress {
            bars: None,
            start: Instant::now(),
        }
    }

    /// A stage of job `job` with `total` units of work.
    pub fn stage(&self, job: &str, name: &str, total: u64) -> Stage {
        self.make_stage(job, name, Some(total))
    }

    /// A stage whose amount of work is not known before it ends (the plies
    /// of a retrograde analysis): a count and the time, never a percentage
    /// or an ETA that would be a guess.
    pub fn counter(&self, job: &str, name: &str) -> Stage {
        self.make_stage(job, name, None)
    }

    fn make_stage(&self, job: &str, name: &str, total: Option<u64>) -> Stage {
        let bar = self.bars.as_ref().map(|m| {
            let (b, template) = match total {
                Some(t) => (
                    ProgressBar::new(t),
                    "{prefix:>24} {msg:<28} [{bar:30}] {percent:>3}% {elapsed_precise} eta {eta}",
                ),
                None => (
                    ProgressBar::no_length(),
                    "{prefix:>24} {msg:<28} {pos} so far {elapsed_precise}",
                ),
            };
            let b = m.add(b);
            b.set_style(
                ProgressStyle::with_template(template)
                    .expect("static template")
                    .progress_chars("=> "),
            );
            b.set_prefix(job.to_string());
            b.set_message(name.to_string());
            b
        });
        Stage {
            label: format!("{job}: {name}"),
            bar,
            total,
            done: AtomicU64::new(0),
            last_line: AtomicU64::new(0),
            started: Instant::now(),
            build_start: self.start,
        }
    }

    /// A line that must appear whatever the output (skips, failures).
    pub fn println(&self, line: &str) {
        match &self.bars {
            Some(m) => {
                let _ = m.println(line);
            }
            None => eprintln!("{line}"),
        }
    }
}

impl Default for Progress {
    fn default() -> Self {
        Progress::new()
    }
}

/// One stage of a job: a bar on a terminal; otherwise a line when it
/// finishes and, for a long stage, a line every `HEARTBEAT_SECONDS` (a
/// log used to show nothing until a long table was done).
pub struct Stage {
    label: String,
    bar: Option<ProgressBar>,
    total: Option<u64>,
    done: AtomicU64,
    /// Milliseconds after `started` of the last heartbeat line.
    last_line: AtomicU64,
    started: Instant,
    build_start: Instant,
}

/// How often a long stage prints a line when no bar is drawn.
pub const HEARTBEAT_SECONDS: u64 = 30;

impl Stage {
    /// `n` more units done.
    pub fn inc(&self, n: u64) {
        let done = self.done.fetch_add(n, Ordering::Relaxed) + n;
        if let Some(b) = &self.bar {
            b.inc(n);
            return;
        }
        let now = self.started.elapsed().as_millis() as u64;
        let last = self.last_line.load(Ordering::Relaxed);
        if now >= last + HEARTBEAT_SECONDS * 1000
            && self
                .last_line
                .compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok()
        {
            eprintln!("{}", self.heartbeat(done));
        }
    }

    /// "[  95.10s] chess/KQRvKR: first pass 12 of 40 (30%), 31 s in".
    fn heartbeat(&self, done: u64) -> String {
        let so_far = match self.total {
            Some(t) if t > 0 => format!("{done} of {t} ({}%)", done * 100 / t),
            Some(t) => format!("{done} of {t}"),
            None => format!("{done} so far"),
        };
        format!(
            "[{:8.2}s] {} {so_far}, {:.0} s in",
            self.build_start.elapsed().as_secs_f64(),
            self.label,
            self.started.elapsed().as_secs_f64()
        )
    }

    /// The stage is done: prints its time.
    pub fn finish(self) {
        match self.bar {
            Some(b) => b.finish_and_clear(),
            None => eprintln!(
                "[{:8.2}s] {} done in {:.2} s",
                self.build_start.elapsed().as_secs_f64(),
                self.label,
                self.started.elapsed().as_secs_f64()
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_heartbeat_says_how_far_a_stage_is_and_never_guesses_a_total() {
        let p = Progress::plain();
        let s = p.stage("chess/KQvK", "first pass", 40);
        s.inc(12);
        let line = s.heartbeat(12);
        assert!(line.contains("chess/KQvK: first pass 12 of 40 (30%)"), "{line}");
        let c = p.counter("chess/KQvK", "retrograde plies");
        c.inc(7);
        let line = c.heartbeat(7);
        assert!(line.contains("retrograde plies 7 so far"), "{line}");
        assert!(!line.contains('%'), "{line}");
    }
}
