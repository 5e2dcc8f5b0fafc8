//! Reading built tables: the value of any position whose material has a
//! table (colours flipped when the named stronger side is black), used by
//! the solver for captures and promotions and by `query`.

use super::board::{Board, Color, Move};
use super::index::{Layout, PAWN_LAYOUT};
use super::material::Material;
use super::jobs::TableJob;
use super::value::{Value, Values, NARROW_DESCRIPTION, VALUE_FORMAT, WIDE_DESCRIPTION};
use crate::games::query::{open_table, params_of};
use crate::table::shared::zeroed_atomic_bytes;
use crate::table::shipped::ShippedTable;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::OnceLock;
use crate::table::{EntryKind, Table};
use anyhow::{anyhow, bail, ensure, Result};
use std::path::Path;

/// Where an opened table's values come from.
pub enum Storage {
    /// Every entry stored (a raw table, or a packed one).
    Table(Table),
    /// The shipping form (`ship`): one side to move stored, the other
    /// restored by a one-ply search at probe time.
    Shipped {
        /// The file.
        file: ShippedTable,
        /// The side to move it stores.
        kept: Color,
        /// Values resolved so far, when the table's entries fit the cache
        /// budget (see `Resolved`).
        resolved: OnceLock<Option<Resolved>>,
    },
}

impl Storage {
    /// A shipped table's storage.
    pub fn shipped(file: ShippedTable, kept: Color) -> Storage {
        Storage::Shipped {
            file,
            kept,
            resolved: OnceLock::new(),
        }
    }
}

/// The values of a shipped table resolved by probes so far (a probe of
/// the side not stored searches every move; of the stored side, its
/// conversions), one entry a slot as the raw table stores it plus a
/// known bit. Kept only when the raw entries fit the frame cache budget
/// (`table::pack::cache_budget`), so it is bounded as the block cache is;
/// its pages are taken as they are first written.
pub struct Resolved {
    entries: Box<[AtomicU8]>,
    known: Box<[AtomicU8]>,
}

impl Resolved {
    fn new(slots: u64, width: usize) -> Option<Resolved> {
        let bytes = (slots as usize).checked_mul(width)?;
        (bytes <= crate::table::pack::cache_budget()).then(|| Resolved {
            entries: zeroed_atomic_bytes(bytes),
            known: zeroed_atomic_bytes((slots as usize).div_ceil(8)),
        })
    }

    fn get(&self, slot: u64, wide: bool) -> Option<Value> {
        let s = slot as usize;
        if self.known[s / 8].load(Ordering::Acquire) & (1 << (s % 8)) == 0 {
            return None;
        }
        Some(if wide {
            Value::decode_wide(u16::from_le_bytes([
                self.entries[2 * s].load(Ordering::Relaxed),
                self.entries[2 * s + 1].load(Ordering::Relaxed),
            ]))
        } else {
            Value::decode(self.entries[s].load(Ordering::Relaxed))
        })
    }

    /// Two threads resolving one slot write the same value, so a race
    /// between them is harmless; the known bit is set after the value with
    /// release ordering, and read before it with acquire.
    fn set(&self, slot: u64, wide: bool, v: Value) {
        let s = slot as usize;
        if wide {
            let Some(code) = v.encode_wide() else { return };
            let [lo, hi] = code.to_le_bytes();
            self.entries[2 * s].store(lo, Ordering::Relaxed);
            self.entries[2 * s + 1].store(hi, Ordering::Relaxed);
        } else {
            let Some(code) = v.encode() else { return };
            self.entries[s].store(code, Ordering::Relaxed);
        }
        self.known[s / 8].fetch_or(1 << (s % 8), Ordering::Release);
    }
}

/// One opened table and its ranking.
pub struct Loaded {
    /// The ranking of its material.
    pub layout: Layout,
    /// Its values.
    pub storage: Storage,
    /// Two-byte values.
    pub wide: bool,
    /// A WDL-form table (`ship::Form::Wdl`): its values are classes.
    pub wdl_only: bool,
}

