# lab: top-level build. `make run` and `make check` do all setup on a fresh
# Debian 12 machine; see README.md.

BUILD   ?= build
CC      ?= cc
PKGS    := libvirt sqlite3 gsl libxml-2.0 libarchive liblzma libcrypto libguestfs json-c libcurl
WARN    := -Wall -Wextra -Wshadow -Wno-unused-parameter -Wformat=2
CFLAGS  ?= -O2 -g
reverse_words = $(if $(1),$(call reverse_words,$(wordlist 2,$(words $(1)),$(1))) $(firstword $(1)))
HOST_CFLAGS := $(CFLAGS) $(WARN) -std=gnu11 -D_GNU_SOURCE -MMD -MP -I. \
               $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
# The build tree's places: an uninstalled lab finds its data here; an
# installed one under its prefix (common/datadir.h).
HOST_CFLAGS += -DLAB_SOURCE_DIR='"$(CURDIR)"' -DLAB_BUILD_DIR='"$(abspath $(BUILD))"'
HOST_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lm -lpthread
LDFLAGS     ?=

.PHONY: all deps man install uninstall deb docs-examples check check-installed check-unit check-slow check-cluster run run-installed bench \
        bench-installed clean format golden-regen sanitize unit-bins

all: $(BUILD)/lab $(BUILD)/lab-agent

# One library per folder, layered: common (strings, files, processes,
# hashing) under images and kernels, those under host's folders (lowest
# first: hdd, store, plan, stats, cell, run, bisect, report, then host's own
# top files), host under lab. An include always names its folder
# ("host/cell/cell.h") and only -I. is passed, so a layer reaching above
# itself shows in its includes; tests/check-shape.sh fails on a cycle between
# folders and on a pure folder (hdd, store, plan, stats) that reaches libvirt.
# The libraries are linked highest first, so a call downwards resolves and a
# call upwards would not.
HOST_DIRS    := hdd store plan stats cell run bisect report top
COMMON_SRCS  := $(wildcard common/*.c)
IMAGES_SRCS  := $(wildcard images/*.c)
KERNELS_SRCS := $(wildcard kernels/*.c)
$(foreach d,$(filter-out hdd top,$(HOST_DIRS)),$(eval HOST_$(d)_SRCS := $(wildcard host/$(d)/*.c)))
HOST_top_SRCS := $(wildcard host/*.c)
LAYERS       := $(addprefix host_,$(call reverse_words,$(HOST_DIRS))) kernels images common
lib_objs = $($(1)_SRCS:%.c=$(BUILD)/obj/%.o)

include guest-agent/agent.mk
include host/hdd/hdd.mk
include tests/fuzz/fuzz.mk

$(BUILD)/libcommon.a: $(call lib_objs,COMMON)
	rm -f $@ && ar rcs $@ $^
$(BUILD)/libimages.a: $(call lib_objs,IMAGES)
	rm -f $@ && ar rcs $@ $^
$(BUILD)/libkernels.a: $(call lib_objs,KERNELS)
	rm -f $@ && ar rcs $@ $^
$(foreach d,$(HOST_DIRS),$(eval $(BUILD)/libhost_$(d).a: $$(call lib_objs,HOST_$(d)) ; rm -f $$@ && ar rcs $$@ $$^))
LAB_LIBS := $(LAYERS:%=$(BUILD)/lib%.a)

# `lab --version`: the release in VERSION and git's description of the
# checkout, compiled into lab/help.c alone, which is rebuilt every time so
# the description is never stale.
LAB_VERSION  := $(shell cat VERSION 2>/dev/null || echo unknown)
LAB_GIT      := $(shell git describe --always --dirty 2>/dev/null || echo "release $(LAB_VERSION)")
$(BUILD)/obj/lab/help.o: HOST_CFLAGS += -DLAB_VERSION='"$(LAB_VERSION)"' -DLAB_GIT_DESCRIBE='"$(LAB_GIT)"'
$(BUILD)/obj/lab/help.o: FORCE
.PHONY: FORCE
FORCE:

LAB_SRCS := $(wildcard lab/*.c)
LAB_OBJS := $(LAB_SRCS:%.c=$(BUILD)/obj/%.o)
$(BUILD)/lab: $(LAB_OBJS) $(LAB_LIBS)
	$(CC) $(LDFLAGS) -o $@ $(LAB_OBJS) $(LAB_LIBS) $(HOST_LIBS)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(HOST_CFLAGS) -c -o $@ $<

# cmocka unit tests: tests/unit/test_NAME.c -> build/tests/test_NAME.
UNIT_SRCS  := $(wildcard tests/unit/test_*.c)
UNIT_BINS  := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)
$(BUILD)/tests/%.o: tests/unit/%.c
	@mkdir -p $(@D)
	$(CC) $(HOST_CFLAGS) -c -o $@ $<
$(BUILD)/tests/test_%: $(BUILD)/tests/test_%.o $(LAB_LIBS) $(AGENT_HOSTTEST_OBJS)
	$(CC) $(LDFLAGS) -o $@ $< $(AGENT_HOSTTEST_OBJS) $(LAB_LIBS) -lcmocka $(HOST_LIBS)

# The sanitizer pass of make check: the host library, the unit tests and the
# host build of the agent's pure code once more under ASan and UBSan, in
# their own build dir; run-all.sh runs those units too (asan/test_*).
SAN_BUILD := $(BUILD)/asan
SAN_FLAGS := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
             -fno-sanitize-recover=undefined
unit-bins: $(UNIT_BINS)
sanitize:
	@$(MAKE) --no-print-directory BUILD=$(SAN_BUILD) CFLAGS="$(SAN_FLAGS)" \
	    LDFLAGS="-fsanitize=address,undefined" unit-bins

deps:
	@tests/deps.sh

# check, run and bench install the dependencies first, then build in a new
# make: this Makefile asks pkg-config for flags when it is read, which on a
# fresh machine is before the -dev packages exist.
# Keep the unit objects make builds on the way to each test: without this it
# deletes them at the end with one long "rm" line, after the tests' closing
# line, which a CI log cut to its tail then loses.
.SECONDARY:

check: deps
	@$(MAKE) --no-print-directory check-installed

# The fuzz harnesses are built (not run) so that a harness that no longer
# links fails make check, not only CI's make fuzz.
check-installed: all $(UNIT_BINS) sanitize fuzz-build
	@tests/run-all.sh $(BUILD)

check-unit: all $(UNIT_BINS) sanitize
	@tests/run-all.sh --unit-only $(BUILD)

# Slow end-to-end tests (tens of minutes: kernel builds): tests/slow/*.sh
# with the build dir; make-*.sh there are their helpers, not tests.
check-slow: all
	@fail=0; for t in tests/slow/*.sh; do \
	    case $$t in */make-*) continue;; esac; \
	    echo "=== slow/$$(basename $$t .sh)"; $$t $(BUILD) || fail=1; \
	done; exit $$fail

