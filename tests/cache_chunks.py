"""Reads a cache's slice chunks as docs/cache-schema.md describes them
(schema 7: zstd blocks of varint columns), apart from Tessera's own reader,
so that tests check the cache against a file's truth through the document.

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

INDEX_ENTRY = 20     # first start, latest end (int64), frame end (uint32)
FIELDS = 8           # start, dur, dur - self, name, category, parent, depth, flags


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
        cols, at = _varints(_decompress(frame), FIELDS * m)
        starts, durs, child, names, cats, parents, depths, flags = (cols[i * m:(i + 1) * m] for i in range(FIELDS))
        start = parent = None
        for k in range(m):
            start = _wrap(_signed(starts[k]) + (start if k else 0))
            parent = _signed(parents[k]) + (parent if k else -1)
            dur = _wrap(_signed(durs[k]))
            out.append((start, dur, _wrap(dur - _signed(child[k])), names[k], cats[k], parent, depths[k], flags[k]))
    return out
