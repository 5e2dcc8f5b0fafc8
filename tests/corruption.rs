//! The corruption suite: every table of the small build, raw and packed,
//! damaged in seeded ways (bit flips anywhere, in the payload, in each
//! section; zeroed or scrambled payloads; truncation; appended bytes; a
//! packed file made from a damaged raw table; another table of the same
//! game in its place). Every query of the game must then give an error or
//! exactly the undamaged answer — never a different answer.

mod common;

use nimrod::games::{self, QueryContext};
use nimrod::rng::SplitMix64;
use nimrod::table::pack::{pack_bytes, DEFAULT_FRAME_SIZE, DEFAULT_LEVEL};
use nimrod::table::Table;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Queries per game; each reads some of the game's tables.
fn queries() -> BTreeMap<&'static str, Vec<Vec<&'static str>>> {
    BTreeMap::from([
        (
            "grundy",
            vec![vec!["1000"], vec!["19999"], vec!["20", "--misere"]],
        ),
        ("octal", vec![vec!["0.77", "200"], vec!["0.137", "1999"]]),
        ("half", vec![vec!["47"], vec!["9999", "--last-loses"]]),
        (
            "gops",
            vec![
                vec!["--cards", "6", "--first-move"],
                vec![
                    "--cards", "6", "--mine", "2,5,6", "--theirs", "1,4,6", "--prizes", "2,3,4",
                ],
                vec![
                    "--cards",
                    "4",
                    "--objective",
                    "win",
                    "--mine",
                    "2,3",
                    "--theirs",
                    "1,4",
                    "--prizes",
                    "1,2",
                ],
            ],
        ),
        ("ttt", vec![vec!["xo..x...."], vec!["........."]]),
        (
            "guessit",
            vec![vec!["5", "5"], vec!["4", "3"], vec!["1", "2"]],
        ),
        (
            "bridgit",
            vec![
                vec!["--size", "5", "--table"],
                vec!["--size", "5", "--moves", "h1,1 h1,2"],
                vec!["--size", "3", "--moves", "h1,1"],
            ],
        ),
        (
            "chess",
            vec![
                vec!["8/8/8/8/8/2k5/8/K6R w - - 0 1"],
                vec!["8/8/8/8/8/2k5/8/K6Q b - - 0 1"],
                vec!["8/8/8/3k4/8/8/4P3/4K3 w - - 0 1"],
                vec!["--stats", "KRvK"],
            ],
        ),
        ("klondike", vec![vec!["--report"]]),
    ])
}

#[derive(Default, Debug)]
struct Counts {
    cases: usize,
    errors: usize,
    right: usize,
    wrong: Vec<String>,
}

fn answer(game: &str, args: &[&str], data: &Path) -> Result<(String, String), String> {
    let g = games::find(game).expect("registered game");
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    let ctx = QueryContext {
        data_dir: data.to_path_buf(),
    };
    let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| games::ask(g, &args, &ctx)));
    match run {
        Ok(r) => r
            .map(|a| (a.text().to_string(), a.json().to_string()))
            .map_err(|e| format!("{e:#}")),
        Err(_) => Ok(("panicked".into(), String::new())),
    }
}

/// Seeded damages of one raw table: (what, bytes).
fn damages(raw: &[u8], rng: &mut SplitMix64, sibling: Option<&[u8]>) -> Vec<(String, Vec<u8>)> {
    let t = Table::from_bytes(Path::new("x"), raw.to_vec()).expect("undamaged table opens");
    let h = t.header().clone();
    let mut out = Vec::new();
    let flip = |at: u64, bit: u64| {
        let mut b = raw.to_vec();
        b[at as usize] ^= 1 << bit;
        b
    };
    for _ in 0..6 {
        let at = rng.below(raw.len() as u64);
        out.push((format!("bit flip at byte {at}"), flip(at, rng.below(8))));
    }
    if h.payload.len > 0 {
        for _ in 0..10 {
            let at = h.payload.offset + rng.below(h.payload.len);
            out.push((
                format!("payload bit flip at byte {at}"),
                flip(at, rng.below(8)),
            ));
        }
        let mut zero = raw.to_vec();
        zero[h.payload.offset as usize..(h.payload.offset + h.payload.len) as usize].fill(0);
        out.push(("payload zeroed".into(), zero));
        let mut scrambled = raw.to_vec();
        for b in
            &mut scrambled[h.payload.offset as usize..(h.payload.offset + h.payload.len) as usize]
        {
            *b = rng.next_u64() as u8;
        }
        out.push(("payload scrambled".into(), scrambled));
    }
    for (name, s) in [
        (
            "header",
            nimrod::table::format::Section {
                offset: 0,
                len: nimrod::table::format::HEADER_LEN as u64,
            },
        ),
        ("metadata", h.meta),
        ("index", h.index),
        ("keys", h.keys),
        ("block sums", h.block_sums),
    ] {
        if s.len > 0 {
            let at = s.offset + rng.below(s.len);
            out.push((
                format!("{name} bit flip at byte {at}"),
                flip(at, rng.below(8)),
            ));
        }
    }
    let keep = rng.below(raw.len() as u64) as usize;
    out.push((format!("truncated to {keep} bytes"), raw[..keep].to_vec()));
    let mut longer = raw.to_vec();
    longer.extend_from_slice(&[0u8; 100]);
    out.push(("100 zero bytes appended".into(), longer));
    if let Some(other) = sibling {
        out.push((
            "another table of the game in its place".into(),
            other.to_vec(),
        ));
    }
    out
}

