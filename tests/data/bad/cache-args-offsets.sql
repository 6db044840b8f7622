-- Found beside fuzz-cache's findings: the argument texts of a chunk are
-- one run of bytes after n + 1 offsets; a regex search read from offset 0
-- to the next offset, 2 GB on in a 24-byte run (GLib's regex code is not
-- instrumented, so only a crash shows it). Track 8's offsets now go 0,
-- 2^31 - 16, 24.
UPDATE slice_chunks
   SET args = CAST (X'00000000F0FFFF7F180000001800000018000000' || substr (args, 21) AS BLOB)
 WHERE track_id = 8;
