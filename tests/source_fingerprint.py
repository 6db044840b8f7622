#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A source's content fingerprint, computed apart from Tessera's C code
from its definition (docs/cache-schema.md, "Sources"): the file in blocks of
1 MiB (the last one shorter), each block hashed with the four-lane
multiply-rotate hash (seed 0), then the blocks' hashes, as 64-bit
little-endian words in file order, hashed the same way with the file's size
as the seed. Prints the 16 hex digits.

  source_fingerprint.py FILE
"""
import struct
import sys

M = (1 << 64) - 1
P1, P2, P3, P4, P5 = (0x9E3779B185EBCA87, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9,
                      0x85EBCA77C2B2AE63, 0x27D4EB2F165667C5)
BLOCK = 1024 * 1024


def rotl(x, r):
    return ((x << r) | (x >> (64 - r))) & M


def lane_round(acc, value):
    return (rotl((acc + value * P2) & M, 31) * P1) & M


def hash64(data, seed):
    n = len(data) - len(data) % 32
    if n:
        v = [(seed + P1 + P2) & M, (seed + P2) & M, seed, (seed - P1) & M]
        words = struct.unpack_from("<%dQ" % (n // 8), data)
        for i in range(0, len(words), 4):
            v[0] = lane_round(v[0], words[i])
            v[1] = lane_round(v[1], words[i + 1])
            v[2] = lane_round(v[2], words[i + 2])
            v[3] = lane_round(v[3], words[i + 3])
        h = (rotl(v[0], 1) + rotl(v[1], 7) + rotl(v[2], 12) + rotl(v[3], 18)) & M
        for lane in v:
            h = ((h ^ lane_round(0, lane)) * P1 + P4) & M
    else:
        h = (seed + P5) & M
    h = (h + len(data)) & M
    p = n
    while p + 8 <= len(data):
        h ^= lane_round(0, struct.unpack_from("<Q", data, p)[0])
        h = (rotl(h, 27) * P1 + P4) & M
        p += 8
    while p < len(data):
        h ^= (data[p] * P5) & M
        h = (rotl(h, 11) * P1) & M
        p += 1
    h ^= h >> 33
    h = (h * P2) & M
    h ^= h >> 29
    h = (h * P3) & M
    h ^= h >> 32
    return h


def fingerprint(data):
    blocks = [hash64(data[at:at + BLOCK], 0) for at in range(0, len(data), BLOCK)]
    return "%016x" % hash64(struct.pack("<%dQ" % len(blocks), *blocks), len(data))


if __name__ == "__main__":
    with open(sys.argv[1], "rb") as f:
        print(fingerprint(f.read()))
