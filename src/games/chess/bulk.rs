//! `nimrod query chess --fens FILE|-`: a file of FENs answered one line of
//! output per line of input, in input order, whatever the thread count.
//! Lines are read in batches and answered in parallel; the tables each
//! material needs are opened once and kept for the whole run.

use super::material::Material;
use super::probe::Tablebase;
use super::query::{open_for, parse_position, position_answer, PositionAnswer};
use crate::games::query::Answer;
use anyhow::{bail, Context, Result};
use rayon::prelude::*;
use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// The longest input line read as a FEN, in bytes (a FEN of six pieces is
/// under 90): a longer line is answered with an error, not read whole.
pub const MAX_LINE: usize = 1024;

/// Lines answered together (each batch's lines are written before the next
/// batch is read, so memory stays bounded on any input).
const BATCH: usize = 2048;

/// What a bulk run did: every line of input gave one line of output.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct BulkSummary {
    /// Lines read.
    pub lines: u64,
    /// Lines answered with an error (bad FEN, missing table, ...).
    pub failed: u64,
    /// The first failed line (1-based) and its error.
    pub first_failure: Option<(u64, String)>,
}

/// The streamed answer of `--fens SOURCE` ("-" is standard input): the
/// file is opened when the answer is written.
pub fn answer(source: &str, data_dir: &Path) -> Answer {
    let source = source.to_string();
    let data_dir = data_dir.to_path_buf();
    Answer::streamed(Box::new(move |out, json| {
        let summary = if source == "-" {
            answer_lines(&mut std::io::stdin().lock(), out, json, &data_dir)?
        } else {
            let file = std::fs::File::open(&source)
                .with_context(|| format!("--fens {source}: cannot open the file"))?;
            answer_lines(&mut std::io::BufReader::new(file), out, json, &data_dir)
                .with_context(|| format!("--fens {source}"))?
        };
        if let Some((line, error)) = &summary.first_failure {
            bail!(
                "--fens {source}: {} of {} lines had no answer (the first, line {line}: {error})",
                summary.failed,
                summary.lines
            );
        }
        Ok(())
    }))
}

/// The tables of each material seen so far (or why they could not be
/// opened), shared by the threads of a run.
struct Tables {
    data_dir: PathBuf,
    open: Mutex<HashMap<u64, Arc<Result<Tablebase, String>>>>,
}

impl Tables {
    fn get(&self, canonical: Material) -> Arc<Result<Tablebase, String>> {
        let mut open = self.open.lock().unwrap_or_else(|p| p.into_inner());
        open.entry(canonical.key())
            .or_insert_with(|| {
                Arc::new(open_for(&self.data_dir, canonical).map_err(|e| format!("{e:#}")))
            })
            .clone()
    }
}

/// One input line's answer, or the error that stands in for it.
fn answer_one(input: &str, tables: &Tables) -> Result<PositionAnswer, String> {
    let fen = input.trim();
    if fen.is_empty() {
        return Err("no FEN on this line".into());
    }
    let (board, pushed, canonical) = parse_position(fen).map_err(|e| format!("{e:#}"))?;
    let tb = tables.get(canonical);
    let tb = tb.as_ref().as_ref().map_err(Clone::clone)?;
    position_answer(&board, pushed, canonical, tb).map_err(|e| format!("{e:#}"))
}

/// The output line (without its newline) of one input line.
fn render(line_no: u64, input: &str, answer: &Result<PositionAnswer, String>, json: bool) -> String {
    match (answer, json) {
        (Ok(a), true) => serde_json::to_string(a).expect("answers serialise"),
        (Ok(a), false) => format!(
            "{}\t{}\t{}\t{}\t{}\t{}",
            a.fen,
            a.table,
            a.wdl,
            a.dtm_plies.map_or("-".to_string(), |d| d.to_string()),
            a.value,
            a.moves.first().map_or("-", |m| m.san.as_str())
        ),
        (Err(e), true) => {
            serde_json::json!({"line": line_no, "input": input, "error": e}).to_string()
        }
        (Err(e), false) => format!("{}\terror\t{e}", input.trim()),
    }
}