impl Loaded {
    /// The table, when every entry is stored (raw or packed).
    pub fn table(&self) -> Option<&Table> {
        match &self.storage {
            Storage::Table(t) => Some(t),
            Storage::Shipped { .. } => None,
        }
    }

    /// The file it was opened from.
    pub fn path(&self) -> &Path {
        match &self.storage {
            Storage::Table(t) => t.path(),
            Storage::Shipped { file, .. } => file.path(),
        }
    }

    /// The entry stored at `slot`: the table's value, or in a shipped table
    /// what the stored side keeps (see `ship`), which a probe completes.
    fn stored_at(&self, slot: u64) -> Result<Value> {
        Ok(match (&self.storage, self.wide) {
            (Storage::Table(t), false) => Value::decode(t.get::<u8>(slot)?),
            (Storage::Table(t), true) => Value::decode_wide(t.get::<u16>(slot)?),
            (Storage::Shipped { file, .. }, false) => Value::decode(file.stored::<u8>(slot)?),
            (Storage::Shipped { file, .. }, true) => Value::decode_wide(file.stored::<u16>(slot)?),
        })
    }

    /// The value stored at `slot` of a raw or packed table; a shipped
    /// table's values exist only through [`Tablebase::value_in`].
    pub fn value_at(&self, slot: u64) -> Result<Value> {
        ensure!(
            self.table().is_some(),
            "{}: a shipped table's slots are answered through its tablebase",
            self.path().display()
        );
        self.stored_at(slot)
    }

    /// The entry stored for `b` (of this table's material and colours):
    /// in a shipped table, what its stored side keeps, which a probe
    /// completes (see `ship`).
    pub(super) fn stored(&self, b: &Board) -> Result<Value> {
        self.stored_at(self.slot(b))
    }

    fn slot(&self, b: &Board) -> u64 {
        let side = if b.turn == Color::White { 0 } else { 1 };
        side * self.layout.positions + self.layout.index(b)
    }
}

/// All of a chess table's values, read whole, once its format is checked.
pub fn read_values(table: &Table) -> Result<Values> {
    Ok(if value_format(table)? {
        Values::Wide(table.read_range::<u16>(0, table.len())?)
    } else {
        Values::Narrow(table.read_range::<u8>(0, table.len())?.into())
    })
}

/// Whether a chess table is of the value format this build reads, and
/// whether its values are two bytes: an error saying how to rebuild it
/// otherwise.
pub fn value_format(table: &Table) -> Result<bool> {
    value_format_of(table.path(), table.meta(), table.header())
}

/// [`value_format`] on a table's parts (a shipped table has no `Table`).
pub fn value_format_of(
    path: &Path,
    meta: &crate::table::TableMeta,
    header: &crate::table::Header,
) -> Result<bool> {
    let job: TableJob = params_of(path, meta)?;
    let name = &job.material;
    ensure!(
        job.values == VALUE_FORMAT,
        "{}: a chess table in value format {} (written before nimrod could store distances past one byte); this nimrod reads format {VALUE_FORMAT}. Rebuild it: `nimrod build --only chess/{name}` with the config that made it (its parameters changed, so the pipeline rebuilds it and, first, any of its dependencies that are old too)",
        path.display(),
        job.values
    );
    let pawns = Material::parse(name).map(|m| m.has_pawns()).unwrap_or(false);
    ensure!(
        !pawns || job.layout == PAWN_LAYOUT,
        "{}: a chess table with pawns in index layout {} (the king pair ranked first); this nimrod ranks the pawns first (layout {PAWN_LAYOUT}). Rebuild it: `nimrod build --only chess/{name}` with the config that made it (its parameters changed, so the pipeline rebuilds it and, first, any of its dependencies that are old too)",
        path.display(),
        job.layout
    );
    let (wide, description) = match header.entry_kind {
        EntryKind::U8 => (false, NARROW_DESCRIPTION),
        EntryKind::U16 => (true, WIDE_DESCRIPTION),
        other => bail!(
            "{}: chess table {name} stores {} entries; chess values are u8 or u16",
            path.display(),
            other.name()
        ),
    };
    ensure!(
        meta.entry == description,
        "{}: chess table {name} describes its entries as \"{}\", not as its {} entries should be",
        path.display(),
        meta.entry,
        header.entry_kind.name()
    );
    Ok(wide)
}

