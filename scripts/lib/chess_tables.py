#!/usr/bin/env python3
"""Prints the chess tables of a `nimrod plan --json` document read from
standard input, one name a line (KQvKR, not chess/KQvKR), in the plan's
order, or with --sorted in C collation (the order of the set's logs):

    nimrod plan --config config/big.toml --json | scripts/lib/chess_tables.py [--sorted]

Shared by the set scripts (chess_set_build.sh, chess_ship_set.sh), which
read the plan rather than list the tables themselves.
"""
import json
import sys


def main() -> int:
    names = [
        j["id"][len("chess/"):]
        for j in json.load(sys.stdin)["jobs"]
        if j["id"].startswith("chess/")
    ]
    if "--sorted" in sys.argv[1:]:
        # C collation: byte order, as `LC_ALL=C sort` gives it.
        names.sort(key=lambda n: n.encode())
    for n in names:
        print(n)
    return 0


if __name__ == "__main__":
    sys.exit(main())
