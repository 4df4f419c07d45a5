# gfpaudit build.  `make` builds ./gfpaudit; `make test` runs every suite;
# `make asan` runs them under ASan/UBSan; `make kernel [ARCH=A] [PAGES=P]`
# prepares a real tree; `make deps` installs the Debian packages the build and
# the tests need (nothing else here installs packages); `make install
# [PREFIX=/usr/local] [DESTDIR=...]` installs the binary and its data.
# CFLAGS/LDFLAGS are the user's (default -O2 -g); the flags the build needs are
# added in ALL_CFLAGS.  DEVELOPER=1 turns warnings into errors (CI and the
# test targets set it); put it in config.mak to keep it on.
-include config.mak
LLVM_CONFIG ?= $(firstword $(wildcard /usr/bin/llvm-config-14 /usr/bin/llvm-config) llvm-config)
PKGS := gmime-3.0 libgit2 jansson sqlite3
CC ?= cc
BUILD ?= build/obj
KVER ?= 6.12
KDIR ?= $(CURDIR)/build/linux-$(KVER)

LLVM_INC := $(shell $(LLVM_CONFIG) --includedir 2>/dev/null)
LLVM_LIB := $(shell $(LLVM_CONFIG) --libdir 2>/dev/null)
CLANG_RES := $(shell clang -print-resource-dir 2>/dev/null)
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS := $(shell pkg-config --libs $(PKGS) 2>/dev/null)

OPT ?= -O2
CFLAGS ?= $(OPT) -g
WERROR = $(if $(filter 1,$(DEVELOPER)),-Werror)
# the run-time data (include/kmodel, rules) is found next to the executable or
# through $$GFPAUDIT_DATADIR (analyzer/util/datadir.c), never baked in
ALL_CFLAGS = $(CFLAGS) $(SAN_CFLAGS) -std=gnu11 -Wall -Wextra $(WERROR) -Wno-unused-parameter -MMD -MP \
	-Iinclude -I$(LLVM_INC) $(PKG_CFLAGS) \
	-DGFPAUDIT_CLANG_RESOURCE_DIR='"$(CLANG_RES)"'
ALL_LDFLAGS = $(LDFLAGS) $(SAN_CFLAGS)
LDLIBS += -L$(LLVM_LIB) -Wl,-rpath,$(LLVM_LIB) -lclang $(PKG_LIBS) -lpthread

PREFIX ?= /usr/local
bindir = $(PREFIX)/bin
datadir = $(PREFIX)/share/gfpaudit
mandir = $(PREFIX)/share/man
bashcompdir = $(PREFIX)/share/bash-completion/completions
INSTALL ?= install
VERSION := $(shell git describe --always --dirty 2>/dev/null || echo 0.1)