#[test]
fn damaged_tables_give_an_error_or_the_right_answer() {
    let clean = tempfile::tempdir().unwrap();
    common::build_small(clean.path());
    let queries = queries();
    let mut reference = BTreeMap::new();
    for (game, qs) in &queries {
        for q in qs {
            let a = answer(game, q, clean.path())
                .unwrap_or_else(|e| panic!("undamaged query {game} {q:?} fails: {e}"));
            reference.insert((*game, q.clone()), a);
        }
    }
    let work = tempfile::tempdir().unwrap();
    copy_dir(clean.path(), work.path());
    let files = common::files_with_extension(clean.path(), "nmt");
    let mut rng = SplitMix64::new(0x636f7272);
    let mut counts: BTreeMap<&str, Counts> = BTreeMap::new();
    let mut by_file = 0;
    for file in &files {
        let rel = file.strip_prefix(clean.path()).unwrap();
        let game = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_str()
            .unwrap();
        let Some(qs) = queries.get(game) else {
            panic!("no queries for game {game}: add them so its tables are damaged too");
        };
        let raw = std::fs::read(file).unwrap();
        let sibling = files
            .iter()
            .filter(|f| *f != file && f.starts_with(clean.path().join(game)))
            .nth(rng.below(4) as usize)
            .map(|f| std::fs::read(f).unwrap());
        let target = work.path().join(rel);
        let mut packed_target = target.clone().into_os_string();
        packed_target.push(".zst");
        let packed_target = PathBuf::from(packed_target);
        let mut cases = Vec::new();
        for (what, bytes) in damages(&raw, &mut rng, sibling.as_deref()) {
            // The damaged raw file, and a packed file made from it.
            let packed = pack_bytes(&bytes, DEFAULT_LEVEL, DEFAULT_FRAME_SIZE).unwrap();
            cases.push(("raw", what.clone(), bytes));
            cases.push(("packed from damaged raw", what, packed));
        }
        // Damage to the compressed bytes of a good packed file.
        let good_packed = pack_bytes(&raw, DEFAULT_LEVEL, DEFAULT_FRAME_SIZE).unwrap();
        for _ in 0..6 {
            let mut b = good_packed.clone();
            let at = rng.below(b.len() as u64) as usize;
            b[at] ^= 1 << rng.below(8);
            cases.push(("packed", format!("bit flip at byte {at}"), b));
        }
        for (form, what, bytes) in cases {
            let packed = form != "raw";
            if packed {
                std::fs::remove_file(&target).unwrap();
                std::fs::write(&packed_target, &bytes).unwrap();
            } else {
                std::fs::write(&target, &bytes).unwrap();
            }
            for q in qs {
                let c = counts.entry(game).or_default();
                c.cases += 1;
                match answer(game, q, work.path()) {
                    Err(_) => c.errors += 1,
                    Ok(a) if a == reference[&(game, q.clone())] => c.right += 1,
                    Ok(a) => c.wrong.push(format!(
                        "{} ({form}, {what}): query {game} {q:?} answered\n{}\ninstead of\n{}",
                        rel.display(),
                        a.0,
                        reference[&(game, q.clone())].0
                    )),
                }
            }
            if packed {
                std::fs::remove_file(&packed_target).unwrap();
            }
            std::fs::write(&target, &raw).unwrap();
        }
        by_file += 1;
    }
    let (mut cases, mut errors, mut right, mut wrong) = (0, 0, 0, 0);
    for (game, c) in &counts {
        eprintln!(
            "{game:9} cases {:6}  errors {:6}  right answers {:6}  wrong {}",
            c.cases,
            c.errors,
            c.right,
            c.wrong.len()
        );
        cases += c.cases;
        errors += c.errors;
        right += c.right;
        wrong += c.wrong.len();
    }
    eprintln!(
        "all       cases {cases:6}  errors {errors:6}  right answers {right:6}  wrong {wrong} ({by_file} tables)"
    );
    let first_wrong: Vec<&String> = counts.values().flat_map(|c| &c.wrong).take(3).collect();
    assert!(
        first_wrong.is_empty(),
        "{wrong} wrong answers, e.g.\n{first_wrong:#?}"
    );
    // The damage must reach what the queries read: every game sees errors.
    for (game, c) in &counts {
        assert!(
            c.errors > 0,
            "no damage to {game}'s tables was ever detected"
        );
    }
}

fn copy_dir(from: &Path, to: &Path) {
    for e in std::fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        let dest = to.join(p.file_name().unwrap());
        if p.is_dir() {
            std::fs::create_dir_all(&dest).unwrap();
            copy_dir(&p, &dest);
        } else {
            std::fs::copy(&p, &dest).unwrap();
        }
    }
}