/// A handful of tables, found by linear search over their material keys
/// (faster than hashing for the few tables a solve or query needs).
#[derive(Default)]
pub struct Tablebase {
    keys: Vec<u64>,
    tables: Vec<Loaded>,
    /// Whether WDL-form tables may be opened (`open_any`): then answers
    /// are exact as win/draw/loss only, once one is.
    accept_wdl: bool,
}

/// The job id of a material's table (`chess/KQvKR`).
pub fn table_id(m: &Material) -> String {
    format!("chess/{}", m.canonical().name())
}

impl Tablebase {
    /// Lets go of the mapped pages probed so far (they come back on the next
    /// probe): the resident set of a solve then holds one ply's probes, not
    /// every page ever touched.
    pub fn release_resident_pages(&self) {
        for t in &self.tables {
            if let Some(t) = t.table() {
                t.release_resident_pages();
            }
        }
    }

    /// Tells the system that these tables will be probed at random: a
    /// cold probe then reads one page (about 0.08 ms on this project's
    /// test machine) instead of the disk's read-ahead window around it
    /// (8 MiB there, 9 ms). For a program that probes a few positions;
    /// one that probes a table all over (a build, a verify) reads faster
    /// with the read-ahead.
    pub fn advise_random(&self) {
        for t in &self.tables {
            match &t.storage {
                Storage::Table(t) => t.advise_random(),
                Storage::Shipped { file, .. } => file.advise_random(),
            }
        }
    }

    /// How many tables are open.
    pub fn len(&self) -> usize {
        self.tables.len()
    }

    /// No table is open (bare kings still answer: a draw).
    pub fn is_empty(&self) -> bool {
        self.tables.is_empty()
    }

    /// Opens the tables of `materials` (canonical) from a data directory,
    /// raw, packed or shipped, and checks each holds what its name says.
    /// A WDL-form table (`nimrod pack --wdl`) is refused: it has no
    /// distances ([`Tablebase::open_any`] takes it).
    pub fn open(data_dir: &Path, materials: &[Material]) -> Result<Tablebase> {
        Tablebase::open_storage(Tablebase::default(), materials, |id| {
            open_storage(data_dir, id)
        })
    }

    /// [`Tablebase::open`], also taking WDL-form tables: when one is open
    /// ([`Tablebase::is_wdl_only`]) the tablebase answers win/draw/loss
    /// only ([`Tablebase::probe_wdl`], [`Tablebase::best_moves_wdl`]).
    pub fn open_any(data_dir: &Path, materials: &[Material]) -> Result<Tablebase> {
        Tablebase::open_storage(Tablebase::accepting_wdl(), materials, |id| {
            open_storage(data_dir, id)
        })
    }

    /// An empty tablebase that takes WDL-form tables.
    pub fn accepting_wdl() -> Tablebase {
        Tablebase {
            accept_wdl: true,
            ..Tablebase::default()
        }
    }

    /// Whether a WDL-form table is open: values are then exact as win,
    /// draw or loss only, and the distance-giving calls refuse.
    pub fn is_wdl_only(&self) -> bool {
        self.wdl_table().is_some()
    }

    /// The first open WDL-form table, if any (its values are classes,
    /// [`super::ship::wdl_class`]). Read from the tables themselves, so a
    /// WDL table replaced by a full one (`insert`) no longer counts.
    fn wdl_table(&self) -> Option<&Loaded> {
        self.tables.iter().find(|t| t.wdl_only)
    }

    /// Opens the tables of `materials` through `open` (given a job id, it
    /// returns that job's checked table: a build job passes its context's
    /// `open`, which knows the job's dependencies and data directory).
    pub fn open_with(
        materials: &[Material],
        open: impl Fn(&str) -> Result<Table>,
    ) -> Result<Tablebase> {
        Tablebase::open_storage(Tablebase::default(), materials, |id| {
            open(id).map(Storage::Table)
        })
    }

