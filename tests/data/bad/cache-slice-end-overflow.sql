-- fuzz-cache: a slice whose start plus duration overflowed gint64 in every
-- query that read it. Slice 1 of track 8 (of a cache of
-- tests/data/chrome/phases_array.json) now lasts 2^63 - 16 ns.
UPDATE slice_chunks
   SET data = CAST (substr (data, 1, 40) || X'1027000000000000F0FFFFFFFFFFFF7F000000000000000003000000010000000000000001000000' || substr (data, 81) AS BLOB)
 WHERE track_id = 8;
