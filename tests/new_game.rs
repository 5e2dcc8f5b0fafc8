//! What a new game touches: this file adds one, the subtraction game
//! S(1, 2, 3) (take one to three tokens; who takes the last wins), from
//! outside the crate. It is a planner (a `[take3]` config section becomes
//! one job), a `Game` (its summary and check), and `Queries` with a typed
//! argument struct; the command line's adapter (`CommandLine`) comes for
//! free. Inside nimrod the same code would sit in `src/games/take3/` plus
//! one line in the registry (`src/games/registry.rs`).

use anyhow::{ensure, Result};
use nimrod::games::{
    self, Answer, CommandLine, ErrorKind, Game, GameError, Queries, QueryContext, QueryError,
};
use nimrod::pipeline::{self, BuildOptions, Config, Job, JobContext, Planner};
use nimrod::table::writer::write_ranked;
use nimrod::table::{Table, TableMeta};

struct Take3;

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Take3Params {
    bound: u64,
}

impl Planner for Take3 {
    fn name(&self) -> &'static str {
        "take3"
    }

    fn plan(&self, source: &str, section: &toml::Table) -> Result<Vec<Job>> {
        let p: Take3Params = pipeline::game_params(source, "take3", section)?;
        ensure!(
            (1..=1_000_000).contains(&p.bound),
            "{source}: [take3] bound = {} is out of range (1 ..= 1000000)",
            p.bound
        );
        Ok(vec![Job {
            id: "take3/values".into(),
            deps: vec![],
            params: serde_json::json!({ "bound": p.bound }),
            run: Box::new(move |ctx| build(ctx, p.bound)),
            parts: None,
        }])
    }
}

/// The values by the recursion, not by the n mod 4 rule the test checks.
fn build(ctx: &JobContext, bound: u64) -> Result<()> {
    let mut win = vec![0u8; bound as usize + 1];
    for n in 1..=bound as usize {
        win[n] = u8::from((1..=3.min(n)).any(|k| win[n - k] == 0));
    }
    let meta = TableMeta {
        game: "take3".into(),
        table: "values".into(),
        params: ctx.params.clone(),
        index: "heap".into(),
        entry: "u8 1 = the player to move wins".into(),
        tool_version: "test".into(),
        stats: serde_json::json!({}),
        job: Some(ctx.stamp()),
    };
    write_ranked(&ctx.output, &win, &meta, ctx.param_hash)?;
    Ok(())
}

impl Game for Take3 {
    fn name(&self) -> &'static str {
        "take3"
    }

    fn planner(&self) -> Option<&dyn Planner> {
        Some(self)
    }

    fn summary(&self) -> &'static str {
        "take one to three tokens"
    }

    fn verify(&self, table: &Table) -> Result<(), GameError> {
        let v = table.read_range::<u8>(0, table.len())?;
        if v.first() != Some(&0) {
            return Err(anyhow::anyhow!("heap 0 must be lost").into());
        }
        Ok(())
    }
}

/// `query take3 HEAP`.
#[derive(clap::Parser)]
struct Take3Query {
    /// Tokens on the heap.
    heap: u64,
}

#[derive(serde::Serialize)]
struct Take3Answer {
    heap: u64,
    wins: bool,
}

impl std::fmt::Display for Take3Answer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "heap {}: {}",
            self.heap,
            if self.wins { "win" } else { "loss" }
        )
    }
}

impl Queries for Take3 {
    type Query = Take3Query;

    fn query(&self, q: &Take3Query, ctx: &QueryContext) -> Result<Answer, GameError> {
        let t = games::query::open_table(&ctx.data_dir, "take3/values")?;
        if q.heap >= t.len() {
            return Err(GameError::input(anyhow::anyhow!(
                "heap {} is beyond the table",
                q.heap
            )));
        }
        Ok(Answer::of(&Take3Answer {
            heap: q.heap,
            wins: t.get::<u8>(q.heap)? == 1,
        }))
    }
}

#[test]
fn a_game_added_outside_the_crate_builds_and_answers_typed_and_from_strings() {
    let dir = tempfile::tempdir().unwrap();
    let config = Config::parse("take3.toml", "[take3]\nbound = 100\n").unwrap();
    let report = pipeline::run_build(
        &config,
        &[&Take3],
        &BuildOptions {
            data_dir: dir.path().to_path_buf(),
            only: vec![],
            force: false,
            force_dependencies: false,
            threads: Some(1),
            shard: None,
            memory_budget: None,
        },
    )
    .unwrap();
    assert_eq!(report.outcomes.len(), 1, "one job planned and run");
    let table = Table::open(&dir.path().join("take3/values.nmt")).unwrap();
    table.verify().unwrap();
    Take3.verify(&table).unwrap();

    let ctx = QueryContext {
        data_dir: dir.path().to_path_buf(),
    };
    for heap in 0..=100 {
        let typed = Take3.query(&Take3Query { heap }, &ctx).unwrap();
        assert_eq!(typed.json()["wins"], heap % 4 != 0, "heap {heap}");
        let parsed = games::ask(&Take3, &[heap.to_string()], &ctx).unwrap();
        assert_eq!(parsed.text(), typed.text());
    }
    // The adapter turns a bad argument into a typed usage error, and a
    // question the game refuses into a failure naming the problem.
    match games::ask(&Take3, &["x".into()], &ctx) {
        Err(QueryError::Usage(u)) => assert!(!u.help && u.text.contains("'x'"), "{}", u.text),
        other => panic!(
            "expected a usage error, got {:?}",
            other.map(|a| a.text().to_string())
        ),
    }
    match games::ask(&Take3, &["--help".into()], &ctx) {
        Err(QueryError::Usage(u)) => assert!(u.help && u.text.contains("Tokens on the heap")),
        other => panic!(
            "expected help, got {:?}",
            other.map(|a| a.text().to_string())
        ),
    }
    match games::ask(&Take3, &["101".into()], &ctx) {
        Err(QueryError::Game(e)) => {
            assert_eq!(e.kind(), ErrorKind::Input);
            assert!(e.to_string().contains("beyond the table"), "{e}");
        }
        other => panic!(
            "expected bad input, got {:?}",
            other.map(|a| a.text().to_string())
        ),
    }
    // A missing table is told apart from bad input, by kind.
    let empty = tempfile::tempdir().unwrap();
    let nowhere = QueryContext {
        data_dir: empty.path().to_path_buf(),
    };
    match Take3.query(&Take3Query { heap: 1 }, &nowhere) {
        Err(e) => {
            assert_eq!(e.kind(), ErrorKind::TableMissing, "{e}");
            assert_eq!(e.kind().exit_code(), 4);
        }
        Ok(_) => panic!("answered from an empty directory"),
    }
    assert!(Take3.play_command().is_none(), "Take3 does not play");
}