    fn open_storage(
        mut tb: Tablebase,
        materials: &[Material],
        open: impl Fn(&str) -> Result<Storage>,
    ) -> Result<Tablebase> {
        let mut todo: Vec<Material> = materials.iter().map(|m| m.canonical()).collect();
        let mut i = 0;
        while i < todo.len() {
            let m = todo[i];
            i += 1;
            if tb.keys.contains(&m.key()) {
                continue;
            }
            let storage = open(&table_id(&m))?;
            // A shipped table answers through the tables its captures
            // and promotions reach: they are opened too.
            if matches!(storage, Storage::Shipped { .. }) {
                todo.extend(m.successors().iter().map(|s| s.canonical()));
            }
            tb.insert(m, storage)?;
        }
        Ok(tb)
    }

    /// Adds the table of `m` (replacing one already open), after checking
    /// it holds the entries of that material.
    pub fn insert(&mut self, m: Material, storage: Storage) -> Result<()> {
        let m = m.canonical();
        let (path, meta, header) = match &storage {
            Storage::Table(t) => (t.path(), t.meta(), t.header()),
            Storage::Shipped { file, .. } => (file.path(), file.meta(), file.header()),
        };
        let wide = value_format_of(path, meta, header)?;
        let wdl_only = matches!(&storage, Storage::Shipped { file, .. } if file.is_reduced());
        ensure!(
            !wdl_only || self.accept_wdl,
            "{}: a WDL-form table (`nimrod pack --wdl`), which keeps win/draw/loss without distances; this reader needs the distances. Put the table's full form (raw, packed, or shipped without --wdl) in its place",
            path.display()
        );
        let layout = Layout::new(m);
        ensure!(
            header.entry_count == 2 * layout.positions,
            "{}: {} entries, expected {} for {}",
            path.display(),
            header.entry_count,
            2 * layout.positions,
            m
        );
        let loaded = Loaded {
            layout,
            storage,
            wide,
            wdl_only,
        };
        match self.keys.iter().position(|&k| k == m.key()) {
            Some(i) => self.tables[i] = loaded,
            None => {
                self.keys.push(m.key());
                self.tables.push(loaded);
            }
        }
        Ok(())
    }

    /// Opens a table and, transitively, every table its captures and
    /// promotions lead to.
    pub fn open_closure(data_dir: &Path, root: Material) -> Result<Tablebase> {
        Tablebase::open(data_dir, &closure(root))
    }

    /// [`Tablebase::open_closure`], also taking WDL-form tables (see
    /// [`Tablebase::open_any`]).
    pub fn open_closure_any(data_dir: &Path, root: Material) -> Result<Tablebase> {
        Tablebase::open_any(data_dir, &closure(root))
    }
}

/// A material and, transitively, every material its captures and
/// promotions lead to.
fn closure(root: Material) -> Vec<Material> {
    let mut all = vec![root.canonical()];
    let mut i = 0;
    while i < all.len() {
        for s in all[i].successors() {
            if !all.contains(&s) {
                all.push(s);
            }
        }
        i += 1;
    }
    all
}

impl Tablebase {

    /// The opened table of a material, if the tablebase holds it.
    pub fn get(&self, m: &Material) -> Option<&Loaded> {
        let key = m.key();
        let i = self.keys.iter().position(|&k| k == key)?;
        Some(&self.tables[i])
    }

    /// Value for the side to move of any legal board with a loaded table
    /// (bare kings are a draw).
    pub fn value(&self, b: &Board) -> Result<Value> {
        let m = Material::of(b);
        if m.pieces() == 2 {
            return Ok(Value::Draw);
        }
        let (m, board) = if m.white_is_weaker() {
            (m.flipped(), b.color_flipped())
        } else {
            (m, *b)
        };
        let t = self
            .get(&m)
            .ok_or_else(|| anyhow!("table {} is not loaded", m.name()))?;
        self.value_in(t, &board)
    }