/// One line of input: its text, or why it is not one (too long, not UTF-8).
type InputLine = Result<String, String>;

/// Reads one line of at most `MAX_LINE` bytes (the rest of a longer line
/// is skipped, in bounded memory); None at the end of the input.
fn read_line(input: &mut dyn BufRead) -> std::io::Result<Option<InputLine>> {
    let mut bytes = Vec::new();
    let mut too_long = false;
    let mut any = false;
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            break;
        }
        any = true;
        let (chunk, done) = match buf.iter().position(|&c| c == b'\n') {
            Some(i) => (&buf[..i], i + 1),
            None => (buf, buf.len()),
        };
        let room = (MAX_LINE + 1).saturating_sub(bytes.len());
        bytes.extend_from_slice(&chunk[..chunk.len().min(room)]);
        too_long |= bytes.len() > MAX_LINE;
        let newline = done > chunk.len();
        input.consume(done);
        if newline {
            break;
        }
    }
    if !any {
        return Ok(None);
    }
    if too_long {
        return Ok(Some(Err(format!(
            "line longer than {MAX_LINE} bytes (a FEN is under 100)"
        ))));
    }
    if bytes.last() == Some(&b'\r') {
        bytes.pop();
    }
    Ok(Some(
        String::from_utf8(bytes).map_err(|_| "line is not UTF-8 text".to_string()),
    ))
}

/// Answers every line of `input` on `out`, one line each, in order.
pub fn answer_lines(
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    json: bool,
    data_dir: &Path,
) -> Result<BulkSummary> {
    let tables = Tables {
        data_dir: data_dir.to_path_buf(),
        open: Mutex::new(HashMap::new()),
    };
    let mut summary = BulkSummary::default();
    loop {
        let mut batch: Vec<(u64, InputLine)> = Vec::with_capacity(BATCH);
        while batch.len() < BATCH {
            match read_line(input).context("reading the FENs")? {
                Some(line) => {
                    summary.lines += 1;
                    batch.push((summary.lines, line));
                }
                None => break,
            }
        }
        if batch.is_empty() {
            break;
        }
        let rendered: Vec<(String, Option<String>)> = batch
            .par_iter()
            .map(|(no, line)| {
                let (text, answer) = match line {
                    Ok(text) => (text.as_str(), answer_one(text, &tables)),
                    Err(e) => ("", Err(e.clone())),
                };
                (render(*no, text, &answer, json), answer.err())
            })
            .collect();
        for ((no, _), (line, error)) in batch.iter().zip(rendered) {
            writeln!(out, "{line}")?;
            if let Some(e) = error {
                summary.failed += 1;
                summary.first_failure.get_or_insert((*no, e));
            }
        }
        out.flush()?;
    }
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8]) -> Vec<InputLine> {
        let mut r = std::io::BufReader::with_capacity(7, input);
        std::iter::from_fn(|| read_line(&mut r).unwrap()).collect()
    }

    #[test]
    fn lines_are_split_bounded_and_checked() {
        assert_eq!(
            lines(b"a b\r\n\nlast"),
            [Ok("a b".into()), Ok(String::new()), Ok("last".into())]
        );
        assert!(lines(b"").is_empty());
        assert_eq!(lines(b"x\n"), [Ok("x".to_string())]);
        let mut long = vec![b'y'; MAX_LINE + 1];
        long.extend_from_slice(b"\nnext\n");
        let got = lines(&long);
        assert_eq!(got.len(), 2);
        assert!(got[0].as_ref().unwrap_err().contains("longer than"));
        assert_eq!(got[1], Ok("next".to_string()));
        let exact = vec![b'z'; MAX_LINE];
        assert_eq!(lines(&exact), [Ok("z".repeat(MAX_LINE))]);
        assert!(lines(b"\xff\xfe\n")[0].as_ref().unwrap_err().contains("UTF-8"));
    }
}
