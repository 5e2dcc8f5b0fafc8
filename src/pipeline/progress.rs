//! Progress reporting: indicatif bars on a terminal, one plain line per
//! finished stage otherwise (logs, CI, tests).

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
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
        let bar = self.bars.as_ref().map(|m| {
            let b = m.add(ProgressBar::new(total));
            b.set_style(
                ProgressStyle::with_template(
                    "{prefix:>24} {msg:<28} [{bar:30}] {percent:>3}% {elapsed_precise} eta {eta}",
                )
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

/// One stage of a job: a bar, and a line when it finishes.
pub struct Stage {
    label: String,
    bar: Option<ProgressBar>,
    started: Instant,
    build_start: Instant,
}

impl Stage {
    /// `n` more units done.
    pub fn inc(&self, n: u64) {
        if let Some(b) = &self.bar {
            b.inc(n);
        }
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
