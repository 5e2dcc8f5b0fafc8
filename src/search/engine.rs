//! The full searcher: iterative deepening over negamax alpha-beta with
//! principal-variation (null-window) search, a transposition table, killer
//! and history ordering, null-move pruning, aspiration windows, quiescence
//! and table probes, each switchable, under a node budget.

use super::tt::{from_stored, to_stored, Bound, Entry, Table};
use super::{ended_score, Position, Score, INFINITY, WIN, WIN_BOUND};

/// Which techniques a search uses. `Default` is plain alpha-beta (one
/// search to the full depth).
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Principal-variation search: every move after the first is tried
    /// with a null window and searched again only if it might be better.
    pub pvs: bool,
    /// log2 of the transposition table's bucket count; None: no table.
    pub tt_bits: Option<u32>,
    /// Try the table's move, then killers (two quiet cut-off moves per
    /// ply), then moves by history score.
    pub ordering: bool,
    /// Null-move pruning with this depth reduction, where the position
    /// allows it.
    pub null_move: Option<u32>,
    /// Start each iteration with a window of ± this around the previous
    /// score, widening on failure.
    pub aspiration: Option<Score>,
    /// Search noisy moves beyond the horizon.
    pub quiescence: bool,
    /// Stop after this many nodes; the result is then the last completed
    /// iteration's, marked incomplete.
    pub node_budget: Option<u64>,
    /// Stop once this much wall-clock time has passed (checked every 1,024
    /// nodes). Unlike a node budget this is not deterministic: the same
    /// position may get a different move on a busier machine.
    pub time_budget: Option<std::time::Duration>,
    /// Search the full depth at once instead of deepening 1, 2, … (for
    /// exact solving, where shallow iterations only order moves).
    pub no_deepening: bool,
}

impl Options {
    /// Everything but null-move pruning, which may cut a line whose true
    /// score differs from the bound it returns: what a search reporting
    /// proven results uses.
    pub fn exact(bits: u32) -> Options {
        Options {
            null_move: None,
            ..Options::all(bits)
        }
    }

    /// Everything on, with a table of 2^bits buckets.
    pub fn all(bits: u32) -> Options {
        Options {
            pvs: true,
            tt_bits: Some(bits),
            ordering: true,
            null_move: Some(2),
            aspiration: Some(50),
            quiescence: true,
            node_budget: None,
            time_budget: None,
            no_deepening: false,
        }
    }
}

/// Counters per technique, summed over the iterations.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Stats {
    /// Positions visited by the main search.
    pub nodes: u64,
    /// Positions evaluated statically.
    pub leaves: u64,
    /// Positions visited by quiescence.
    pub quiescence_nodes: u64,
    /// Transposition-table look-ups.
    pub tt_probes: u64,
    /// Look-ups that found the position.
    pub tt_hits: u64,
    /// Cut-offs by a stored bound.
    pub tt_cutoffs: u64,
    /// Beta cut-offs.
    pub beta_cutoffs: u64,
    /// Cut-offs by the first move tried (a measure of ordering quality).
    pub first_move_cutoffs: u64,
    /// Null-window searches searched again with a full window.
    pub pvs_researches: u64,
    /// Null moves tried.
    pub null_tries: u64,
    /// Null moves that cut off.
    pub null_cutoffs: u64,
    /// Aspiration windows that failed.
    pub aspiration_failures: u64,
    /// Positions answered by `Position::probe` (endgame tables).
    pub table_probes: u64,
    /// Iterations of iterative deepening.
    pub iterations: u32,
}

#[derive(Clone, Debug)]
/// What a search found.
pub struct SearchResult<M> {
    /// The score for the side to move.
    pub score: Score,
    /// The best move, if the position has one.
    pub best: Option<M>,
    /// The principal variation read back from the transposition table
    /// (just the best move without one).
    pub pv: Vec<M>,
    /// Depth of the last completed iteration.
    pub depth: u32,
    /// False when the budget ran out before the requested depth.
    pub complete: bool,
    /// The counters.
    pub stats: Stats,
}

impl<M> SearchResult<M> {
    /// True when the score is a proven result (a win or a loss), not an
    /// evaluation. Its distance is exact only when `distance_exact`; else it
    /// is an upper bound (see there).
    pub fn proven(&self) -> bool {
        self.score.abs() >= WIN_BOUND
    }