SRCS := $(sort $(wildcard analyzer/*.c analyzer/*/*.c))
CXX_SRCS := $(sort $(wildcard analyzer/*/*.cc))
LIB_SRCS := $(filter-out analyzer/main.c,$(SRCS))
OBJS := $(SRCS:%.c=$(BUILD)/%.o) $(CXX_SRCS:%.cc=$(BUILD)/%.o)
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/%.o) $(CXX_SRCS:%.cc=$(BUILD)/%.o)
CXX ?= c++
# the C++ shim (frontend/opcode.cc) reads clang's AST headers only
CXXFLAGS_SHIM = $(CFLAGS) $(SAN_CFLAGS) -std=c++17 -fno-rtti -fno-exceptions -Wall -Wextra $(WERROR) \
	-Wno-unused-parameter -DLLVM_DISABLE_ABI_BREAKING_CHECKS_ENFORCING=1 -I$(LLVM_INC) -MMD -MP
DATA := analyzer/data/allocators.tbl analyzer/data/pch-headers.txt

UNIT_SRCS := $(sort $(wildcard tests/unit/test_*.c))

.PHONY: all deps test unit corpus realtree e2e asan bench bench-accuracy kernel clean fuzz install man
all: gfpaudit
# the team keeps warnings at zero: what the tests run is built with -Werror
test unit corpus realtree asan: DEVELOPER = 1

# Debian packages the build and the tests need; `make deps` installs the
# missing ones (.ci/run calls it).
DEB_PKGS := libclang-dev clang llvm libgit2-dev libgmime-3.0-dev libjansson-dev \
	libsqlite3-dev pkg-config coccinelle sparse git python3 xz-utils \
	flex bison bc libelf-dev libssl-dev make parallel python3-jsonschema time
deps:
	@missing=""; for p in $(DEB_PKGS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing" >&2; \
		if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >&2; \
		else sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >&2; fi; \
	fi

gfpaudit: $(OBJS)
	@echo "  LINK    $@"
	@$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $(OBJS) $(LDLIBS)

$(BUILD)/analyzer/model/alloc_table.o: $(BUILD)/data/allocators.inc
# the version is compiled into one object, rebuilt when `git describe` changes
$(BUILD)/analyzer/util/version.o: ALL_CFLAGS += -DGFPAUDIT_VERSION='"$(VERSION)"'
$(BUILD)/analyzer/util/version.o: $(BUILD)/version.stamp
$(BUILD)/version.stamp: FORCE
	@mkdir -p $(dir $@)
	@echo '$(VERSION)' | cmp -s - $@ || echo '$(VERSION)' > $@
FORCE:
$(BUILD)/analyzer/frontend/pch.o: $(BUILD)/data/pch-headers.inc
# the registration list: every rule file under analyzer/checks/, by rank
CHECK_SRCS := $(sort $(wildcard analyzer/checks/*.c))
$(BUILD)/analyzer/checks/registry.o: $(BUILD)/data/checks.inc
$(BUILD)/data/checks.inc: analyzer/checks/gen-list.sh $(CHECK_SRCS)
	@mkdir -p $(dir $@)
	analyzer/checks/gen-list.sh $(CHECK_SRCS) > $@.tmp && mv $@.tmp $@
# data files become C string literals
$(BUILD)/data/%.inc: analyzer/data/%.tbl
	@mkdir -p $(dir $@)
	sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $< > $@
$(BUILD)/data/%.inc: analyzer/data/%.txt
	@mkdir -p $(dir $@)
	sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $< > $@

$(BUILD)/%.o: %.cc
	@mkdir -p $(dir $@)
	@echo "  CXX     $<"
	@$(CXX) $(CXXFLAGS_SHIM) -c -o $@ $<

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(ALL_CFLAGS) -I$(BUILD)/data -c -o $@ $<

build/unit-tests: $(LIB_OBJS) $(UNIT_SRCS) tests/unit/harness.h
	@echo "  LINK    $@"
	@$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -Itests/unit -o $@ $(UNIT_SRCS) $(LIB_OBJS) $(LDLIBS)

# The whole suite; the last line is "N passed, N failed".
test: all build/unit-tests
	@GFPAUDIT=$(CURDIR)/gfpaudit UNIT=$(CURDIR)/build/unit-tests OBJDIR=$(CURDIR)/$(BUILD) KDIR=$(KDIR) tests/run-all.sh

unit: build/unit-tests
	build/unit-tests
corpus: all
	GFPAUDIT=$(CURDIR)/gfpaudit tests/t10-corpus.sh
realtree: all
	KDIR=$(KDIR) tests/realtree.sh ./gfpaudit

# make kernel [KVER=6.12] [ARCH=arm64|s390|powerpc|riscv [PAGES=16K|64K]] [KCONFIG=allmodconfig]:
# build/linux-KVER (Debian's amd64 config) or build/linux-KVER-ARCH[-PAGES]
# (the arch's defconfig, LLVM=1); KCONFIG: that kbuild config target instead,
# suffix -KCONFIG
kernel: all
	tests/prepare-kernel.sh $(if $(ARCH),--arch $(ARCH)) $(if $(PAGES),--pages $(PAGES)) $(if $(KCONFIG),--config $(KCONFIG)) $(KVER)

asan:
	$(MAKE) BUILD=build/asan DEVELOPER=1 OPT="-O1 -g" \
		SAN_CFLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
		gfpaudit-asan build/asan-unit-tests
	@ASAN_OPTIONS=detect_leaks=1 GFPAUDIT=$(CURDIR)/build/gfpaudit-asan UNIT=$(CURDIR)/build/asan-unit-tests \
		OBJDIR=$(CURDIR)/build/asan KDIR=$(KDIR) tests/run-all.sh

gfpaudit-asan: $(OBJS)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o build/gfpaudit-asan $(OBJS) $(LDLIBS)
build/asan-unit-tests: $(LIB_OBJS) $(UNIT_SRCS)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -Itests/unit -o $@ $(UNIT_SRCS) $(LIB_OBJS) $(LDLIBS)

# libFuzzer targets (tests/fuzz/, seeds in tests/fuzz/seeds/TARGET, crashes in
# build/fuzz/TARGET/): fuzz_mbox (mail parsing), fuzz_apply (diff application
# and hunk relocation on a tiny repository), fuzz_review (the whole review
# path: mbox -> apply -> analysis -> printers), fuzz_engine (the C front end
# and model, fix stage included, as a worker runs one file).  `make fuzz`
# runs each for FUZZ_TIME seconds; FUZZ_TARGETS=... picks some.  Not part of
# `make test`.  The library is built once more with clang, ASan/UBSan and
# coverage under build/fuzz/obj.
FUZZ_TIME ?= 60
# seconds one input may take before libFuzzer calls it a hang (a loaded machine needs more)
FUZZ_UNIT_TIMEOUT ?= 30
FUZZ_CC ?= clang
FUZZ_CXX ?= clang++
FUZZ_TARGETS ?= fuzz_mbox fuzz_apply fuzz_review fuzz_engine
FUZZ_OBJ := build/fuzz/obj
FUZZ_SAN := -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_LIB := $(LIB_SRCS:%.c=$(FUZZ_OBJ)/%.o) $(CXX_SRCS:%.cc=$(FUZZ_OBJ)/%.o)
.PHONY: fuzz-lib fuzz-lib-objs fuzz-build
fuzz-lib-objs: $(LIB_OBJS)
fuzz-lib:
	@$(MAKE) --no-print-directory BUILD=$(FUZZ_OBJ) CC=$(FUZZ_CC) CXX=$(FUZZ_CXX) \
		OPT="$(FUZZ_SAN) -fsanitize=fuzzer-no-link" fuzz-lib-objs
build/fuzz/%: tests/fuzz/%.c tests/fuzz/fuzz_repo.h fuzz-lib
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -std=gnu11 -Iinclude -I$(LLVM_INC) $(PKG_CFLAGS) \
		-o $@ $< $(FUZZ_LIB) $(LDLIBS) -lstdc++
fuzz-build: $(FUZZ_TARGETS:%=build/fuzz/%)
fuzz: fuzz-build
	@for t in $(FUZZ_TARGETS); do \
		mkdir -p build/fuzz/$$t.corpus build/fuzz/$$t.crashes; \
		echo "fuzz: $$t for $(FUZZ_TIME) s"; \
		( cd build/fuzz/$$t.crashes && ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=$(CURDIR)/tests/fuzz/lsan.supp ../$$t -max_total_time=$(FUZZ_TIME) \
			-max_len=65536 -timeout=$(FUZZ_UNIT_TIMEOUT) -rss_limit_mb=4096 -print_final_stats=1 \
			$$( [ -f $(CURDIR)/tests/fuzz/$$t.dict ] && echo -dict=$(CURDIR)/tests/fuzz/$$t.dict ) \
			../$$t.corpus $(CURDIR)/tests/fuzz/seeds/$$t $$( [ $$t = fuzz_engine ] && echo $(CURDIR)/corpus ) ) || exit 1; \
	done

bench: all
	bench/run.sh

# recall and quiet rates on labeled sites from kernel history (bench/accuracy/README.md);
# trees from KDIR61 / KDIR612 (default build/linux-6.1, build/linux-6.12)
bench-accuracy: all
	python3 bench/accuracy/history.py

# the command pages are the commands' --help (man/gen-man.sh); gfpaudit.1 is written by hand
MAN_CMDS := audit review check hook explain facts merge cc rules
man: gfpaudit
	@for c in $(MAN_CMDS); do man/gen-man.sh ./gfpaudit $$c > man/gfpaudit-$$c.1 || exit 1; done

# PREFIX/bin/gfpaudit finds its data in PREFIX/share/gfpaudit (datadir.h);
# the allocator table is compiled in and installed as the format's reference
install: gfpaudit
	$(INSTALL) -d $(DESTDIR)$(bindir) $(DESTDIR)$(datadir)/rules $(DESTDIR)$(mandir)/man1 \
		$(DESTDIR)$(bashcompdir)
	$(INSTALL) -m 755 gfpaudit $(DESTDIR)$(bindir)/gfpaudit
	$(INSTALL) -d $(DESTDIR)$(datadir)/include
	cp -R include/kmodel $(DESTDIR)$(datadir)/include/
	$(INSTALL) -m 644 rules/*.cocci rules/common.py rules/README.md $(DESTDIR)$(datadir)/rules/
	$(INSTALL) -m 644 analyzer/data/allocators.tbl $(DESTDIR)$(datadir)/allocators.tbl
	$(INSTALL) -m 644 man/*.1 $(DESTDIR)$(mandir)/man1/
	$(INSTALL) -m 644 man/gfpaudit.bash-completion $(DESTDIR)$(bashcompdir)/gfpaudit

clean:
	rm -rf build/obj build/asan build/unit-tests build/asan-unit-tests build/gfpaudit-asan gfpaudit

-include $(OBJS:.o=.d)

# `make -s print-VAR` prints a variable (tests/t12-new-rule.sh links with the build's flags)
print-%:
	@echo '$($*)'
