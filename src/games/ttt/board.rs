//! m,n,k boards: geometry (winning lines, symmetries) and positions as two
//! bitmasks. Cell (r, c) is bit r·cols + c, row-major from the top left.

use anyhow::{bail, ensure, Result};

/// A symmetry as a map of (row, col).
type CellMap = dyn Fn(usize, usize) -> (usize, usize);

/// Largest board: 25 cells, so a position fits two u32 masks and a u64 key.
pub const MAX_CELLS: usize = 25;

#[derive(Clone, Debug)]
/// An m,n,k board: its size, its lines and its symmetries.
pub struct Geometry {
    /// Rows (m).
    pub rows: usize,
    /// Columns (n).
    pub cols: usize,
    /// Marks in a row that win (k).
    pub k: usize,
    /// Every k-in-a-row window as a cell mask.
    pub lines: Vec<u32>,
    /// Symmetries of the rectangle (8 for a square, 4 otherwise) as cell
    /// permutations: cell i goes to `perm[i]`. The identity is first.
    pub syms: Vec<[u8; MAX_CELLS]>,
}

impl Geometry {
    /// The board of `rows` × `cols` cells (at most `MAX_CELLS`) where `k` in a row wins.
    pub fn new(rows: usize, cols: usize, k: usize) -> Result<Geometry> {
        ensure!(
            rows >= 1 && cols >= 1 && rows.checked_mul(cols).is_some_and(|n| n <= MAX_CELLS),
            "board {rows}x{cols} is out of range (at most {MAX_CELLS} cells)"
        );
        ensure!(
            k >= 1 && k <= rows.max(cols),
            "k = {k} does not fit a {rows}x{cols} board"
        );
        let cell = |r: usize, c: usize| r * cols + c;
        let mut lines = Vec::new();
        let dirs: [(isize, isize); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];
        for r in 0..rows as isize {
            for c in 0..cols as isize {
                for (dr, dc) in dirs {
                    let end_r = r + dr * (k as isize - 1);
                    let end_c = c + dc * (k as isize - 1);
                    if end_r < 0 || end_r >= rows as isize || end_c < 0 || end_c >= cols as isize {
                        continue;
                    }
                    let mut m = 0u32;
                    for s in 0..k as isize {
                        m |= 1 << cell((r + dr * s) as usize, (c + dc * s) as usize);
                    }
                    if !lines.contains(&m) {
                        lines.push(m);
                    }
                }
            }
        }
        let mut maps: Vec<Box<CellMap>> = vec![
            Box::new(|r, c| (r, c)),
            Box::new(move |r, c| (r, cols - 1 - c)),
            Box::new(move |r, c| (rows - 1 - r, c)),
            Box::new(move |r, c| (rows - 1 - r, cols - 1 - c)),
        ];
        if rows == cols {
            let n = rows;
            maps.push(Box::new(|r, c| (c, r)));
            maps.push(Box::new(move |r, c| (c, n - 1 - r)));
            maps.push(Box::new(move |r, c| (n - 1 - c, r)));
            maps.push(Box::new(move |r, c| (n - 1 - c, n - 1 - r)));
        }
        let syms = maps
            .iter()
            .map(|f| {
                let mut p = [0u8; MAX_CELLS];
                for r in 0..rows {
                    for c in 0..cols {
                        let (r2, c2) = f(r, c);
                        p[cell(r, c)] = cell(r2, c2) as u8;
                    }
                }
                p
            })
            .collect();
        Ok(Geometry {
            rows,
            cols,
            k,
            lines,
            syms,
        })
    }

    /// "3x3k3" style name, also the table id suffix.
    pub fn name(&self) -> String {
        format!("{}x{}k{}", self.rows, self.cols, self.k)
    }

    /// The board a name such as `3x4k3` describes.
    pub fn parse_name(s: &str) -> Result<Geometry> {
        let bad = || anyhow::anyhow!("board {s:?}: expected ROWSxCOLSkK, e.g. 3x3k3");
        let (dims, k) = s.split_once('k').ok_or_else(bad)?;
        let (r, c) = dims.split_once('x').ok_or_else(bad)?;
        let num = |t: &str| t.parse::<usize>().map_err(|_| bad());
        Geometry::new(num(r)?, num(c)?, num(k)?)
    }

    /// Cells on the board.
    pub fn cells(&self) -> usize {
        self.rows * self.cols
    }
    /// The mask of every cell.
    pub fn full(&self) -> u32 {
        ((1u64 << self.cells()) - 1) as u32
    }

    /// Whether `marks` hold a whole line.
    pub fn has_line(&self, marks: u32) -> bool {
        self.lines.iter().any(|&l| l & !marks == 0)
    }

    /// The image of a cell mask under symmetry `sym`.
    pub fn transform(&self, sym: usize, mask: u32) -> u32 {
        let p = &self.syms[sym];
        let mut out = 0;
        let mut m = mask;
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            out |= 1 << p[i];
            m &= m - 1;
        }
        out
    }

    /// The inverse permutation's action (undoes `transform(sym, ·)`).
    pub fn untransform(&self, sym: usize, mask: u32) -> u32 {
        let p = &self.syms[sym];
        let mut out = 0;
        for (i, &to) in p[..self.cells()].iter().enumerate() {
            if mask >> to & 1 == 1 {
                out |= 1 << i;
            }
        }
        out
    }

    /// Canonical form of a position: the symmetric image with the smallest
    /// key, and the symmetry that produces it (lowest index on ties).
    pub fn canonical(&self, pos: Position) -> (Position, usize) {
        let mut best = (pos, 0);
        for s in 1..self.syms.len() {
            let t = Position {
                x: self.transform(s, pos.x),
                o: self.transform(s, pos.o),
            };
            if t.key() < best.0.key() {
                best = (t, s);
            }
        }
        best
    }
}