    /// Value of a board of exactly `t`'s material and colours.
    pub fn value_in(&self, t: &Loaded, b: &Board) -> Result<Value> {
        let Storage::Shipped { kept, resolved, .. } = &t.storage else {
            return t.stored_at(t.slot(b));
        };
        let slot = t.slot(b);
        let resolved = resolved
            .get_or_init(|| Resolved::new(2 * t.layout.positions, if t.wide { 2 } else { 1 }));
        if let Some(v) = resolved.as_ref().and_then(|r| r.get(slot, t.wide)) {
            return Ok(v);
        }
        let v = if b.turn == *kept {
            super::ship::stored_side_value(t, b, self)?
        } else {
            one_ply(b, |m| self.value_after(b, m))?
        };
        if let Some(r) = resolved {
            r.set(slot, t.wide, v);
        }
        Ok(v)
    }}

/// En passant in a position reached by a double push to `pushed_to`: the
/// best capture's value for the side to move (None when no capture is
/// legal) and whether that side has other moves. The tables store positions
/// without the right to capture en passant, as the public tablebases do;
/// the right is resolved here, at the move that creates it.
pub fn en_passant_option(
    child: &Board,
    pushed_to: u8,
    probe: &mut dyn FnMut(&Board) -> Value,
) -> Option<(Value, bool)> {
    let mut eps = Vec::new();
    child.en_passant_captures(pushed_to, &mut eps);
    let mut best: Option<Value> = None;
    for e in &eps {
        let v = probe(&child.play(e)).before_move();
        if best.is_none_or(|b| v.preference() > b.preference()) {
            best = Some(v);
        }
    }
    let best = best?;
    let mut others = Vec::new();
    child.legal_moves(&mut others);
    Some((best, !others.is_empty()))
}

/// The better of two values for the side to move.
pub fn better(a: Value, b: Value) -> Value {
    if b.preference() > a.preference() {
        b
    } else {
        a
    }
}

/// Value for the side to move in `position`, whose stored value is `stored`,
/// when the opponent's last move was a double push to `pushed` (None: no
/// en passant right): the better of the stored value (if the side has other
/// moves) and the best en passant capture.
pub fn with_en_passant(
    position: &Board,
    pushed: Option<u8>,
    stored: Value,
    probe: &mut dyn FnMut(&Board) -> Value,
) -> Value {
    let Some(sq) = pushed else {
        return stored;
    };
    match en_passant_option(position, sq, probe) {
        None => stored,
        Some((ep, true)) => better(stored, ep),
        Some((ep, false)) => ep,
    }
}

/// Value for the side to move in `child`, reached from its parent by `m`,
/// given its stored value: a double push may open an en passant capture.
pub fn after_move(
    child: &Board,
    m: &Move,
    stored: Value,
    probe: &mut dyn FnMut(&Board) -> Value,
) -> Value {
    with_en_passant(child, m.is_double_push().then_some(m.to), stored, probe)
}

/// The legal moves of `b`, with the en passant captures a double push to
/// `pushed` allows.
pub fn legal_moves(b: &Board, pushed: Option<u8>) -> Vec<Move> {
    let mut moves = Vec::new();
    b.legal_moves(&mut moves);
    if let Some(sq) = pushed {
        b.en_passant_captures(sq, &mut moves);
    }
    moves
}

impl Tablebase {
    /// A program's probe: the value for the side to move of a legal
    /// position whose table (and those its captures and promotions lead
    /// to) is open, without an en passant right (see
    /// [`Tablebase::value_with_en_passant`] for one). Bare kings are a draw.
    /// A table that is not open, or a damaged block, is an error, never a
    /// guess. Thread-safe: probe one `Tablebase` from as many threads as
    /// you like. A tablebase with a WDL-form table open refuses (its
    /// values have no distance): use [`Tablebase::probe_wdl`].
    pub fn probe(&self, b: &Board) -> Result<Value> {
        self.refuse_wdl()?;
        self.value(b)
    }

    /// +1 if the side to move wins, 0 draw, -1 loss, from full tables or
    /// WDL-form ones alike (otherwise as [`Tablebase::probe`]).
    pub fn probe_wdl(&self, b: &Board) -> Result<i32> {
        Ok(self.value(b)?.wdl())
    }

