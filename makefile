# OpenBench builds engines with `make EXE=<path>`. This builds with cargo as the README
# says (a portable release build: wide instructions are chosen at run time) and copies the
# binary to EXE. `cargo build --release` stays the documented way to build.

EXE ?= principia
CARGO_TARGET_DIR ?= target
export CARGO_TARGET_DIR

ifeq ($(OS),Windows_NT)
	BIN := principia.exe
else
	BIN := principia
endif

all:
	cargo build --release
	cp $(CARGO_TARGET_DIR)/release/$(BIN) $(EXE)

.PHONY: all
