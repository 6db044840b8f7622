# Tessera: two commands on a fresh Debian 12 machine.
#   make run    install what is missing, build, open the demo report
#   make test   install what is missing, build, run every test (GUI under Xvfb)
# Also: make bench, make install PREFIX=..., make clean.

BUILDDIR   ?= build
PREFIX     ?= /usr/local
MESON_OPTS ?=
DEMO       ?= data/demo/yolov8s_op_time_each.txt

.PHONY: all deps build run test bench install clean

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

install: deps $(BUILDDIR)/build.ninja
	meson configure $(BUILDDIR) --prefix=$(PREFIX)
	meson install -C $(BUILDDIR)

clean:
	rm -rf $(BUILDDIR)