    fn refuse_wdl(&self) -> Result<()> {
        if let Some(t) = self.wdl_table() {
            bail!(
                "{}: a WDL-form table (`nimrod pack --wdl`) is open, so values have no distance; ask for win/draw/loss (probe_wdl, best_moves_wdl)",
                t.path().display()
            );
        }
        Ok(())
    }

    /// Every legal move of `b` (en passant after a double push to
    /// `pushed`) with its value for the side that plays it, best first:
    /// faster wins, then draws, then slower losses; ties in move
    /// generation order, so a position always lists the same way.
    pub fn best_moves(&self, b: &Board, pushed: Option<u8>) -> Result<Vec<(Move, Value)>> {
        self.refuse_wdl()?;
        self.rated(b, pushed)
    }

    /// Every legal move with its win/draw/loss for the side that plays it
    /// (+1, 0, -1), wins first, then draws, then losses. Full tables and
    /// WDL-form ones alike; within a class the order is
    /// [`Tablebase::best_moves`]'s where the distances are known (faster
    /// wins, slower losses first), else move generation order.
    pub fn best_moves_wdl(&self, b: &Board, pushed: Option<u8>) -> Result<Vec<(Move, i32)>> {
        Ok(self
            .rated(b, pushed)?
            .into_iter()
            .map(|(m, v)| (m, v.wdl()))
            .collect())
    }

    fn rated(&self, b: &Board, pushed: Option<u8>) -> Result<Vec<(Move, Value)>> {
        let mut rated = Vec::new();
        for m in legal_moves(b, pushed) {
            let v = self.value_after(b, &m)?.before_move();
            rated.push((m, v));
        }
        rated.sort_by_key(|(_, v)| std::cmp::Reverse(v.preference()));
        Ok(rated)
    }

    /// Value for the side to move after `m` is played in `b`.
    pub fn value_after(&self, b: &Board, m: &Move) -> Result<Value> {
        self.value_with_en_passant(&b.play(m), m.is_double_push().then_some(m.to))
    }

    /// Value for the side to move, with an en passant right when `pushed`
    /// names the pawn that has just advanced two squares.
    pub fn value_with_en_passant(&self, b: &Board, pushed: Option<u8>) -> Result<Value> {
        let stored = self.value(b)?;
        let mut err = None;
        let v = with_en_passant(b, pushed, stored, &mut |c| {
            self.value(c).unwrap_or_else(|e| {
                err = Some(e);
                Value::Draw
            })
        });
        match err {
            Some(e) => Err(e),
            None => Ok(v),
        }
    }
}

/// The table of job `id` under `data_dir`: raw or packed as a `Table`, or
/// the shipping form, each checked to be that job's table.
pub fn open_storage(data_dir: &Path, id: &str) -> Result<Storage> {
    match open_table(data_dir, id) {
        Ok(t) => Ok(Storage::Table(t)),
        Err(crate::table::TableError::Shipped { path }) => {
            let file = ShippedTable::open(&path)?;
            crate::table::check_identity_of(&path, file.meta(), file.header(), id)?;
            Ok(shipped_storage(file)?.1)
        }
        Err(e) => Err(e.into()),
    }
}

/// A shipped chess table's material and its storage, the side it stores
/// checked against the material's layout.
pub fn shipped_storage(file: ShippedTable) -> Result<(Material, Storage)> {
    let job: TableJob = params_of(file.path(), file.meta())?;
    let m = Material::parse(&job.material)?.canonical();
    let kept = super::ship::kept_side(&file, &Layout::new(m))?;
    Ok((m, Storage::shipped(file, kept)))
}

/// The value for the side to move of `b` from its moves one ply down:
/// `after(m)` is the value for the side to move once `m` is played.
/// Checkmate and stalemate need no probe.
pub fn one_ply(b: &Board, mut after: impl FnMut(&Move) -> Result<Value>) -> Result<Value> {
    let mut moves = Vec::with_capacity(64);
    b.legal_moves(&mut moves);
    let mut best = if b.in_check(b.turn) {
        Value::Loss(0)
    } else {
        Value::Draw
    };
    for (i, m) in moves.iter().enumerate() {
        let v = after(m)?.before_move();
        best = if i == 0 { v } else { better(best, v) };
    }
    Ok(best)
}
