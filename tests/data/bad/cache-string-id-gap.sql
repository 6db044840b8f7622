-- Found beside fuzz-cache's findings: the strings table was loaded into
-- an array as long as its largest id plus one; id 2^32 - 1 wrapped that
-- round to 0 and was written out of bounds. Ids now must run 1, 2, 3...
UPDATE strings SET id = 4294967295 WHERE id = 18;
