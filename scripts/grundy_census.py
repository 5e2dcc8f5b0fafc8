#!/usr/bin/env python3
"""Counts every value of a Grundy's game table (grundy/values.nmt), reading
the payload straight from the file (format: crates/nimrod-table/src/format.rs)
with numpy, and prints the count of each value with its first heap, the
rare heaps (the value's bits above the lowest have even parity: Winning
Ways ch. 4) with the last of them, the largest value and its first heap,
and the heaps of value 0 with the last of them. A one-byte table
(`width = 8`) holds codes: the script decodes them by the metadata's list
of values and checks that list's first heaps against where each code first
occurs.

It shares no code with nimrod: a second reading of what the table's
statistics say (`nimrod info`), and the per-value counts the statistics do
not hold.

Usage: scripts/grundy_census.py TABLE [--chunk HEAPS]   (needs numpy)
"""
import argparse
import json
import struct
import sys

try:
    import numpy as np
except ImportError:
    sys.exit(
        f"grundy_census.py: numpy is missing for {sys.executable} "
        "(Debian: apt-get install python3-numpy, then run it with /usr/bin/python3)"
    )


# Whether each u16 value is rare: one look-up a heap instead of a pass a
# bit (a 2^35 table is 256 chunks).
RARE = np.array([bin(v >> 1).count("1") % 2 == 0 for v in range(1 << 16)])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("table")
    ap.add_argument("--chunk", type=int, default=1 << 27)
    a = ap.parse_args()
    with open(a.table, "rb") as f:
        head = f.read(160)
    if head[:8] != b"NIMRODTB":
        sys.exit(f"{a.table}: not a nimrod table")
    entry_kind, width = head[16], head[17]
    if (entry_kind, width) not in ((2, 2), (1, 1)):
        sys.exit(f"{a.table}: entries are neither u16 nor u8")
    count = struct.unpack_from("<Q", head, 24)[0]
    offset, length = struct.unpack_from("<QQ", head, 80)
    if length != count * width:
        sys.exit(f"{a.table}: payload of {length} bytes for {count} entries")
    dtype = "<u2" if width == 2 else "u1"
    g = np.memmap(a.table, dtype=dtype, mode="r", offset=offset, shape=(count,))
    decode = None
    if width == 1:
        # One byte a heap: a code, the position of the value in the
        # metadata's list of values in order of first appearance.
        meta_at, meta_len = struct.unpack_from("<QQ", head, 32)
        with open(a.table, "rb") as f:
            f.seek(meta_at)
            meta = json.loads(f.read(meta_len))
        listed = meta["stats"]["first_heaps"]
        decode = np.array([e["value"] for e in listed], dtype=np.uint16)
        listed_first = [e["heap"] for e in listed]
    counts = np.zeros(1 << 16, dtype=np.int64)
    first_of = {}
    last_rare = last_zero = None
    for start in range(0, count, a.chunk):
        part = np.asarray(g[start:start + a.chunk])
        if decode is not None:
            if part.max() >= len(decode):
                sys.exit(f"{a.table}: a code past the {len(decode)} values listed")
            part = decode[part]
        chunk_counts = np.bincount(part, minlength=1 << 16)
        counts += chunk_counts
        for v in np.nonzero(chunk_counts)[0]:
            if int(v) not in first_of:
                first_of[int(v)] = start + int(np.argmax(part == v))
        rare = np.nonzero(RARE[part])[0]
        if len(rare):
            last_rare = start + int(rare[-1])
        zeros = np.nonzero(part == 0)[0]
        if len(zeros):
            last_zero = start + int(zeros[-1])
    if decode is not None:
        seen_first = [first_of[int(v)] for v in decode]
        if seen_first != listed_first:
            sys.exit(f"{a.table}: the listed first heaps are not where the codes first occur")
    rare_values = [v for v in range(1 << 16) if counts[v] and RARE[v]]
    rare_total = int(sum(counts[v] for v in rare_values))
    max_v = max(v for v in range(1 << 16) if counts[v])
    print(f"table {a.table}: heaps 0..={count - 1}")
    print(f"largest value {max_v}, first at heap {first_of[max_v]}")
    print(f"rare heaps (heap 0 included): {rare_total}, the last at {last_rare}")
    print(f"heaps of value 0: {int(counts[0])}, the last at {last_zero}")
    print("value count first_heap (rare values marked *)")
    for v in range(max_v + 1):
        if counts[v]:
            mark = "*" if v in rare_values else " "
            print(f"{v:5d}{mark} {int(counts[v]):12d} {first_of[v]:12d}")


if __name__ == "__main__":
    main()
