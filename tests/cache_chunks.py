"""Reads a cache's slice chunks as docs/cache-schema.md describes them
(schema 11: blocks of varint columns, args blocks of zstd-packed
skeletons, each distinct one once, and packed decimal digits, the search
summary and sums), apart from Tessera's own reader, so that tests check
the cache against a file's truth through the document. The blocks' hashes
are left to Tessera's reader (test-cache-chunk damages them).

zstd is libzstd's, through ctypes: Python has no zstd module before 3.14,
and the library is the one Tessera links.
"""

import ctypes
import ctypes.util
import struct

_zstd = ctypes.CDLL(ctypes.util.find_library("zstd") or "libzstd.so.1")
_zstd.ZSTD_getFrameContentSize.restype = ctypes.c_ulonglong
_zstd.ZSTD_getFrameContentSize.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
_zstd.ZSTD_decompress.restype = ctypes.c_size_t
_zstd.ZSTD_decompress.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t]
_zstd.ZSTD_isError.restype = ctypes.c_uint
_zstd.ZSTD_isError.argtypes = [ctypes.c_size_t]
_zstd.ZSTD_findFrameCompressedSize.restype = ctypes.c_size_t
_zstd.ZSTD_findFrameCompressedSize.argtypes = [ctypes.c_char_p, ctypes.c_size_t]

INDEX_ENTRY = 20     # first start, latest end (int64), block end (uint32)
FIELDS = 8           # start, dur, dur - self, name, category, parent, depth, flags
HASH = 4             # after a data block's columns, after an args block's digits
MARKER_MAX = 16      # a skeleton's byte for a run of 1..16 digits


def _decompress(frame):
    size = _zstd.ZSTD_getFrameContentSize(frame, len(frame))
    if size >= 2 ** 63:
        raise ValueError("a zstd frame without its size")
    out = ctypes.create_string_buffer(max(size, 1))
    got = _zstd.ZSTD_decompress(out, size, frame, len(frame))
    if _zstd.ZSTD_isError(got) or got != size:
        raise ValueError("a block does not decompress")
    return out.raw[:size]


def _varints(buf, count, at=0):
    values = []
    for _ in range(count):
        value = shift = 0
        while True:
            byte = buf[at]
            at += 1
            value |= (byte & 0x7F) << shift
            shift += 7
            if byte < 0x80:
                break
        values.append(value)
    return values, at


def _signed(v):
    return (v >> 1) ^ -(v & 1)


def _wrap(v):
    v &= (1 << 64) - 1
    return v - (1 << 64) if v >= 1 << 63 else v


def _frames(column, n_blocks, entry, end_at):
    base = n_blocks * entry
    begin = 0
    for b in range(n_blocks):
        end = struct.unpack_from("<I", column, b * entry + end_at)[0]
        yield column[base + begin:base + end]
        begin = end


def records(data, n):
    """The chunk's n slices as (start, dur, self_dur, name, category,
    parent, depth, flags) tuples."""
    n_blocks = (n + 1023) // 1024
    out = []
    for b, frame in enumerate(_frames(data, n_blocks, INDEX_ENTRY, 16)):
        m = min(1024, n - 1024 * b)
        cols, at = _varints(frame[:-HASH], FIELDS * m)
        if at != len(frame) - HASH:
            raise ValueError("a data block with bytes after its records")
        starts, durs, child, names, cats, parents, depths, flags = (cols[i * m:(i + 1) * m] for i in range(FIELDS))
        start = parent = None
        for k in range(m):
            start = _wrap(_signed(starts[k]) + (start if k else 0))
            parent = _signed(parents[k]) + (parent if k else -1)
            dur = _wrap(_signed(durs[k]))
            out.append((start, dur, _wrap(dur - _signed(child[k])), names[k], cats[k], parent, depths[k], flags[k]))
    return out


def _groups_count(blob):
    (count,), at = _varints(blob, 1)
    return count, at


def search_summary(blob):
    """A chunk's search summary (schema 9 on) as a list of (name, category,
    blocks, shift, filter bytes)."""
    count, at = _groups_count(blob)
    out = []
    for _ in range(count):
        (name, cat, blocks), at = _varints(blob, 3, at)
        shift = blob[at]
        at += 1
        size = (1 << shift) // 8 if shift else 0
        out.append((name, cat, blocks, shift, blob[at:at + size]))
        at += size
    if at != len(blob):
        raise ValueError("bytes after the search summary")
    return out


def sums(blob):
    """A chunk's sums (schema 9 on) as a list of (name, category, count,
    sum of durations, sum of self times, shortest, longest)."""
    count, at = _groups_count(blob)
    out = []
    for _ in range(count):
        (name, cat, n, dur, self_, lo, hi), at = _varints(blob, 7, at)
        out.append((name, cat, n, _wrap(_signed(dur)), _wrap(_signed(self_)), _signed(lo), _signed(hi)))
    if at != len(blob):
        raise ValueError("bytes after the sums")
    return out


