-- Found beside fuzz-cache's findings: the argument texts of a chunk were
-- one run of bytes after n + 1 offsets; a regex search read from offset 0
-- to the next offset, 2 GB on in a 24-byte run (GLib's regex code is not
-- instrumented, so only a crash shows it). Args are zstd frames of
-- lengths and texts now (docs/cache-schema.md), whose lengths must add up
-- to the texts; track 8's args are those offsets as they were written then
-- (0, 2^31 - 16, 24), which no longer decode: the search and a slice's
-- args refuse the chunk.
UPDATE slice_chunks
   SET args = CAST (X'00000000F0FFFF7F180000001800000018000000' || coalesce (substr (args, 21), X'') AS BLOB)
 WHERE track_id = 8;