    /// Plies to the end of a proven result (None for an evaluation).
    pub fn distance(&self) -> Option<u32> {
        distance(self.score)
    }

    /// Whether a proven result's distance is exact: it is no longer than
    /// the depth searched in full. Every line of that many plies was
    /// searched, so a shorter mate (or a longer defence) within it would
    /// have been seen; a mate found only through a table probe beyond the
    /// horizon may have a shorter one outside the tables (a line keeping
    /// castling rights, say), so its distance is only an upper bound (the
    /// winner can do at least that well, the loser at least that badly).
    pub fn distance_exact(&self) -> bool {
        exact_within(self.score, self.depth)
    }
}

/// Plies to the end of a proven score (None for an evaluation).
fn distance(score: Score) -> Option<u32> {
    (score.abs() >= WIN_BOUND).then(|| (WIN - score.abs()) as u32)
}

/// Whether `score` is proven with a distance a full search to `depth`
/// plies covers, so that it is exact (see `SearchResult::distance_exact`).
fn exact_within(score: Score, depth: u32) -> bool {
    distance(score).is_some_and(|d| d <= depth)
}

struct OutOfBudget;

/// A search engine for positions of type `P`, keeping its tables between searches.
pub struct Engine<P: Position> {
    opts: Options,
    tt: Option<Table<P::Move>>,
    killers: Vec<[Option<P::Move>; 2]>,
    history: Vec<u64>,
    stats: Stats,
    /// Move lists per ply, reused: no allocation per node.
    lists: Vec<Vec<P::Move>>,
    root_best: Option<P::Move>,
    deadline: Option<std::time::Instant>,
}

impl<P: Position> Engine<P> {
    /// An engine with these options (the transposition table allocated once).
    pub fn new(opts: Options) -> Engine<P> {
        Engine {
            tt: opts.tt_bits.map(Table::new),
            opts,
            killers: Vec::new(),
            history: Vec::new(),
            stats: Stats::default(),
            lists: Vec::new(),
            root_best: None,
            deadline: None,
        }
    }

    /// Iterative deepening to `max_depth` plies (1, 2, …, max_depth; a plain
    /// search of that depth when deepening is pointless without a table or
    /// ordering). Fresh tables and counters per call.
    pub fn search(&mut self, p: &mut P, max_depth: u32) -> SearchResult<P::Move> {
        self.stats = Stats::default();
        self.deadline = self.opts.time_budget.map(|d| std::time::Instant::now() + d);
        if let Some(t) = &mut self.tt {
            t.clear();
        }
        self.history = vec![0; p.move_slots()];
        self.killers = vec![[None, None]; max_depth as usize + 2];
        let deepen = !self.opts.no_deepening
            && (self.opts.ordering || self.tt.is_some() || self.opts.aspiration.is_some());
        let first = if deepen { 1 } else { max_depth.max(1) };
        let mut done: Option<(Score, Option<P::Move>, u32)> = None;
        for depth in first..=max_depth.max(1) {
            let prev = done.map(|d| d.0);
            let r = match (self.opts.aspiration, prev) {
                (Some(w), Some(s)) if s.abs() < WIN_BOUND => self.aspirated(p, depth, s, w),
                _ => self.root(p, depth, -INFINITY, INFINITY),
            };
            match r {
                Ok((s, m)) => {
                    done = Some((s, m, depth));
                    self.stats.iterations += 1;
                    // A proven result within the depth searched is exact
                    // and does not change with more depth. One beyond it came
                    // through a table probe and may be beaten by a shorter
                    // line: deepen on until the depth covers it.
                    if exact_within(s, depth) {
                        break;
                    }
                }
                Err(OutOfBudget) => break,
            }
        }
        let (score, best, depth) = done.unwrap_or((0, None, 0));
        let complete = depth == max_depth.max(1) || (depth > 0 && exact_within(score, depth));
        SearchResult {
            score,
            best,
            pv: self.pv(p, best, depth),
            depth,
            complete,
            stats: self.stats,
        }
    }

