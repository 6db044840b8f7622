-- fuzz-cache: a slice whose start plus duration overflowed gint64 in every
-- query that read it. Slice 1 of track 8 (of a cache of
-- tests/data/chrome/phases_array.json) now lasts 2^63 - 16 ns. The chunk
-- is unpacked to plain records and packed again (tes_records and
-- tes_pack_records, which test-bad-input.c registers).
UPDATE slice_chunks
   SET data = tes_pack_records (CAST (substr (tes_records (data, n), 1, 40) || X'1027000000000000F0FFFFFFFFFFFF7F000000000000000003000000010000000000000001000000' || substr (tes_records (data, n), 81) AS BLOB), n)
 WHERE track_id = 8;
