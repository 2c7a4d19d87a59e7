# cbench: plain GNU make.  `make`, `make test`, `make install`.
# Project flags are added to the user's CFLAGS, never replace them.

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man/man1
BASHCOMPDIR ?= $(DATADIR)/bash-completion/completions
ZSHCOMPDIR ?= $(DATADIR)/zsh/site-functions
FISHCOMPDIR ?= $(DATADIR)/fish/vendor_completions.d
DESTDIR ?=
# The man page is generated from --help and --version by help2man.  `make`
# builds it when help2man is installed; `make install` needs it unless
# NO_MAN=1 (then neither install nor uninstall touch the man page).
HELP2MAN ?= help2man
NO_MAN ?=
PKG_CONFIG ?= pkg-config
CC ?= cc
CFLAGS ?= -O2 -g

PKGS := libcjson gsl
ifeq ($(shell $(PKG_CONFIG) --exists $(PKGS) && echo yes),)
$(error cJSON and GSL not found by $(PKG_CONFIG): install libcjson-dev libgsl-dev pkg-config)
endif
PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS))
# GSL is linked statically when its archive is there (Debian's libgsl-dev
# ships it): only the few routines cbench calls come along, packed
# together, instead of the shared library's code pages that the report
# touches all over (about 1 MB of resident memory more, measured with
# `make bench`).  STATIC_GSL=0 links it dynamically.
STATIC_GSL ?= auto
GSL_LIBDIR := $(shell $(PKG_CONFIG) --variable=libdir gsl)
ifeq ($(STATIC_GSL),auto)
override STATIC_GSL := $(if $(wildcard $(GSL_LIBDIR)/libgsl.a),1,0)
endif
ifeq ($(STATIC_GSL),1)
GSL_LIBS := -L$(GSL_LIBDIR) -Wl,-Bstatic -lgsl -lgslcblas -Wl,-Bdynamic
else
GSL_LIBS := $(shell $(PKG_CONFIG) --libs gsl)
endif
PKG_LIBS := $(shell $(PKG_CONFIG) --libs libcjson) $(GSL_LIBS)

# The results history (src/history/): SQLite is required, libpq optional
# (without it a postgresql:// history is refused with a message saying so,
# as `cbench history --help` does).  NO_LIBPQ=1 builds without it.
ifeq ($(shell $(PKG_CONFIG) --exists sqlite3 && echo yes),)
$(error SQLite not found by $(PKG_CONFIG): install libsqlite3-dev)
endif
PKG_CFLAGS += $(shell $(PKG_CONFIG) --cflags sqlite3)
PKG_LIBS += $(shell $(PKG_CONFIG) --libs sqlite3)
# --metric patterns: PCRE2.
ifeq ($(shell $(PKG_CONFIG) --exists libpcre2-8 && echo yes),)
$(error PCRE2 not found by $(PKG_CONFIG): install libpcre2-dev)
endif
PKG_CFLAGS += $(shell $(PKG_CONFIG) --cflags libpcre2-8)
PKG_LIBS += $(shell $(PKG_CONFIG) --libs libpcre2-8)
NO_LIBPQ ?=
ifeq ($(NO_LIBPQ),)
ifneq ($(shell $(PKG_CONFIG) --exists libpq && echo yes),)
# Headers only: history_pg.c loads libpq.so.5 with dlopen() when a
# postgresql:// history is used, so its twenty libraries stay out of
# every other cbench process (and of the commands' peak RSS).
PKG_CFLAGS += -DHAVE_LIBPQ $(shell $(PKG_CONFIG) --cflags libpq)
PKG_LIBS += -ldl
endif
endif

FINAL_CFLAGS := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Iinclude $(PKG_CFLAGS) $(CFLAGS)
FINAL_LDFLAGS := $(LDFLAGS)
FINAL_LIBS := $(PKG_LIBS) -lm

# SANITIZE=address,undefined builds everything instrumented, in its own
# object directory so normal and sanitized objects never mix.
BUILD := build
comma := ,
ifdef SANITIZE
FINAL_CFLAGS += -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all
FINAL_LDFLAGS += -fsanitize=$(SANITIZE)
BUILD := build/san-$(subst $(comma),-,$(SANITIZE))
endif

ifeq ($(V),1)
Q :=
else
Q := @
endif

