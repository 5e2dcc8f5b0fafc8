#!/usr/bin/env python3
"""Checks heaps of an octal game's table (octal/CODE.nmt) by the plain mex
over every move of the code, each option's value read from the table.

An octal code 0.d1d2d3... lets a player remove k tokens from a heap when
digit dk allows it: bit 1 if that empties the heap, bit 2 if it leaves one
heap, bit 4 if it leaves two non-empty heaps (any split, equal ones too).
G(n) is the least value not among the options' values: 0 for an emptied
heap, G(n - k) for one heap, G(a) xor G(n - k - a) for two.

Like scripts/grundy_mex_check.py (whose table reader it uses: the payload
read straight from the file, nothing of nimrod), it shares nothing with the
solver's fast path (rare values, sparse sets, block marking): the second
opinion issue 60 asks for on heaps far past `nimrod verify`'s prefix.

Usage:
  scripts/octal_mex_check.py TABLE [HEAP ...] [--named] [--random K [--seed S]]
    --named   also the largest value's first heap, the last heap and the
              last rare heap the statistics name
Prints a line a heap; exits 1 if any stored value differs from its mex.
"""
import argparse
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from grundy_mex_check import Values, add_split_xors, mex  # noqa: E402


def digits(code):
    """The digits d1, d2, ... of an octal code such as "0.161" or "4.07"
    (the digit before the point, about taking a whole heap, is d0)."""
    whole, _, frac = code.partition(".")
    if not frac or not (whole + frac).isdigit() or any(c > "7" for c in whole + frac):
        sys.exit(f"{code}: not an octal code like 0.161")
    if whole not in ("0", "4"):
        sys.exit(f"{code}: codes with d0 = {whole} are not handled here")
    return [int(c) for c in frac]


def options_mex(t, code_digits, n):
    """The least value not among the options of heap n; and how many
    two-heap splits were read."""
    seen = set()
    splits = 0
    for k, d in enumerate(code_digits, start=1):
        if k > n:
            break
        rest = n - k
        if d & 1 and rest == 0:
            seen.add(0)
        if d & 2 and rest >= 1:
            seen.add(t.value(rest))
        if d & 4 and rest >= 2:
            # Equal heaps are a split too (unlike Grundy's game).
            last = rest // 2
            add_split_xors(t, rest, last, seen)
            splits += last
    return mex(seen), splits


def main():
    if sys.byteorder != "little":
        sys.exit("this script reads u16 values in the machine's order: little-endian only")
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("table")
    ap.add_argument("heaps", nargs="*", type=int)
    ap.add_argument("--named", action="store_true")
    ap.add_argument("--random", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    t = Values(a.table)
    code = t.meta.get("params", {}).get("code")
    if not isinstance(code, str):
        sys.exit(f"{a.table}: no octal code in its parameters")
    code_digits = digits(code)
    heaps = list(a.heaps)
    if a.named:
        s = t.meta["stats"].get("sparse") or {}
        for key in ("max_value_first_heap", "last_rare_heap"):
            # Heap 0 (an empty heap, value 0 by definition) has no move.
            if s.get(key):
                heaps.append(s[key])
        heaps.append(t.count - 1)
    if not 0 <= a.random <= 100000:
        sys.exit(f"--random {a.random}: at most 100000 heaps")
    rng = random.Random(a.seed)
    heaps += [rng.randrange(1, t.count) for _ in range(a.random)]
    if not heaps:
        sys.exit("name a heap, --named or --random K")
    bad = 0
    for n in heaps:
        if not 0 < n < t.count:
            sys.exit(f"heap {n} is outside the table (1 ..= {t.count - 1})")
        stored = t.value(n)
        computed, splits = options_mex(t, code_digits, n)
        same = "same" if computed == stored else "DIFFERENT"
        bad += computed != stored
        print(f"{code} heap {n}: stored {stored}, plain mex over {splits} splits {computed}: {same}", flush=True)
    print(f"{len(heaps)} heaps checked, {bad} differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
