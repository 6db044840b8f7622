-- fuzz-cache: a chunk whose data blob is empty, which SQLite hands over as
-- NULL; hashing it for the checksum (here when the test reseals the cache,
-- as a crafted cache would be) added 0 to a NULL pointer, which is
-- undefined (clang's UBSan in the fuzz build stopped there; GCC's does not
-- check it). The chunk's records are missing: opening it is damage.
UPDATE slice_chunks SET data = X'' WHERE track_id = 3;
