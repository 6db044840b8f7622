-- fuzz-cache: a chunk's longest duration, negative, overflowed the start
-- of a window opened to the left (G_MININT64 - max_dur).
UPDATE slice_chunks SET max_dur = -2314 WHERE track_id = 3;
