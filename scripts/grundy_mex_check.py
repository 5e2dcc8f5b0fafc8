#!/usr/bin/env python3
"""Checks heaps of a Grundy's game table (grundy/values.nmt) by the plain
mex: G(n) is the least value not among G(a) xor G(n - a) over every split
of n into two unequal heaps (1 <= a < n - a), each read from the table.

It shares nothing with the solver's fast path (rare values, block marking,
split targets) nor with nimrod at all: the table's payload is read straight
from the file (format: crates/nimrod-table/src/format.rs), a one-byte table
(`width = 8`) decoded by its metadata's list of values. So it is the second
opinion issue 60 asks for on a heap far past `nimrod verify`'s naive prefix:
a new rare heap, the first heap of the largest value, the last heap.

Pure Python (no numpy): the xors of a chunk of splits are one big-integer
xor of two byte strings, so a heap of n costs O(n) at C speed (about a
minute for n = 2^32 here).

Usage:
  scripts/grundy_mex_check.py TABLE [HEAP ...] [--named] [--random K [--seed S]]
    HEAP      heaps to check (0 < HEAP < the table's length)
    --named   also the heaps the statistics name: the largest value's first
              heap, the last heap, and the last rare heap when stored
    --random  also K heaps drawn uniformly (seed S, default 1)
Prints a line a heap; exits 1 if any stored value differs from its mex.
"""
import argparse
import json
import mmap
import random
import struct
import sys
from array import array

CHUNK = 1 << 22


class Values:
    """The stored values of a table, as little-endian u16 byte strings."""

    def __init__(self, path):
        self.path = path
        with open(path, "rb") as f:
            head = f.read(160)
            if head[:8] != b"NIMRODTB":
                sys.exit(f"{path}: not a nimrod table")
            kind, self.width = head[16], head[17]
            if (kind, self.width) not in ((2, 2), (1, 1)):
                sys.exit(f"{path}: entries are neither u16 nor u8")
            self.count = struct.unpack_from("<Q", head, 24)[0]
            meta_at, meta_len = struct.unpack_from("<QQ", head, 32)
            self.offset, length = struct.unpack_from("<QQ", head, 80)
            if length != self.count * self.width:
                sys.exit(f"{path}: payload of {length} bytes for {self.count} entries")
            f.seek(meta_at)
            self.meta = json.loads(f.read(meta_len))
            self.map = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        if self.width == 1:
            listed = [e["value"] for e in self.meta["stats"]["first_heaps"]]
            if not listed or len(listed) > 256 or max(listed) >= 1 << 16:
                sys.exit(f"{path}: the metadata's list of values is unusable")
            pad = [0] * (256 - len(listed))
            self.low = bytes([v & 255 for v in listed] + pad)
            self.high = bytes([v >> 8 for v in listed] + pad)
            self.codes = len(listed)

    def u16(self, start, end):
        """G(start) .. G(end - 1) as little-endian u16 bytes."""
        raw = self.map[self.offset + start * self.width:self.offset + end * self.width]
        if self.width == 2:
            return raw
        if max(raw, default=0) >= self.codes:
            sys.exit(f"{self.path}: a code past the {self.codes} values listed in heaps {start}..{end}")
        out = bytearray(2 * len(raw))
        out[0::2] = raw.translate(self.low)
        out[1::2] = raw.translate(self.high)
        return bytes(out)

    def value(self, n):
        return int.from_bytes(self.u16(n, n + 1), "little")


def add_split_xors(t, total, last, seen):
    """Adds G(a) xor G(total - a), 1 <= a <= last, to the set `seen`, a
    chunk of splits at a time."""
    a = 1
    while a <= last:
        b = min(a + CHUNK, last + 1)
        left = t.u16(a, b)
        right = array("H")
        right.frombytes(t.u16(total - b + 1, total - a + 1))
        right.reverse()
        x = int.from_bytes(left, "little") ^ int.from_bytes(right.tobytes(), "little")
        seen.update(memoryview(x.to_bytes(len(left), "little")).cast("H"))
        a = b


def mex(seen):
    """The least non-negative integer not in `seen`."""
    m = 0
    while m in seen:
        m += 1
    return m


def plain_mex(t, n):
    """The least value not among G(a) xor G(n - a), 1 <= a < n - a; and the
    number of splits."""
    seen = set()
    last = (n - 1) // 2
    add_split_xors(t, n, last, seen)
    return mex(seen), last


def is_rare(v):
    return bin(v >> 1).count("1") % 2 == 0


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
    heaps = list(a.heaps)
    if a.named:
        s = t.meta["stats"]
        heaps += [s["max_value_first_heap"], t.count - 1]
        if s.get("last_rare_heap") is not None:
            heaps.append(s["last_rare_heap"])
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
        computed, splits = plain_mex(t, n)
        same = "same" if computed == stored else "DIFFERENT"
        bad += computed != stored
        rare = " (rare)" if is_rare(stored) else ""
        print(f"heap {n}: stored {stored}{rare}, plain mex over {splits} splits {computed}: {same}")
    print(f"{len(heaps)} heaps checked, {bad} differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
