# cli_tap.py
#
# Copyright 2026 The Tessera developers
#
# SPDX-License-Identifier: GPL-3.0-or-later
"""What the Python tests that drive tessera-cli share: TAP output (ok, the
plan at the end), running the CLI, and writing nanoseconds as the
frameworks' info writes times (milliseconds to the microsecond)."""
import subprocess


class Tap:
    def __init__(self, cli):
        self.cli = cli
        self.n = 0
        self.failed = 0

    def ok(self, cond, what):
        self.n += 1
        if cond:
            print("ok %d - %s" % (self.n, what))
        else:
            self.failed += 1
            print("not ok %d - %s" % (self.n, what))

    def run(self, *args):
        """tessera-cli ARGS…, which must succeed: its standard output."""
        return subprocess.run([self.cli] + list(args), check=True, capture_output=True, text=True).stdout

    def finish(self):
        """Prints the plan; the exit status for sys.exit."""
        print("1..%d" % self.n)
        return 1 if self.failed else 0


def ms_text(ns):
    """ns as the frameworks' info and details write times: milliseconds to
    the microsecond, rounded half away from zero ('12.346 ms')."""
    us = (abs(ns) + 500) // 1000
    return "%s%d.%03d ms" % ("-" if ns < 0 and us else "", us // 1000, us % 1000)
