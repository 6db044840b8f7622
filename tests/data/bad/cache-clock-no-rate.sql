-- Found beside fuzz-cache's findings: a clock of no ticks per second
-- divided by zero when its times were converted to ns.
UPDATE clocks SET ticks_per_second = 0 WHERE id = 1;
