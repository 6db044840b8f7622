# Tessera: two commands on a fresh Debian 12 machine.
#   make run    install what is missing, build, open the demo report
#   make test   install what is missing, build, run every test (GUI under Xvfb),
#               then the core suite again in an ASan+UBSan build (build-asan)
# Also: make valgrind, make bench, make install PREFIX=..., make clean,
#   make fuzz FUZZ_SECONDS=N (docs/reliability.md).

BUILDDIR   ?= build
PREFIX     ?= /usr/local
MESON_OPTS ?=
DEMO       ?= data/demo/yolov8s_op_time_each.txt

.PHONY: all deps build run test valgrind bench fuzz install clean

all: build

deps:
	@scripts/install-deps

$(BUILDDIR)/build.ninja:
	meson setup $(BUILDDIR) --prefix=$(PREFIX) $(MESON_OPTS)

build: deps $(BUILDDIR)/build.ninja
	meson compile -C $(BUILDDIR)

run: build
	$(BUILDDIR)/app/tessera $(DEMO)

# GUI tests need a display: run the whole suite inside a private Xvfb.
# Then the core suite (no display) in a gcc build with AddressSanitizer,
# LeakSanitizer and UBSan, without GTK to keep it lean; sanitized code runs
# a few times slower, so its timeouts are five times as long. Both suites run whatever
# the first found, and the target fails if either did.
ASAN_BUILDDIR ?= build-asan

test: build $(ASAN_BUILDDIR)/build.ninja
	@status=0; \
	xvfb-run -a -s "-screen 0 1600x1200x24" meson test -C $(BUILDDIR) --print-errorlogs || status=1; \
	meson compile -C $(ASAN_BUILDDIR) && \
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	  meson test -C $(ASAN_BUILDDIR) --suite core --timeout-multiplier 5 --print-errorlogs || status=1; \
	exit $$status

$(ASAN_BUILDDIR)/build.ninja:
	CC=gcc meson setup $(ASAN_BUILDDIR) -Db_sanitize=address,undefined -Dgtk=disabled $(MESON_OPTS)

# valgrind memcheck over opening every fixture (tests/valgrind-fixtures.py,
# docs/reliability.md): nothing definitely lost, no invalid access. About
# 5 CPU-minutes, so not part of make test.
valgrind: build
	meson test -C $(BUILDDIR) --setup valgrind --suite valgrind --print-errorlogs

bench: build
	python3 bench/run-bench --builddir $(BUILDDIR) $(BENCH_ARGS)

# libFuzzer harnesses (tests/fuzz, docs/reliability.md): a clang build of
# their own with ASan, UBSan and coverage; each harness runs FUZZ_SECONDS
# (FUZZ_HARNESSES=fuzz-NAME… picks some).
FUZZ_BUILDDIR  ?= build-fuzz
FUZZ_SECONDS   ?= 60
FUZZ_HARNESSES ?=
FUZZ_PACKAGES   = clang libclang-rt-dev

fuzz: deps
	@missing=; for p in $(FUZZ_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  sudo=; [ "$$(id -u)" -eq 0 ] || sudo=sudo; \
	  echo "make fuzz: installing:$$missing"; \
	  $$sudo apt-get update -q && \
	  $$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $$missing; \
	fi
	test -f $(FUZZ_BUILDDIR)/build.ninja || CC=clang meson setup $(FUZZ_BUILDDIR) \
	  -Dfuzzing=true -Dgtk=disabled -Db_sanitize=address,undefined -Db_lundef=false \
	  -Dc_args=-fsanitize=fuzzer-no-link
	meson compile -C $(FUZZ_BUILDDIR)
	tests/fuzz/run-fuzz --builddir $(FUZZ_BUILDDIR) --seconds $(FUZZ_SECONDS) $(FUZZ_HARNESSES)

install: deps $(BUILDDIR)/build.ninja
	meson configure $(BUILDDIR) --prefix=$(PREFIX)
	meson install -C $(BUILDDIR)

clean:
	rm -rf $(BUILDDIR) $(ASAN_BUILDDIR)