    fn aspirated(
        &mut self,
        p: &mut P,
        depth: u32,
        guess: Score,
        width: Score,
    ) -> Result<(Score, Option<P::Move>), OutOfBudget> {
        let (mut lo, mut hi) = (guess - width, guess + width);
        loop {
            let (s, m) = self.root(p, depth, lo, hi)?;
            if s <= lo {
                self.stats.aspiration_failures += 1;
                lo = -INFINITY;
            } else if s >= hi {
                self.stats.aspiration_failures += 1;
                hi = INFINITY;
            } else {
                return Ok((s, m));
            }
        }
    }

    fn root(
        &mut self,
        p: &mut P,
        depth: u32,
        alpha: Score,
        beta: Score,
    ) -> Result<(Score, Option<P::Move>), OutOfBudget> {
        let s = self.node(p, depth, 0, alpha, beta, true)?;
        let best = self
            .tt
            .as_ref()
            .and_then(|t| t.probe(p.key()))
            .and_then(|e| e.best)
            .or(self.root_best);
        Ok((s, best))
    }

    fn count(&mut self) -> Result<(), OutOfBudget> {
        self.stats.nodes += 1;
        match self.opts.node_budget {
            Some(b) if self.stats.nodes > b => return Err(OutOfBudget),
            _ => {}
        }
        match self.deadline {
            Some(d) if self.stats.nodes.is_multiple_of(1024) && std::time::Instant::now() >= d => {
                Err(OutOfBudget)
            }
            _ => Ok(()),
        }
    }

    fn list(&mut self, ply: u32) -> Vec<P::Move> {
        let i = ply as usize;
        if self.lists.len() <= i {
            self.lists.resize_with(i + 1, Vec::new);
        }
        let mut v = std::mem::take(&mut self.lists[i]);
        v.clear();
        v
    }

    fn give_back(&mut self, ply: u32, v: Vec<P::Move>) {
        self.lists[ply as usize] = v;
    }

    #[allow(clippy::too_many_arguments)]
    fn node(
        &mut self,
        p: &mut P,
        depth: u32,
        ply: u32,
        mut alpha: Score,
        beta: Score,
        allow_null: bool,
    ) -> Result<Score, OutOfBudget> {
        self.count()?;
        if let Some(e) = p.ended() {
            self.stats.leaves += 1;
            return Ok(ended_score(e, ply));
        }
        if ply > 0 {
            if let Some(s) = p.probe() {
                self.stats.table_probes += 1;
                self.stats.leaves += 1;
                return Ok(from_stored(s, ply));
            }
        }
        if depth == 0 {
            return self.quiesce(p, ply, alpha, beta);
        }
        let original_alpha = alpha;
        let key = p.key();
        let mut hash_move = None;
        if let Some(t) = &self.tt {
            self.stats.tt_probes += 1;
            if let Some(e) = t.probe(key) {
                self.stats.tt_hits += 1;
                hash_move = e.best;
                if e.depth >= depth && ply > 0 {
                    let s = from_stored(e.score, ply);
                    let usable = match e.bound {
                        Bound::Exact => true,
                        Bound::Lower => s >= beta,
                        Bound::Upper => s <= alpha,
                    };
                    if usable {
                        self.stats.tt_cutoffs += 1;
                        return Ok(s);
                    }
                }
            }
        }
        if let Some(r) = self.opts.null_move {
            if allow_null && ply > 0 && depth > r && beta < WIN_BOUND && p.null_move_allowed() {
                self.stats.null_tries += 1;
                p.make_null();
                let s = self.node(p, depth - 1 - r, ply + 1, -beta, -beta + 1, false);
                p.unmake_null();
                let s = -s?;
                if s >= beta {
                    self.stats.null_cutoffs += 1;
                    return Ok(beta);
                }
            }
        }
        let mut moves = self.list(ply);
        p.moves(&mut moves);
        if self.opts.ordering {
            self.order(p, &mut moves, hash_move, ply);
        }
        let mut best = -INFINITY;
        let mut best_move = None;
        let mut result = Ok(());
        for (i, &m) in moves.iter().enumerate() {
            p.make(m);
            let s = if i == 0 || !self.opts.pvs {
                self.node(p, depth - 1, ply + 1, -beta, -alpha, true)
                    .map(|s| -s)
            } else {
                match self.node(p, depth - 1, ply + 1, -alpha - 1, -alpha, true) {
                    Ok(s) if -s > alpha && -s < beta => {
                        self.stats.pvs_researches += 1;
                        self.node(p, depth - 1, ply + 1, -beta, -alpha, true)
                            .map(|s| -s)
                    }
                    r => r.map(|s| -s),
                }
            };
            p.unmake(m);
            let s = match s {
                Ok(s) => s,
                Err(e) => {
                    result = Err(e);
                    break;
                }
            };
            if s > best {
                best = s;
                best_move = Some(m);
            }
            if s > alpha {
                alpha = s;
            }
            if alpha >= beta {
                self.stats.beta_cutoffs += 1;
                if i == 0 {
                    self.stats.first_move_cutoffs += 1;
                }
                if self.opts.ordering {
                    let k = &mut self.killers[ply as usize];
                    if k[0] != Some(m) {
                        k[1] = k[0];
                        k[0] = Some(m);
                    }
                    self.history[p.move_slot(m)] += u64::from(depth) * u64::from(depth);
                }
                break;
            }
        }
        self.give_back(ply, moves);
        result?;
        if ply == 0 {
            self.root_best = best_move;
        }
        if let Some(t) = &mut self.tt {
            let bound = if best <= original_alpha {
                Bound::Upper
            } else if best >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            t.store(Entry {
                key,
                score: to_stored(best, ply),
                depth,
                bound,
                best: best_move,
            });
        }
        Ok(best)
    }