# The engines on a cluster the tests start themselves (issue 11): a
# single-node Slurm, fake hosts for GNU parallel over ssh. Minutes, and
# root; not part of check. tests/cluster/*-lib.sh are their helpers.
# CLUSTER_TESTS="slurm ssh" runs only those (CI: bisect-slurm builds kernels).
CLUSTER_TESTS ?= $(filter-out %-lib,$(basename $(notdir $(wildcard tests/cluster/*.sh))))
check-cluster: all
	@CLUSTER=1 tests/deps.sh
	@fail=0; for t in $(CLUSTER_TESTS:%=tests/cluster/%.sh); do \
	    case $$t in *-lib.sh) continue;; esac; \
	    echo "=== cluster/$$(basename $$t .sh)"; $$t $(BUILD) || fail=1; \
	done; exit $$fail

# With the sanitizer build too: run-all.sh runs those units last, and a stale
# one would write the old output back.
golden-regen: all $(UNIT_BINS) sanitize
	LAB_REGENERATE_GOLDEN=1 tests/run-all.sh --unit-only $(BUILD)

run: deps
	@$(MAKE) --no-print-directory run-installed

run-installed: all
	$(BUILD)/lab run --kernels 6.1.0-47,6.12.113 --experiment seqread --profile pata-2003

bench: deps
	@$(MAKE) --no-print-directory bench-installed

bench-installed: all
	@tests/bench/bench.sh $(BUILD)

# make install [PREFIX=/usr/local] [DESTDIR=]: the lab in the FHS places.
# The installed binary finds everything else through its own prefix
# (common/datadir.h), so the checkout can go away; LAB_* variables still
# override. The Debian package (debian/) installs through this target.
PREFIX  ?= /usr/local
LIBDIR  := $(DESTDIR)$(PREFIX)/lib/lab
DATADIR := $(DESTDIR)$(PREFIX)/share/lab
MANDIR  := $(DESTDIR)$(PREFIX)/share/man/man1
man: all
	@tests/install/man.sh $(BUILD) $(BUILD)/man
install: all man
	install -D -m 755 $(BUILD)/lab $(DESTDIR)$(PREFIX)/bin/lab
	install -d $(LIBDIR) $(DATADIR)/experiments $(DATADIR)/profiles \
	    $(DATADIR)/kernel-configs $(DATADIR)/docs $(MANDIR)
	install -m 755 $(BUILD)/lab-agent $(BUILD)/lab-agent-i386 $(LIBDIR)/
	install -m 644 $(BUILD)/nbdkit-hdd-filter.so $(LIBDIR)/
	install -m 644 lab/experiments/*.exp $(DATADIR)/experiments/
	install -m 644 lab/profiles/*.profile $(DATADIR)/profiles/
	install -m 644 kernels/configs/*.config $(DATADIR)/kernel-configs/
	$(if $(wildcard docs/*.md),install -m 644 $(wildcard docs/*.md) $(DATADIR)/docs/)
	install -m 644 $(BUILD)/man/*.1 $(MANDIR)/
uninstall:
	rm -rf $(DESTDIR)$(PREFIX)/bin/lab $(LIBDIR) $(DATADIR)
	rm -f $(MANDIR)/lab.1 $(MANDIR)/lab-*.1

# The Debian package (dpkg-buildpackage in a clean copy of the checkout).
deb: deps
	@tests/install/deb.sh $(BUILD)

# Examples that stay true: pastes the output of the cheap commands marked
# in README.md and docs/*.md (<!-- example: lab ... -->) from this build,
# machine paths replaced; it refuses a command that could boot, build or
# fetch. make docs-examples DOCS_EXAMPLES=--check changes nothing and
# fails when a block is out of date.
docs-examples: all
	@python3 tests/docs-examples.py $(DOCS_EXAMPLES) $(BUILD)/lab

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
