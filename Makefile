# pstat - a perf-stat-style counting tool.  Plain GNU make.
#
#   make                 build ./pstat
#   make check           install test deps if missing, build, run every test
#   make demo            install build deps if missing, build, count a workload
#   make install         PREFIX=/usr/local DESTDIR=
#   make DEVELOPER=1     warnings are errors
#   make SANITIZE=address,undefined
#   make V=1             show the commands

VERSION := 0.1.0

CC ?= cc
CFLAGS ?= -O2 -g
LDFLAGS ?=
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
DATADIR ?= $(PREFIX)/share
PKG_CONFIG ?= pkg-config

# libpfm4-dev ships no .pc file. pstat needs its headers to build but
# loads libpfm.so.4 with dlopen when an event name first reaches it (see
# src/pfm.c), so it links only libdl.
PFM_CFLAGS ?=
PFM_LIBS ?= -ldl
JANSSON_CFLAGS ?= $(shell $(PKG_CONFIG) --cflags jansson 2>/dev/null)
JANSSON_LIBS ?= $(shell $(PKG_CONFIG) --libs jansson 2>/dev/null || echo -ljansson)

WARNINGS := -Wall -Wextra -Wshadow -Wformat=2 -Wmissing-prototypes \
	-Wstrict-prototypes -Wpointer-arith -Wwrite-strings -Wundef \
	-Wno-unused-parameter -Wvla -Wimplicit-fallthrough
ifeq ($(DEVELOPER),1)
WARNINGS += -Werror
endif

ALL_CFLAGS := -std=gnu11 -D_GNU_SOURCE -DPSTAT_VERSION='"$(VERSION)"' \
	-Isrc $(WARNINGS) $(PFM_CFLAGS) $(JANSSON_CFLAGS) $(CFLAGS)
ALL_LDFLAGS := $(LDFLAGS)
LIBS := $(PFM_LIBS) $(JANSSON_LIBS) -lm

ifneq ($(SANITIZE),)
ALL_CFLAGS += -fsanitize=$(SANITIZE) -fno-omit-frame-pointer
ALL_LDFLAGS += -fsanitize=$(SANITIZE)
endif

ifneq ($(V),1)
Q := @
QUIET_CC = @echo '   CC' $@;
QUIET_LINK = @echo ' LINK' $@;
endif

LIB_SRC := $(filter-out src/main.c,$(wildcard src/*.c))
LIB_OBJ := $(LIB_SRC:.c=.o)
TEST_SRC := $(wildcard tests/helper/*.c)
TEST_OBJ := $(TEST_SRC:.c=.o)
ALL_OBJ := src/main.o $(LIB_OBJ) $(TEST_OBJ)

.DELETE_ON_ERROR:
.PHONY: all check demo deps install uninstall clean bench

all: pstat

pstat: src/main.o src/libpstat.a
	$(QUIET_LINK)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LIBS)

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

demo: deps
	$(MAKE) pstat
	$(CC) -O1 -o bench/workload bench/workload.c
	./pstat -e task-clock,page-faults,context-switches,cycles,instructions \
		-- ./bench/workload 20000000

check: deps
	$(MAKE) pstat tests/pstat-test
	@tests/run-tests

bench: pstat
	@bench/run

install: pstat
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(DATADIR)/pstat \
		$(DESTDIR)$(DATADIR)/bash-completion/completions \
		$(DESTDIR)$(DATADIR)/zsh/site-functions \
		$(DESTDIR)$(DATADIR)/fish/vendor_completions.d
	install -m 755 pstat $(DESTDIR)$(BINDIR)/pstat
	install -m 644 man/pstat.1 $(DESTDIR)$(MANDIR)/man1/pstat.1
	install -m 644 man/pstat-json.5 $(DESTDIR)$(MANDIR)/man5/pstat-json.5
	install -m 644 schema/*.json $(DESTDIR)$(DATADIR)/pstat/
	install -m 644 completions/pstat.bash \
		$(DESTDIR)$(DATADIR)/bash-completion/completions/pstat
	install -m 644 completions/_pstat $(DESTDIR)$(DATADIR)/zsh/site-functions/_pstat
	install -m 644 completions/pstat.fish \
		$(DESTDIR)$(DATADIR)/fish/vendor_completions.d/pstat.fish

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/pstat $(DESTDIR)$(MANDIR)/man1/pstat.1 \
		$(DESTDIR)$(MANDIR)/man5/pstat-json.5 \
		$(DESTDIR)$(DATADIR)/bash-completion/completions/pstat \
		$(DESTDIR)$(DATADIR)/zsh/site-functions/_pstat \
		$(DESTDIR)$(DATADIR)/fish/vendor_completions.d/pstat.fish
	rm -f $(addprefix $(DESTDIR)$(DATADIR)/pstat/,$(notdir $(wildcard schema/*.json)))
	-rmdir $(DESTDIR)$(DATADIR)/pstat

clean:
	rm -f pstat tests/pstat-test src/libpstat.a $(ALL_OBJ) $(ALL_OBJ:.o=.d) \
		.build-flags bench/workload bench/floor

-include $(ALL_OBJ:.o=.d)
