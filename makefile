# The build OpenBench runs: `make EXE=<name> [EVALFILE=<net>]`. It builds the release binary
# with cargo and copies it to EXE; with EVALFILE the given net is embedded instead of
# src/nnue/ox88.nnue (and `bench` then prints that net's signature). `make` alone builds
# target/release/engine and copies it to ./ox88.
EXE ?= ox88

ifdef EVALFILE
BUILD_ENV := RUSTFLAGS="--cfg ox88_evalfile" OX88_EVALFILE="$(abspath $(EVALFILE))"
endif

.PHONY: all
all:
	$(BUILD_ENV) cargo build --release
	cp target/release/engine "$(EXE)"
