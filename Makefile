# pstat - a perf-stat-style counting tool.  Plain GNU make.
#
#   make                 build ./pstat
#   make check           install build and test deps if missing, build,
#                        run every test
#   make check-pmu       only the PMU lab: boot an arm64 guest under QEMU,
#                        count on its kernel's armv8_pmuv3 driver
#                        (tests/95-pmulab.bats; make check runs it too)
#   make demo            install what building and running pstat need if
#                        missing (no test tools), build, count a workload
#   make check NO_INSTALL=1   the same, installing nothing (a build chroot):
#                        tests whose tools are missing skip, with the reason
#   make install         PREFIX=/usr/local DESTDIR= (and BASHCOMPDIR,
#                        ZSHCOMPDIR, FISHCOMPDIR for the completions)
#   make DEVELOPER=1     warnings are errors
#   make SANITIZE=address,undefined
#   make V=1             show the commands

VERSION := 0.1.0

CC ?= cc
CFLAGS ?= -O2 -g
CPPFLAGS ?=
LDFLAGS ?=
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
DATADIR ?= $(PREFIX)/share
# Where each shell looks for completions; Debian's zsh, for one, reads
# /usr/share/zsh/vendor-completions rather than site-functions.
BASHCOMPDIR ?= $(DATADIR)/bash-completion/completions
ZSHCOMPDIR ?= $(DATADIR)/zsh/site-functions
FISHCOMPDIR ?= $(DATADIR)/fish/vendor_completions.d
# where systemd looks for a package's units (also under /usr/local)
SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system
PKG_CONFIG ?= pkg-config

# libpfm4-dev ships no .pc file. pstat needs its headers to build but
# loads libpfm.so.4 with dlopen when an event name first reaches it (see
# src/events/pfm.c), so it links only libdl.
PFM_CFLAGS ?=
PFM_LIBS ?= -ldl
JANSSON_CFLAGS ?= $(shell $(PKG_CONFIG) --cflags jansson 2>/dev/null)
# jansson is linked statically where its archive is installed (Debian's
# libjansson-dev has it): a run that prints a table never calls it, and
# loading the shared library cost a measurable part of pstat's start-up
# (bench/run's startup row). A distribution that wants the shared one
# passes JANSSON_LIBS="$$(pkg-config --libs jansson)".
JANSSON_A := $(wildcard $(shell $(CC) -print-file-name=libjansson.a 2>/dev/null))
# make LDFLAGS=-static: everything from archives, so no -Bdynamic after
# jansson (that switched the libraries after it back to shared ones);
# without libjansson.a the build stops, saying so.
STATIC := $(filter -static,$(LDFLAGS))
ifneq ($(STATIC),)
ifeq ($(filter /%,$(JANSSON_A)),)
$(error LDFLAGS=-static: no libjansson.a for $(CC) (Debian: libjansson-dev has it))
endif
JANSSON_LIBS ?= -ljansson
else ifneq ($(filter /%,$(JANSSON_A)),)
JANSSON_LIBS ?= -Wl,-Bstatic -ljansson -Wl,-Bdynamic
else
JANSSON_LIBS ?= $(shell $(PKG_CONFIG) --libs jansson 2>/dev/null || echo -ljansson)
endif

WARNINGS := -Wall -Wextra -Wshadow -Wformat=2 -Wmissing-prototypes \
	-Wstrict-prototypes -Wpointer-arith -Wwrite-strings -Wundef \
	-Wno-unused-parameter -Wvla -Wimplicit-fallthrough
ifeq ($(DEVELOPER),1)
WARNINGS += -Werror
endif

# libm is not loaded at start-up: loading it cost about 3% of pstat's
# start-up, and a plain counting run calls none of it. sqrt compiles to
# the instruction under -fno-math-errno (nothing in pstat reads errno
# after a math function), fabs, floor and the like are inlined, and the
# statistics' functions go through src/base/libm.c, which loads libm with
# dlopen on the first call. -lm is linked --as-needed, so that a build
# whose compiler does not inline (-O0, clang) still links, only with
# libm loaded at start again; -lc comes before it, so that what libc
# exports as well (frexp, ldexp, modf) is taken from libc.
ALL_CFLAGS := -std=gnu11 -D_GNU_SOURCE -DPSTAT_VERSION='"$(VERSION)"' \
	-fno-math-errno \
	-Isrc $(WARNINGS) $(PFM_CFLAGS) $(JANSSON_CFLAGS) $(CPPFLAGS) $(CFLAGS)