# src/ groups the modules by their place in the flow (README,
# "Architecture"): cli, plan, run, analysis, report, export, gate, util.
SRCS := $(wildcard src/*.c src/*/*.c)
LIB_SRCS := $(filter-out src/main.c,$(SRCS))
OBJS := $(SRCS:src/%.c=$(BUILD)/%.o)
LIB_OBJS := $(LIB_SRCS:src/%.c=$(BUILD)/%.o)
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)
HELPER_SRCS := $(wildcard tests/helpers/*.c)
HELPER_BINS := $(HELPER_SRCS:tests/helpers/%.c=$(BUILD)/helpers/%)

all: cbench
ifeq ($(NO_MAN),)
ifneq ($(shell command -v $(HELP2MAN) 2>/dev/null),)
all: cbench.1
endif
endif

# Rebuild when the flags change: $(BUILD)/.flags for the objects of this
# configuration, build/.flags-cbench for ./cbench, which every configuration
# shares (so a plain `make` after a SANITIZE build relinks it).
$(BUILD)/.flags build/.flags-cbench: FORCE
	@mkdir -p $(dir $@)
	@echo '$(CC) $(FINAL_CFLAGS) $(FINAL_LDFLAGS) $(FINAL_LIBS)' | cmp -s - $@ || \
		echo '$(CC) $(FINAL_CFLAGS) $(FINAL_LDFLAGS) $(FINAL_LIBS)' > $@

cbench: $(OBJS) build/.flags-cbench
	@echo "  LD      $@"
	$(Q)$(CC) $(FINAL_LDFLAGS) -o $@ $(OBJS) $(FINAL_LIBS)

$(BUILD)/%.o: src/%.c $(BUILD)/.flags
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(FINAL_CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/tests/%: tests/unit/%.c $(wildcard tests/unit/*.h) $(LIB_OBJS) $(BUILD)/.flags
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(FINAL_CFLAGS) -Itests/unit -o $@ $< $(LIB_OBJS) $(FINAL_LDFLAGS) $(FINAL_LIBS)

# Test helper programs are never sanitized: they are the commands measured.
$(BUILD)/helpers/%: tests/helpers/%.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) -std=c11 -D_GNU_SOURCE -O1 -Wall -Wextra -o $@ $< -lpthread

# probe sideband opens the side-band events with cbench's own code.
$(BUILD)/helpers/probe: tests/helpers/probe.c src/run/sideband.c include/sideband.h
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) -std=c11 -D_GNU_SOURCE -O1 -Wall -Wextra -Iinclude -o $@ $< src/run/sideband.c -lm

test: cbench $(UNIT_BINS) $(HELPER_BINS)
	@CBENCH=$(CURDIR)/cbench UNIT_DIR=$(BUILD)/tests HELPERS=$(CURDIR)/$(BUILD)/helpers \
		VALGRIND=$(VALGRIND) bash tests/run.sh

# `make bench`: cbench's own cost against the floor and hyperfine
# (tests/bench/run.sh).  Always an optimised, uninstrumented build.
$(BUILD)/bench/floor: tests/bench/floor.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) -std=c11 -D_GNU_SOURCE -O2 -Wall -Wextra -o $@ $<

$(BUILD)/bench/backend: tests/bench/backend.c tests/bench/bench_util.h $(LIB_OBJS) $(BUILD)/.flags
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(FINAL_CFLAGS) -o $@ $< $(LIB_OBJS) $(FINAL_LDFLAGS) $(FINAL_LIBS)

# Change-point detection over a long series (tests/bench/changepoint.c).
$(BUILD)/bench/changepoint: tests/bench/changepoint.c tests/bench/bench_util.h $(LIB_OBJS) $(BUILD)/.flags
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(FINAL_CFLAGS) -o $@ $< $(LIB_OBJS) $(FINAL_LDFLAGS) $(FINAL_LIBS)
bench: $(BUILD)/bench/changepoint

# The results history on SQLite (tests/bench/history.c).
$(BUILD)/bench/history: tests/bench/history.c tests/bench/bench_util.h $(LIB_OBJS) $(BUILD)/.flags
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(FINAL_CFLAGS) -o $@ $< $(LIB_OBJS) $(FINAL_LDFLAGS) $(FINAL_LIBS)
bench: $(BUILD)/bench/history

bench: cbench $(BUILD)/bench/floor $(BUILD)/bench/backend $(BUILD)/helpers/hwm
ifdef SANITIZE
	$(error make bench measures the plain build: run it without SANITIZE)
endif
	@CBENCH=$(CURDIR)/cbench FLOOR=$(CURDIR)/$(BUILD)/bench/floor \
		BACKEND=$(CURDIR)/$(BUILD)/bench/backend \
		HWM=$(CURDIR)/$(BUILD)/helpers/hwm bash tests/bench/run.sh

# `make verdicts`: false-positive, wrong-direction and detection rates of
# cbench's verdicts under a background load that switches on and off
# (tests/verdicts/run.sh; VERDICT_TRIALS etc. in tests/verdicts/README.md).
verdicts: cbench $(BUILD)/helpers/spin $(BUILD)/helpers/loadgen $(BUILD)/helpers/loop
	@CBENCH=$(CURDIR)/cbench HELPERS=$(CURDIR)/$(BUILD)/helpers \
		bash tests/verdicts/run.sh

# libFuzzer targets (tests/fuzz/fuzz_*.c), built with clang under ASan and
# UBSan.  `make fuzz` runs each for FUZZ_SECONDS, starting from its seed
# corpus tests/fuzz/corpus/NAME (new inputs go to build/fuzz/corpus/NAME).
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
FUZZ_BUILD := build/fuzz
FUZZ_FLAGS := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Iinclude $(PKG_CFLAGS) \
	-g -O1 -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=all
FUZZ_SRCS := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BINS := $(FUZZ_SRCS:tests/fuzz/%.c=$(FUZZ_BUILD)/%)
FUZZ_OBJS := $(LIB_SRCS:src/%.c=$(FUZZ_BUILD)/obj/%.o)

$(FUZZ_BUILD)/obj/%.o: src/%.c
	@mkdir -p $(dir $@)
	@echo "  CC      $< (fuzz)"
	$(Q)$(FUZZ_CC) $(subst fuzzer$(comma),fuzzer-no-link$(comma),$(FUZZ_FLAGS)) -MMD -MP -c -o $@ $<

$(FUZZ_BUILD)/fuzz_%: tests/fuzz/fuzz_%.c $(wildcard tests/fuzz/*.h) $(FUZZ_OBJS)
	@echo "  LD      $@"
	$(Q)$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $< $(FUZZ_OBJS) $(FINAL_LIBS)

fuzz-build: $(FUZZ_BINS)

.SECONDARY: $(FUZZ_OBJS)

# -close_fd_mask=3: the targets' own messages (usage errors, --help) are
# noise; libFuzzer still reports crashes on its copy of stderr.
# -timeout=30: an input that takes longer is a finding (libFuzzer's own
# default, 1200 s, let one hold CI for 20 minutes).
fuzz: $(FUZZ_BINS)
	@set -e; for b in $(FUZZ_BINS); do \
		n=$${b##*/fuzz_}; mkdir -p $(FUZZ_BUILD)/corpus/$$n; \
		echo "== fuzz $$n for $(FUZZ_SECONDS) s"; \
		if $$b -max_total_time=$(FUZZ_SECONDS) -timeout=30 -close_fd_mask=3 \
			-print_final_stats=1 -artifact_prefix=$(FUZZ_BUILD)/crash-$$n- \
			$(FUZZ_BUILD)/corpus/$$n tests/fuzz/corpus/$$n \
			>$(FUZZ_BUILD)/$$n.log 2>&1; then \
			grep -E 'DONE|number_of_executed_units' $(FUZZ_BUILD)/$$n.log || true; \
		else \
			tail -n 80 $(FUZZ_BUILD)/$$n.log; exit 1; \
		fi; \
	done