    fn quiesce(
        &mut self,
        p: &mut P,
        ply: u32,
        mut alpha: Score,
        beta: Score,
    ) -> Result<Score, OutOfBudget> {
        let stand = p.evaluate();
        if !self.opts.quiescence {
            self.stats.leaves += 1;
            return Ok(stand);
        }
        if stand >= beta {
            self.stats.leaves += 1;
            return Ok(stand);
        }
        alpha = alpha.max(stand);
        let mut moves = self.list(ply);
        p.noisy_moves(&mut moves);
        if moves.is_empty() {
            self.stats.leaves += 1;
        }
        let mut best = stand;
        let mut result = Ok(());
        for &m in &moves {
            self.stats.quiescence_nodes += 1;
            if let Err(e) = self.count() {
                result = Err(e);
                break;
            }
            p.make(m);
            let s = match p.ended() {
                Some(e) => Ok(ended_score(e, ply + 1)),
                None => self.quiesce(p, ply + 1, -beta, -alpha).map(|s| -s),
            };
            p.unmake(m);
            let s = match s {
                Ok(s) => s,
                Err(e) => {
                    result = Err(e);
                    break;
                }
            };
            best = best.max(s);
            alpha = alpha.max(s);
            if alpha >= beta {
                break;
            }
        }
        self.give_back(ply, moves);
        result.map(|()| best)
    }

    /// Table move first, then killers, then by the game's hint, then by
    /// history (stable, so the game's own generation order breaks ties).
    fn order(&self, p: &P, moves: &mut [P::Move], hash: Option<P::Move>, ply: u32) {
        let k = self
            .killers
            .get(ply as usize)
            .copied()
            .unwrap_or([None, None]);
        moves.sort_by_cached_key(|&m| {
            let class = if Some(m) == hash {
                3
            } else if Some(m) == k[0] {
                2
            } else if Some(m) == k[1] {
                1
            } else {
                0
            };
            std::cmp::Reverse((class, p.order_hint(m), self.history[p.move_slot(m)]))
        });
    }

    fn pv(&self, p: &mut P, best: Option<P::Move>, depth: u32) -> Vec<P::Move> {
        let mut line = Vec::new();
        let Some(first) = best else {
            return line;
        };
        line.push(first);
        let Some(t) = &self.tt else {
            return line;
        };
        p.make(first);
        while line.len() < depth as usize && p.ended().is_none() {
            let Some(m) = t.probe(p.key()).and_then(|e| e.best) else {
                break;
            };
            let mut legal = Vec::new();
            p.moves(&mut legal);
            if !legal.contains(&m) {
                break;
            }
            p.make(m);
            line.push(m);
        }
        for &m in line.iter().rev() {
            p.unmake(m);
        }
        line
    }
}
