# cbench: plain GNU make.  `make`, `make test`, `make install`.
# Project flags are added to the user's CFLAGS, never replace them.

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man/man1
DESTDIR ?=
PKG_CONFIG ?= pkg-config
CC ?= cc
CFLAGS ?= -O2 -g

PKGS := libcjson gsl
ifeq ($(shell $(PKG_CONFIG) --exists $(PKGS) && echo yes),)
$(error cJSON and GSL not found by $(PKG_CONFIG): install libcjson-dev libgsl-dev pkg-config)
endif
PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS))
PKG_LIBS := $(shell $(PKG_CONFIG) --libs $(PKGS))

FINAL_CFLAGS := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Iinclude $(PKG_CFLAGS) $(CFLAGS)
FINAL_LDFLAGS := $(LDFLAGS)
FINAL_LIBS := $(PKG_LIBS) -lm

# SANITIZE=address,undefined builds everything instrumented, in its own
# object directory so normal and sanitized objects never mix.
BUILD := build
ifdef SANITIZE
FINAL_CFLAGS += -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all
FINAL_LDFLAGS += -fsanitize=$(SANITIZE)
BUILD := build/san-$(subst $(comma),-,$(SANITIZE))
endif
comma := ,

ifeq ($(V),1)
Q :=
else
Q := @
endif

SRCS := $(wildcard src/*.c)
LIB_SRCS := $(filter-out src/main.c,$(SRCS))
OBJS := $(SRCS:src/%.c=$(BUILD)/%.o)
LIB_OBJS := $(LIB_SRCS:src/%.c=$(BUILD)/%.o)
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)
HELPER_SRCS := $(wildcard tests/helpers/*.c)
HELPER_BINS := $(HELPER_SRCS:tests/helpers/%.c=$(BUILD)/helpers/%)

all: cbench

# Rebuild when the flags change: $(BUILD)/.flags for the objects of this
# configuration, build/.flags-cbench for ./cbench, which every configuration
# shares (so a plain `make` after a SANITIZE build relinks it).
$(BUILD)/.flags build/.flags-cbench: FORCE
	@mkdir -p $(dir $@)
	@echo '$(CC) $(FINAL_CFLAGS) $(FINAL_LDFLAGS)' | cmp -s - $@ || \
		echo '$(CC) $(FINAL_CFLAGS) $(FINAL_LDFLAGS)' > $@

cbench: $(OBJS) build/.flags-cbench
	@echo "  LD      $@"
	$(Q)$(CC) $(FINAL_LDFLAGS) -o $@ $(OBJS) $(FINAL_LIBS)

$(BUILD)/%.o: src/%.c $(BUILD)/.flags
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(FINAL_CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/tests/%: tests/unit/%.c tests/unit/unit.h $(LIB_OBJS) $(BUILD)/.flags
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(FINAL_CFLAGS) -Itests/unit -o $@ $< $(LIB_OBJS) $(FINAL_LDFLAGS) $(FINAL_LIBS)

# Test helper programs are never sanitized: they are the commands measured.
$(BUILD)/helpers/%: tests/helpers/%.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) -std=c11 -D_GNU_SOURCE -O1 -Wall -Wextra -o $@ $< -lpthread

test: cbench $(UNIT_BINS) $(HELPER_BINS)
	@CBENCH=$(CURDIR)/cbench UNIT_DIR=$(BUILD)/tests HELPERS=$(CURDIR)/$(BUILD)/helpers \
		VALGRIND=$(VALGRIND) bash tests/run.sh

install: cbench
	install -d $(DESTDIR)$(BINDIR)
	install -m 755 cbench $(DESTDIR)$(BINDIR)/cbench

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/cbench

clean:
	rm -rf build cbench

.PHONY: all test install uninstall clean FORCE
FORCE:

-include $(OBJS:.o=.d)
