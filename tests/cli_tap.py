# cli_tap.py
#
# Copyright 2026 The Tessera developers
#
# SPDX-License-Identifier: GPL-3.0-or-later
"""What the Python tests that drive tessera-cli share: TAP output (ok, the
plan at the end), running the CLI, and reading the info's exact
milliseconds back as nanoseconds."""
import subprocess
from decimal import Decimal


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


def ms_to_ns(text):
    """'12.345678 ms' (as the frameworks' info writes times) in ns."""
    assert text.endswith(" ms"), text
    return int(Decimal(text[:-3]) * 1000000)