# Bound at start (full RELRO, as hardened distribution builds link):
# no symbol lookups on first calls later, and none in the forked child
# on its way to the exec, whose lookups wrote the GOT (copy-on-write
# page faults) while the command waited to start.
ALL_LDFLAGS := -Wl,-z,relro,-z,now $(LDFLAGS)
LIBS := $(PFM_LIBS) $(JANSSON_LIBS) -Wl,--push-state,--as-needed -lc -lm \
	-Wl,--pop-state

ifneq ($(SANITIZE),)
ALL_CFLAGS += -fsanitize=$(SANITIZE) -fno-omit-frame-pointer
ALL_LDFLAGS += -fsanitize=$(SANITIZE)
endif

ifneq ($(V),1)
Q := @
QUIET_CC = @echo '   CC' $@;
QUIET_LINK = @echo ' LINK' $@;
endif

# the tables generated from the vendors' data live beside their
# generator (src/events/vendor/gen-tables.py)
LIB_SRC := $(wildcard src/*/*.c) src/events/vendor/vendor_tables.c
LIB_OBJ := $(LIB_SRC:.c=.o)
TEST_SRC := $(wildcard tests/helper/*.c)
TEST_OBJ := $(TEST_SRC:.c=.o)
ALL_OBJ := src/main.o $(LIB_OBJ) $(TEST_OBJ)

.DELETE_ON_ERROR:
.PHONY: all check check-pmu demo deps deps-build install uninstall clean bench layout-check regen-metrics

all: pstat

# An include that points up the pipeline (src/run/ including src/cli/)
# fails the build: see tests/lib/check-layout and README "Hacking".
LAYOUT_SRC ?= src
layout-check:
	@tests/lib/check-layout $(LAYOUT_SRC)

pstat: src/main.o src/libpstat.a | layout-check
	$(QUIET_LINK)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LIBS)

# The tables made from the vendors' data (src/events/vendor/): committed,
# so a build needs neither the data's tools nor a network; this re-makes
# them after the data or the generator changed.
regen-metrics:
	python3 src/events/vendor/gen-tables.py

src/libpstat.a: $(LIB_OBJ)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

tests/pstat-test: $(TEST_OBJ) src/libpstat.a
	$(QUIET_LINK)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LIBS)

%.o: %.c
	$(QUIET_CC)$(CC) $(ALL_CFLAGS) -Itests/helper -MMD -MP -c -o $@ $<

# Every object depends on the flags it was built with.
$(ALL_OBJ): .build-flags
.build-flags: FORCE
	@echo '$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(LIBS)' | cmp -s - $@ || \
		echo '$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(LIBS)' > $@
FORCE:

deps:
	@.ci/install-deps

deps-build:
	@.ci/install-deps build

# NO_INSTALL=1: use what is there (a distribution's build chroot)
DEPS := $(if $(filter 1,$(NO_INSTALL)),,deps)
DEPS_BUILD := $(if $(filter 1,$(NO_INSTALL)),,deps-build)

demo: $(DEPS_BUILD)
	$(MAKE) pstat
	$(CC) -O1 -o bench/workload bench/workload.c
	./pstat -e task-clock,page-faults,context-switches,cycles,instructions \
		-- ./bench/workload 20000000

check: $(DEPS)
	$(MAKE) pstat tests/pstat-test
	@tests/run-tests

# The lab installs its own host packages and downloads the guest's (both
# kept between runs: tests/pmulab/lab says where), unless NO_INSTALL=1.
check-pmu: $(DEPS)
	$(MAKE) pstat tests/pstat-test
	@BATS_FILTER=tests/95-pmulab.bats tests/run-tests

# BENCH_ROWS="startup list": only those rows (see bench/run)
bench: $(DEPS) pstat
	@bench/run $(BENCH_ROWS)

# The directories make install fills. Under a DESTDIR, make uninstall
# removes those of them left empty and their empty parents, up to
# DESTDIR; on the live system only $(DATADIR)/pstat, which is pstat's
# own: the others may belong to the system or to other packages.
INSTALL_DIRS := $(BINDIR) $(MANDIR)/man1 $(MANDIR)/man5 $(DATADIR)/pstat \
	$(DATADIR)/pstat/licenses $(BASHCOMPDIR) $(ZSHCOMPDIR) $(FISHCOMPDIR) \
	$(SYSTEMDUNITDIR) $(DATADIR)/pstat/prometheus $(DATADIR)/pstat/grafana
# The metric library adapts vendors' formulas under their licences
# (BSD-3-Clause asks for its notice in binary distributions too).
LICENSES := $(wildcard src/events/metric_lib_licenses/*)
# The man pages name the schemas as $(PREFIX)/share/pstat and the unit
# as $(PREFIX)/lib/systemd/system: the real directories are written in
# at install time.
MAN_SED := -e 's|\$$(PREFIX)/share/pstat|$(DATADIR)/pstat|g' \
	-e 's|\$$(PREFIX)/lib/systemd/system|$(SYSTEMDUNITDIR)|g'

install: pstat
	install -d $(addprefix $(DESTDIR),$(INSTALL_DIRS))
	install -m 755 pstat $(DESTDIR)$(BINDIR)/pstat
	sed $(MAN_SED) man/pstat.1 >$(DESTDIR)$(MANDIR)/man1/pstat.1
	sed $(MAN_SED) man/pstat-json.5 >$(DESTDIR)$(MANDIR)/man5/pstat-json.5
	chmod 644 $(DESTDIR)$(MANDIR)/man1/pstat.1 \
		$(DESTDIR)$(MANDIR)/man5/pstat-json.5
	install -m 644 schema/*.json $(DESTDIR)$(DATADIR)/pstat/
	install -m 644 $(LICENSES) $(DESTDIR)$(DATADIR)/pstat/licenses/
	install -m 644 completions/pstat.bash $(DESTDIR)$(BASHCOMPDIR)/pstat
	install -m 644 completions/_pstat $(DESTDIR)$(ZSHCOMPDIR)/_pstat
	install -m 644 completions/pstat.fish $(DESTDIR)$(FISHCOMPDIR)/pstat.fish
	sed 's|^ExecStart=/usr/bin/pstat |ExecStart=$(BINDIR)/pstat |' \
		contrib/systemd/pstat.service >$(DESTDIR)$(SYSTEMDUNITDIR)/pstat.service
	chmod 644 $(DESTDIR)$(SYSTEMDUNITDIR)/pstat.service
	install -m 644 contrib/prometheus/pstat.rules.yml \
		$(DESTDIR)$(DATADIR)/pstat/prometheus/
	install -m 644 contrib/grafana/pstat.json $(DESTDIR)$(DATADIR)/pstat/grafana/

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/pstat $(DESTDIR)$(MANDIR)/man1/pstat.1 \
		$(DESTDIR)$(MANDIR)/man5/pstat-json.5 \
		$(DESTDIR)$(BASHCOMPDIR)/pstat $(DESTDIR)$(ZSHCOMPDIR)/_pstat \
		$(DESTDIR)$(FISHCOMPDIR)/pstat.fish \
		$(DESTDIR)$(SYSTEMDUNITDIR)/pstat.service \
		$(DESTDIR)$(DATADIR)/pstat/prometheus/pstat.rules.yml \
		$(DESTDIR)$(DATADIR)/pstat/grafana/pstat.json
	rm -f $(addprefix $(DESTDIR)$(DATADIR)/pstat/,$(notdir $(wildcard schema/*.json)))
	rm -f $(addprefix $(DESTDIR)$(DATADIR)/pstat/licenses/,$(notdir $(LICENSES)))
	rmdir --ignore-fail-on-non-empty $(DESTDIR)$(DATADIR)/pstat/licenses \
		$(DESTDIR)$(DATADIR)/pstat/prometheus \
		$(DESTDIR)$(DATADIR)/pstat/grafana \
		$(DESTDIR)$(DATADIR)/pstat 2>/dev/null || true
	@if [ -n "$(DESTDIR)" ] && [ "$(DESTDIR)" != / ]; then \
		for d in $(INSTALL_DIRS); do \
			while [ -n "$$d" ] && [ "$$d" != / ] && \
			    rmdir "$(DESTDIR)$$d" 2>/dev/null; do \
				d=$${d%/*}; \
			done; \
		done; \
	fi

clean:
	rm -f pstat tests/pstat-test src/libpstat.a $(ALL_OBJ) $(ALL_OBJ:.o=.d) \
		.build-flags bench/workload bench/floor bench/reap

-include $(ALL_OBJ:.o=.d)

# ---------------------------------------------------------------------
# Fuzzing and memory checking (issue 8). libFuzzer targets in fuzz/,
# built with clang into fuzz/build/ from their own instrumented objects.
#
#   make fuzz FUZZ_SECONDS=N   run each target N seconds (default 60) on
#                              a scratch copy of fuzz/corpus/<target>/
#                              (FUZZ_TARGETS=fuzz_evlist: only that one)
#   make fuzz-build            build the targets only
#   make check-valgrind        the live tests with pstat under valgrind
#
# A target's findings (crash-*, leak-*, timeout-*) land in $(FUZZ_WORK);
# each becomes a corpus file and a regression test.
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
FUZZ_WORK ?= $(or $(TMPDIR),/tmp)/pstat-fuzz
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_CFLAGS := -std=gnu11 -D_GNU_SOURCE -DPSTAT_VERSION='"$(VERSION)"' \
	-Isrc $(WARNINGS) $(PFM_CFLAGS) $(JANSSON_CFLAGS) -g -O1 \
	-fno-omit-frame-pointer $(FUZZ_SAN) \
	-DFUZZ_FIXTURES='"$(CURDIR)/tests/fixtures"'
FUZZ_TARGETS := $(basename $(notdir $(wildcard fuzz/fuzz_*.c)))
FUZZ_BINS := $(addprefix fuzz/build/,$(FUZZ_TARGETS))
FUZZ_OBJ := $(patsubst src/%.c,fuzz/build/obj/%.o,$(LIB_SRC))

.PHONY: fuzz fuzz-build fuzz-clean check-valgrind
.SECONDARY: $(FUZZ_OBJ)

fuzz-build: $(FUZZ_BINS)

fuzz/build/obj/%.o: src/%.c
	@mkdir -p $(@D)
	$(QUIET_CC)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link \
		-MMD -MP -c -o $@ $<

fuzz/build/libpstat.a: $(FUZZ_OBJ)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

# fuzz_evlist decides per input whether libpfm4 is reached (see there).
fuzz/build/fuzz_evlist: FUZZ_LINK := -Wl,--wrap=pfm_encode \
	-Wl,--wrap=pfm_foreach_name

fuzz/build/%: fuzz/%.c fuzz/build/libpstat.a
	$(QUIET_LINK)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -MMD -MP \
		-MF $@.d -o $@ $< fuzz/build/libpstat.a $(FUZZ_LINK) $(LIBS)

fuzz: fuzz-build
	@mkdir -p $(FUZZ_WORK)
	@for t in $(FUZZ_TARGETS); do \
		w=$(FUZZ_WORK)/$$t; rm -rf $$w; mkdir -p $$w/corpus; \
		cp fuzz/corpus/$$t/* $$w/corpus/ 2>/dev/null; \
		cp fuzz/build/$$t $$w/; \
		echo "fuzz: $$t for $(FUZZ_SECONDS) s in $$w"; \
		dict=; [ -f fuzz/$$t.dict ] && dict=-dict=fuzz/$$t.dict; \
		$$w/$$t -max_total_time=$(FUZZ_SECONDS) -max_len=4096 $$dict \
			-print_final_stats=1 -artifact_prefix=$$w/ \
			$$w/corpus > $$w/log 2>&1; rc=$$?; \
		echo "fuzz: $$t: exit $$rc, $$(ls $$w/corpus | wc -l) corpus files," \
			"$$(sed -n 's/^stat::average_exec_per_sec: *//p' $$w/log) exec/s"; \
		[ $$rc = 0 ] || { tail -40 $$w/log; exit 1; }; \
	done

fuzz-clean:
	rm -rf fuzz/build

clean: fuzz-clean

# The live tests with every pstat process under memcheck, each logging
# to $(VALGRIND_LOGS)/PID.log: the target fails when a log holds an
# error or a definitely lost block (==PID== lines; valgrind's own
# --PID-- warnings, such as pidfd_open being unknown to it, are not). Tests that hang on timing or on the
# descriptor limit (valgrind is slow and keeps descriptors of its own)
# may fail under it; they are listed, and make check is their judge.
# tests/lib/pstat-json-keep (and tests/61-robust.bats) put $PSTAT_WRAP
# before the real pstat. BATS_FILTER=tests/02-count.bats: only those.
VALGRIND ?= valgrind
VALGRIND_LOGS ?= $(or $(TMPDIR),/tmp)/pstat-valgrind
VALGRIND_TESTS := $(wildcard tests/0*.bats) tests/20-pmu.bats \
	tests/31-list.bats $(wildcard tests/4*.bats) tests/60-bad-input.bats \
	tests/61-robust.bats tests/70-compare.bats tests/93-doctor.bats
check-valgrind: pstat tests/pstat-test
	@rm -rf $(VALGRIND_LOGS) && mkdir -p $(VALGRIND_LOGS)
	-@PSTAT_WRAP='$(VALGRIND) -q --log-file=$(VALGRIND_LOGS)/%p.log --error-exitcode=99 --leak-check=full --show-leak-kinds=definite --errors-for-leak-kinds=definite --suppressions=$(CURDIR)/tests/valgrind.supp' \
		BATS_FILTER='$(or $(BATS_FILTER),$(VALGRIND_TESTS))' \
		tests/run-tests
	@bad=$$(grep -l '^==[0-9]*==' $(VALGRIND_LOGS)/*.log); \
	echo "valgrind: $$(ls $(VALGRIND_LOGS) | wc -l) pstat processes checked," \
		"$$(echo $$bad | wc -w) with errors or definitely lost blocks"; \
	for f in $$bad; do echo "== $$f"; head -60 $$f; done; \
	[ -z "$$bad" ]

-include $(FUZZ_OBJ:.o=.d) $(FUZZ_BINS:=.d)
