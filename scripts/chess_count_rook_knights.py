#!/usr/bin/env python3
"""Counts the legal positions of a table of a white king and rook, WHITE
white knights, a black king and BLACK black knights (knights of one side
alike), both sides to move, on the whole board (no symmetry), by
combinatorics: the side not to move is not in check, the kings do not
touch.

    scripts/chess_count_rook_knights.py [WHITE BLACK]   (default 1 2: KRNvKNN)

Prints `white_to_move N` and `black_to_move M`. A second opinion on the
`legal` counts of nimrod's statistics that shares no code with nimrod (no
move generator, no index); the tests check it on KRvK, KRvKN and KRNvK.
For KRNvKNN nimrod's statistics say 17,823,400,776 with White to move;
ChessBase's article on its 262-move mate is titled "Just one of
17,823,400,766 positions" (2002), ten fewer.
"""
import sys
from math import comb


def file_rank(s):
    return s % 8, s // 8


def touching(a, b):
    (fa, ra), (fb, rb) = file_rank(a), file_rank(b)
    return max(abs(fa - fb), abs(ra - rb)) <= 1


def knight_squares(s):
    f, r = file_rank(s)
    steps = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]
    return {(r + dr) * 8 + f + df for df, dr in steps if 0 <= f + df < 8 and 0 <= r + dr < 8}


def squares_between(a, b):
    """The squares strictly between a and b on a rank or file; None when
    they share neither."""
    (fa, ra), (fb, rb) = file_rank(a), file_rank(b)
    if fa != fb and ra != rb:
        return None
    df, dr = (fb > fa) - (fb < fa), (rb > ra) - (rb < ra)
    out, f, r = set(), fa + df, ra + dr
    while (f, r) != (fb, rb):
        out.add(r * 8 + f)
        f, r = f + df, r + dr
    return out


def count(white, black):
    """(white to move, black to move) legal positions."""
    wtm = btm = 0
    for wk in range(64):
        for bk in range(64):
            if wk == bk or touching(wk, bk):
                continue
            checks_black = knight_squares(bk)
            checks_white = knight_squares(wk)
            for wr in range(64):
                if wr in (wk, bk):
                    continue
                free = set(range(64)) - {wk, bk, wr}
                # Black to move: White's king not attacked (only a black
                # knight can): black knights off its knight squares, white
                # knights on any squares left.
                btm += comb(len(free - checks_white), black) * comb(len(free) - black, white)
                # White to move: Black's king attacked by neither a white
                # knight nor the rook.
                placements = comb(len(free - checks_black), white) * comb(len(free) - white, black)
                line = squares_between(wr, bk)
                if line is None or wk in line:
                    wtm += placements
                    continue
                if not line:
                    continue  # the rook touches the black king
                # Minus the placements with nothing between rook and king.
                rest = free - line
                unblocked = comb(len(rest - checks_black), white) * comb(len(rest) - white, black)
                wtm += placements - unblocked
    return wtm, btm


def main(argv):
    white, black = (1, 2) if len(argv) == 1 else (None, None)
    if len(argv) == 3 and all(a.isdigit() and len(a) == 1 for a in argv[1:]):
        white, black = int(argv[1]), int(argv[2])
    if white is None or white + black > 4:
        sys.exit("usage: chess_count_rook_knights.py [WHITE BLACK] (knights a side, at most 4 in all)")
    wtm, btm = count(white, black)
    print(f"white_to_move {wtm}")
    print(f"black_to_move {btm}")


if __name__ == "__main__":
    main(sys.argv)
