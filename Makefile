# Tessera: two commands on a fresh Debian 12 machine.
#   make run    install what is missing, build, open the demo report
#   make test   install what is missing, build, run every test (GUI under Xvfb)
# Also: make bench, make install PREFIX=..., make clean,
#   make fuzz FUZZ_SECONDS=N (docs/reliability.md).

BUILDDIR   ?= build
PREFIX     ?= /usr/local
MESON_OPTS ?=
DEMO       ?= data/demo/yolov8s_op_time_each.txt

.PHONY: all deps build run test bench fuzz install clean

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
test: build
	xvfb-run -a -s "-screen 0 1600x1200x24" meson test -C $(BUILDDIR) --print-errorlogs

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
	rm -rf $(BUILDDIR)