man: cbench.1

cbench.1: cbench doc/cbench.h2m
	@command -v $(HELP2MAN) >/dev/null 2>&1 || { \
		echo "cbench.1 is generated by help2man, which is not installed:" \
		     "install it (apt-get install help2man), or build and install" \
		     "without the man page with NO_MAN=1" >&2; exit 1; }
	@echo "  GEN     $@"
	$(Q)$(HELP2MAN) --no-info --include=doc/cbench.h2m \
		--name='statistical command-line benchmarking' \
		--output=$@.tmp ./cbench && mv $@.tmp $@

# install and uninstall mirror each other: uninstall removes exactly the
# files install writes (directories are left, they may be shared).
install: cbench $(if $(NO_MAN),,cbench.1)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(BASHCOMPDIR) \
		$(DESTDIR)$(ZSHCOMPDIR) $(DESTDIR)$(FISHCOMPDIR)
	install -m 755 cbench $(DESTDIR)$(BINDIR)/cbench
	install -m 644 completions/cbench.bash $(DESTDIR)$(BASHCOMPDIR)/cbench
	install -m 644 completions/_cbench $(DESTDIR)$(ZSHCOMPDIR)/_cbench
	install -m 644 completions/cbench.fish $(DESTDIR)$(FISHCOMPDIR)/cbench.fish
ifeq ($(NO_MAN),)
	install -d $(DESTDIR)$(MANDIR)
	install -m 644 cbench.1 $(DESTDIR)$(MANDIR)/cbench.1
endif

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/cbench
	rm -f $(DESTDIR)$(BASHCOMPDIR)/cbench
	rm -f $(DESTDIR)$(ZSHCOMPDIR)/_cbench
	rm -f $(DESTDIR)$(FISHCOMPDIR)/cbench.fish
ifeq ($(NO_MAN),)
	rm -f $(DESTDIR)$(MANDIR)/cbench.1
endif

clean:
	rm -rf build cbench cbench.1 cbench.1.tmp

# The README run as written, in a temporary fresh clone of the committed
# tree, without the network (tests/docs/check_docs.sh says how).
check-docs:
	@bash tests/docs/check_docs.sh

.PHONY: all man test bench verdicts fuzz fuzz-build install uninstall clean check-docs FORCE
FORCE:

-include $(OBJS:.o=.d) $(FUZZ_OBJS:.o=.d)