def trigrams(text):
    """The trigrams of ASCII letters of a text (bytes), as numbered in the
    search summary's filter."""
    out = set()
    for i in range(len(text) - 2):
        a, b, c = text[i:i + 3].lower()
        if all(0x61 <= x <= 0x7A for x in (a, b, c)):
            out.add(((a - 0x61) * 26 + (b - 0x61)) * 26 + (c - 0x61))
    return out


def filter_holds(shift, filt, trigram):
    if shift == 0:
        return False
    bit = ((trigram * 2654435761) & 0xFFFFFFFF) >> (32 - shift)
    return bool(filt[bit // 8] >> (bit % 8) & 1)


def groups_of(recs):
    """What the summaries of a chunk of these records hold, from the records
    as the document says: per (name, category) in order of first
    appearance, its blocks, count, sums, shortest and longest."""
    order, agg = [], {}
    for i, (_start, dur, self_, name, cat, _parent, _depth, _flags) in enumerate(recs):
        key = (name, cat)
        if key not in agg:
            order.append(key)
            agg[key] = [0, 0, 0, 0, None, None]
        g = agg[key]
        g[0] |= 1 << (i // 1024)
        g[1] += 1
        g[2] += dur
        g[3] += self_
        g[4] = dur if g[4] is None else min(g[4], dur)
        g[5] = dur if g[5] is None else max(g[5], dur)
    return [(k[0], k[1], *agg[k]) for k in order]


def args(blob, n):
    """The chunk's n argument texts (bytes), b"" for none."""
    if blob is None:
        return [b""] * n
    n_blocks = (n + 1023) // 1024
    out = []
    for b, payload in enumerate(_frames(blob, n_blocks, 4, 0)):
        m = min(1024, n - 1024 * b)
        frame_len = _zstd.ZSTD_findFrameCompressedSize(payload, len(payload))
        if _zstd.ZSTD_isError(frame_len):
            raise ValueError("an args block without its frame")
        raw = _decompress(payload[:frame_len])
        mode = raw[0]
        if mode == 2:
            # the distinct skeletons, then each text's index among them:
            # their concatenation is what mode 1 holds, and each text's
            # length its skeleton's with the digit runs filled in
            (count,), at = _varints(raw, 1, 1)
            sizes, at = _varints(raw, count, at)
            distinct = []
            for size in sizes:
                distinct.append(raw[at:at + size])
                at += size
            index, at = _varints(raw, m, at)
            if at != len(raw):
                raise ValueError("an args block with bytes after its indexes")
            texts = b"".join(distinct[i] for i in index)
            lengths = [sum(c if c <= MARKER_MAX else 1 for c in distinct[i]) for i in index]
        else:
            lengths, at = _varints(raw, m, 1)
            texts = raw[at:]
        if mode in (1, 2):
            # the skeletons: a byte 1..16 for a run of that many digits,
            # which follow the frame as packed decimal, low nibble first
            digits = payload[frame_len:-HASH]
            whole, k = bytearray(), 0
            for c in texts:
                if c > MARKER_MAX:
                    whole.append(c)
                    continue
                for _ in range(c):
                    whole.append(0x30 + (digits[k // 2] >> (4 * (k % 2)) & 0xF))
                    k += 1
            if (k + 1) // 2 != len(digits):
                raise ValueError("an args block with digits left over")
            texts = bytes(whole)
        elif mode != 0 or frame_len != len(payload):
            raise ValueError("an args block of no known kind")
        if sum(lengths) != len(texts):
            raise ValueError("an args block whose lengths are not its texts'")
        at = 0
        for length in lengths:
            out.append(texts[at:at + length])
            at += length
    return out


def check_summaries(data, args_blob, search_blob, sums_blob, n):
    """Whether a chunk's search summary and sums are what its records and
    args give (the filter: holding every trigram of the group's texts)."""
    recs = records(data, n)
    texts = args(args_blob, n)
    want = groups_of(recs)
    got_sums = sums(sums_blob)
    if [(g[0], g[1], g[3], _wrap(g[4]), _wrap(g[5]), g[6], g[7]) for g in want] != got_sums:
        return "sums"
    summary = search_summary(search_blob)
    if [(g[0], g[1], g[2]) for g in want] != [(s[0], s[1], s[2]) for s in summary]:
        return "search groups"
    by_group = {}
    for rec, text in zip(recs, texts):
        by_group.setdefault((rec[3], rec[4]), []).append(text)
    for name, cat, _blocks, shift, filt in summary:
        group_texts = by_group[(name, cat)]
        if (shift == 0) != all(t == b"" for t in group_texts):
            return "search args flag"
        for t in group_texts:
            if any(not filter_holds(shift, filt, x) for x in trigrams(t)):
                return "search filter"
    return None