/// X's marks and O's marks. X moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Position {
    /// Cells marked by X.
    pub x: u32,
    /// Cells marked by O.
    pub o: u32,
}

impl Position {
    /// The position as one number (X's mask low, O's high).
    pub fn key(&self) -> u64 {
        self.x as u64 | (self.o as u64) << 32
    }
    /// The position a `key` stands for.
    pub fn from_key(key: u64) -> Position {
        Position {
            x: key as u32,
            o: (key >> 32) as u32,
        }
    }
    /// Whether X is to move (as many X marks as O marks).
    pub fn x_to_move(&self) -> bool {
        self.x.count_ones() == self.o.count_ones()
    }
    /// The mask of every marked cell.
    pub fn occupied(&self) -> u32 {
        self.x | self.o
    }
    /// The position after the side to move marks `cell`.
    pub fn play(&self, cell: usize) -> Position {
        if self.x_to_move() {
            Position {
                x: self.x | 1 << cell,
                o: self.o,
            }
        } else {
            Position {
                x: self.x,
                o: self.o | 1 << cell,
            }
        }
    }
    /// Marks of the side to move, then the opponent's.
    pub fn sides(&self) -> (u32, u32) {
        if self.x_to_move() {
            (self.x, self.o)
        } else {
            (self.o, self.x)
        }
    }
}

/// Why a board is not a position of the game.
pub fn check_legal(g: &Geometry, p: Position) -> Result<()> {
    let (nx, no) = (p.x.count_ones(), p.o.count_ones());
    ensure!(
        nx == no || nx == no + 1,
        "impossible mark counts: {nx} X and {no} O (X moves first, so X = O or X = O + 1)"
    );
    let (xw, ow) = (g.has_line(p.x), g.has_line(p.o));
    if xw && ow {
        bail!("both X and O have {} in a row", g.k);
    }
    if xw && nx == no {
        bail!("X has {} in a row but O has moved since", g.k);
    }
    if ow && nx > no {
        bail!("O has {} in a row but X has moved since", g.k);
    }
    Ok(())
}

/// Parses a board string: rows concatenated, `x`/`X`, `o`/`O`, `.`/`-`/`_`
/// for empty; `/` and spaces between rows are ignored.
pub fn parse_board(g: &Geometry, s: &str) -> Result<Position> {
    let mut p = Position::default();
    let mut i = 0;
    for ch in s.chars() {
        match ch {
            '/' | ' ' | '|' => continue,
            'x' | 'X' | 'o' | 'O' | '.' | '-' | '_' => {
                ensure!(
                    i < g.cells(),
                    "board {s:?} has more than {} cells",
                    g.cells()
                );
                match ch {
                    'x' | 'X' => p.x |= 1 << i,
                    'o' | 'O' => p.o |= 1 << i,
                    _ => {}
                }
                i += 1;
            }
            other => bail!("board {s:?}: unexpected character {other:?} (use x, o and .)"),
        }
    }
    ensure!(
        i == g.cells(),
        "board {s:?} has {i} cells, a {}x{} board has {}",
        g.rows,
        g.cols,
        g.cells()
    );
    Ok(p)
}

/// The position as rows of `x`, `o` and `.` joined by `/`.
pub fn render(g: &Geometry, p: Position) -> String {
    let mut s = String::new();
    for r in 0..g.rows {
        for c in 0..g.cols {
            let i = r * g.cols + c;
            s.push(if p.x >> i & 1 == 1 {
                'x'
            } else if p.o >> i & 1 == 1 {
                'o'
            } else {
                '.'
            });
        }
        if r + 1 < g.rows {
            s.push('/');
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_by_three_has_eight_lines_and_eight_symmetries() {
        let g = Geometry::new(3, 3, 3).unwrap();
        assert_eq!(g.lines.len(), 8);
        assert_eq!(g.syms.len(), 8);
        // Every symmetry maps lines to lines.
        for s in 0..8 {
            for &l in &g.lines {
                assert!(g.lines.contains(&g.transform(s, l)));
                assert_eq!(g.untransform(s, g.transform(s, l)), l);
            }
        }
        let g = Geometry::new(4, 4, 3).unwrap();
        assert_eq!(g.lines.len(), 24);
        assert_eq!(Geometry::new(3, 4, 3).unwrap().syms.len(), 4);
    }

    #[test]
    fn illegal_boards_are_named() {
        let g = Geometry::new(3, 3, 3).unwrap();
        let e = |s: &str| {
            check_legal(&g, parse_board(&g, s).unwrap())
                .unwrap_err()
                .to_string()
        };
        assert!(e("xx.......").contains("mark counts"));
        assert!(e("xxxooo...").contains("both"));
        assert!(e("xxxoo.o..").contains("X has 3 in a row but O"));
        assert!(parse_board(&g, "x.o").is_err());
        assert!(parse_board(&g, "x.o.x...z").is_err());
    }
}
