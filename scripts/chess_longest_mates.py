#!/usr/bin/env python3
"""The longest mates of a chess table set beside the published ones.

    scripts/chess_longest_mates.py FIGURES_CSV [PIECES] > table.md

FIGURES_CSV is the output of scripts/chess_set_figures.py (per table its
longest win with White and with Black to move, from the tables' own
statistics). PIECES (default 5) picks the tables. Two published sources:

- the Gaviota test vectors (../shared/oracles/chess/vectors/endgame-dm-*.epd,
  positions picked by Gaviota's author with their distance to mate): for
  every vector that is a win for the side to move, its table and side;
- H. Conrady's highlights of the longest Nalimov mates (Computer Chess
  Club, 2000-06-01), in plies, listed in CONRADY below.

A vector's mate is a lower bound on the table's longest: ours must not be
shorter, and where it is equal the vector is the table's record. Prints a
Markdown table and a summary line; exits 1 if any of our longest mates is
shorter than a published one for the same table and side.
"""
import csv
import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
VECTORS = os.path.join(ROOT, "../shared/oracles/chess/vectors")
ORDER = "QRBNP"
# Table, side to move (w: the first-named side): his figure, in plies.
CONRADY = {
    ("KPvK", "w"): "56 plies",
    ("KRvKP", "b"): "85 plies",
    ("KBNvKN", "w"): "213 plies",
    # Even: counted from a position with the mated side to move. Ours:
    # Black to move is mated in 127 moves (254 plies) at most, in 14
    # positions (`nimrod info`: black_to_move.longest_loss).
    ("KPPvKP", "w"): "254 plies, the mated side to move (ours: Black mated in 127 = 254 plies)",
}


def material(fen):
    board = fen.split()[0]
    white = "".join(sorted((c for c in board if c in ORDER), key=ORDER.index))
    black = "".join(sorted((c.upper() for c in board if c in ORDER.lower()), key=ORDER.index))
    return "K" + white, "K" + black


def vectors(tables):
    """(table, side) -> longest mate (moves) among the vectors that win."""
    found = {}
    if not os.path.isdir(VECTORS):
        return found
    for name in sorted(os.listdir(VECTORS)):
        if not (name.startswith("endgame-dm-") and name.endswith(".epd")):
            continue
        for line in open(os.path.join(VECTORS, name)):
            if line.startswith("#") or " dm " not in line:
                continue
            fen, rest = line.split(" dm ", 1)
            dm = int(rest.split(";")[0])
            if dm <= 0:
                continue
            white, black = material(fen)
            side = fen.split()[1]
            table = f"{white}v{black}"
            if table not in tables:
                table, side = f"{black}v{white}", "b" if side == "w" else "w"
            if table in tables:
                found[(table, side)] = max(found.get((table, side), 0), dm)
    return found


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: chess_longest_mates.py FIGURES_CSV [PIECES]")
    pieces = sys.argv[2] if len(sys.argv) > 2 else "5"
    rows = {r["table"]: r for r in csv.DictReader(open(sys.argv[1])) if r["pieces"] == pieces}
    vec = vectors(rows)
    if not vec:
        print(f"(no Gaviota vectors found in {VECTORS})")
    print("| table | longest win, White to move | longest win, Black to move | published |")
    print("| --- | --- | --- | --- |")
    equal = shorter = published = 0
    for table in sorted(rows, key=lambda t: (-max(int(rows[t]["longest_win_white_moves"] or 0),
                                                  int(rows[t]["longest_win_black_moves"] or 0)), t)):
        r = rows[table]
        ours = {"w": int(r["longest_win_white_moves"] or 0), "b": int(r["longest_win_black_moves"] or 0)}
        notes = []
        for side, who in (("w", "White"), ("b", "Black")):
            if (table, side) in vec:
                dm = vec[(table, side)]
                published += 1
                verdict = "equal" if dm == ours[side] else ("OURS SHORTER" if ours[side] < dm else "ours longer")
                equal += dm == ours[side]
                shorter += ours[side] < dm
                notes.append(f"Gaviota vector, {who} to move: mate in {dm} ({verdict})")
            if (table, side) in CONRADY:
                notes.append(f"Conrady: {CONRADY[(table, side)]}")
        cell = lambda m: f"mate in {m} ({2 * m - 1} plies)" if m else "none"
        print(f"| {table} | {cell(ours['w'])} | {cell(ours['b'])} | {'; '.join(notes)} |")
    print()
    print(f"{len(rows)} tables; {published} published longest-mate figures (table and side): "
          f"{equal} equal to ours, {shorter} longer than ours")
    sys.exit(1 if shorter else 0)


if __name__ == "__main__":
    main()
