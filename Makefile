# bftrainer - see README.md.  GNU make.
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
DOCDIR ?= $(PREFIX)/share/doc/bftrainer
# systemd's own directory for units a package installs (systemd.unit(5)).
UNITDIR ?= $(PREFIX)/lib/systemd/system
DESTDIR ?=
# The site's spool, built in (bf-spool(5), SITE), and where the site's
# configuration file that may name another is.
SPOOL ?= /var/spool/bftrainer
SYSCONFDIR ?= /etc

CC ?= cc
WARNINGS = -Wall -Wextra -Wstrict-prototypes -Wmissing-prototypes -Wshadow \
	-Wpointer-arith -Wsign-compare
# CI builds with -Werror; a developer may set WERROR=1 too.
ifneq ($(CI)$(WERROR),)
WARNINGS += -Werror
endif
ifeq ($(SANITIZE),1)
SANFLAGS = -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=all
endif
OPTFLAGS ?= -O2 -g
# Recursive (=) so pkg-config runs at build time, after install-deps.
PKG_CFLAGS = $(shell pkg-config --cflags cbc yaml-0.1 libxxhash jansson \
	2>/dev/null)
ALL_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L $(OPTFLAGS) $(WARNINGS) \
	$(SANFLAGS) -Ilib $(PKG_CFLAGS) $(CFLAGS)
ALL_LDFLAGS = $(SANFLAGS) $(LDFLAGS)

YAML_LIBS = $(shell pkg-config --libs yaml-0.1)
XXH_LIBS = $(shell pkg-config --libs libxxhash)
CBC_LIBS = $(shell pkg-config --libs cbc)
JANSSON_LIBS = $(shell pkg-config --libs jansson)
INOTIFY_LIBS = -linotifytools

# Each program links only the libraries it uses.
LIBS_bf-submit = $(YAML_LIBS) $(XXH_LIBS)
LIBS_bf-holes = $(YAML_LIBS) $(XXH_LIBS) $(JANSSON_LIBS) -lz
LIBS_bf-solve = $(YAML_LIBS) $(XXH_LIBS) $(CBC_LIBS)
LIBS_bf-profile = $(YAML_LIBS) $(XXH_LIBS) -lm
LIBS_bf-apply = $(YAML_LIBS) $(XXH_LIBS) $(JANSSON_LIBS)
LIBS_bf-watch = $(YAML_LIBS) $(XXH_LIBS) $(CBC_LIBS) $(JANSSON_LIBS) $(INOTIFY_LIBS)
LIBS_bf-hosts = $(YAML_LIBS) $(XXH_LIBS)
LIBS_bf-audit = $(YAML_LIBS) $(XXH_LIBS) $(CBC_LIBS)
LIBS_bf-sim = $(YAML_LIBS) $(XXH_LIBS) $(CBC_LIBS) -lz
LIBS_bf-cancel = $(YAML_LIBS) $(XXH_LIBS)
LIBS_bf-report = $(YAML_LIBS) $(XXH_LIBS) -lz
LIBS_TEST = $(YAML_LIBS) $(XXH_LIBS) $(CBC_LIBS) $(JANSSON_LIBS) -lz

# lib/ is a folder per concept, each an archive (lib/F/libbf-F.a), in the
# order of lib/LAYERS: a folder's files include and call only their own
# folder's and those its line there names (util knows nothing of spools;
# spool nothing of solving; run nothing of backends).  make layers, run by
# every build, checks the includes, and the calls once the objects exist
# (scripts/layers); HACKING.md says why the folders are cut as they are.
# Programs link the archives top down, so that a call upwards is also a
# link error.
LIB_FOLDERS = report sim watch apply run solve profile sched spool util
LIB_SRCS = $(sort $(wildcard $(LIB_FOLDERS:%=lib/%/*.c)))
LIB_OBJS = $(LIB_SRCS:.c=.o)
LIB_ARCHIVES = $(foreach f,$(LIB_FOLDERS),lib/$(f)/libbf-$(f).a)
HEADERS = $(sort $(wildcard $(LIB_FOLDERS:%=lib/%/*.h)))
PROGS = $(patsubst %.c,%,$(sort $(wildcard bin/bf-*.c)))
MAN1 = $(sort $(wildcard man/*.1))
MAN5 = $(sort $(wildcard man/*.5))
MAN7 = $(sort $(wildcard man/*.7))
UNIT_TESTS = $(patsubst %.c,%.test,$(sort $(wildcard t/t[0-9]*.c)))
BENCH_PROGS = $(patsubst %.c,%,$(sort $(filter-out bench/fsync-shim.c,\
	$(wildcard bench/*.c))))
# Each header compiles alone (it includes what it uses): lib/F/x.h is
# checked into lib/F/.x.h.ok whenever it, or a header it includes, changes.
HEADER_CHECKS = $(foreach h,$(HEADERS),$(dir $(h)).$(notdir $(h)).ok)

all: layers $(PROGS) $(UNIT_TESTS) $(HEADER_CHECKS) layers-calls

# Includes before anything is compiled; calls once every object is built.
layers:
	@scripts/layers includes
layers-calls: $(LIB_OBJS)
	@scripts/layers calls

# The flags a build was made with, kept in .build-flags: changing them
# (SANITIZE=1 and back, OPTFLAGS, CC) rebuilds everything, so that a
# sanitizer build never links against objects of a plain one.
BUILD_FLAGS = $(CC) $(SANITIZE) $(OPTFLAGS) $(CFLAGS) $(LDFLAGS) $(CI)$(WERROR) \
	$(SPOOL) $(SYSCONFDIR)
.build-flags: FORCE
	@echo '$(BUILD_FLAGS)' | cmp -s - $@ || echo '$(BUILD_FLAGS)' >$@

# -MMD: each object's headers in NAME.d beside it, read back below.
DEPFLAGS = -MMD -MP
lib/%.o: lib/%.c .build-flags
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -c -o $@ $<
# The site's paths are compiled into this object alone.
lib/util/site.o: ALL_CFLAGS += -DSITE_SPOOL='"$(SPOOL)"' \
	-DSITE_CONF='"$(SYSCONFDIR)/bftrainer.yaml"'

define folder_archive
lib/$(1)/libbf-$(1).a: $$(patsubst %.c,%.o,$$(sort $$(wildcard lib/$(1)/*.c)))
	rm -f $$@
	$$(AR) rcs $$@ $$^
endef
$(foreach f,$(LIB_FOLDERS),$(eval $(call folder_archive,$(f))))

lib/%.h.ok: .build-flags
	@h=$(subst /.,/,$(@:.ok=)); \
	printf '#include "%s"\n' "$${h#lib/}" | $(CC) $(ALL_CFLAGS) \
	    -MMD -MP -MT $@ -MF $@.d -fsyntax-only -x c - || \
	    { echo "$$h: does not compile alone (include what it uses)" >&2; \
	    exit 1; }
	@touch $@
$(foreach h,$(HEADERS),$(eval $(dir $(h)).$(notdir $(h)).ok: $(h)))

bin/%: bin/%.c $(LIB_ARCHIVES) .build-flags
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) $(ALL_LDFLAGS) -o $@ $< $(LIB_ARCHIVES) \
		$(LIBS_$(@F)) -lm

t/%.test: t/%.c t/tap.h $(LIB_ARCHIVES) .build-flags
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -It $(ALL_LDFLAGS) -o $@ $< \
		$(LIB_ARCHIVES) $(LIBS_TEST) -lm

# Benchmark helpers in C (bench/NAME.c); the benchmarks are bench/NAME.sh.
bench/%: bench/%.c $(LIB_ARCHIVES)
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) $(ALL_LDFLAGS) -o $@ $< $(LIB_ARCHIVES) \
		$(LIBS_TEST) -lm

-include $(LIB_OBJS:.o=.d) $(PROGS:=.d) $(UNIT_TESTS:.test=.d) \
	$(BENCH_PROGS:=.d) $(HEADER_CHECKS:=.d)

# An LD_PRELOAD library that counts fsyncs (bench/watch.sh FSYNCS=1).
bench/fsync-shim.so: bench/fsync-shim.c
	$(CC) $(ALL_CFLAGS) -fPIC -shared -o $@ $< -ldl

# make lint: cppcheck over lib/ and bin/ with the reviewed suppressions of
# .cppcheck-suppressions (each with its reason); any finding fails.
lint: deps
	@scripts/lint

# make compile_commands.json: the compile line of every C file, for
# clangd and clang-tidy (the flags of this make's variables).
compile_commands.json: FORCE
	@{ echo '['; \
	for f in $(LIB_SRCS) $(PROGS:=.c) $(UNIT_TESTS:.test=.c); do \
		printf '{"directory": "%s", "file": "%s", "command": "%s -c %s"}\n' \
		    "$(CURDIR)" "$$f" '$(CC) $(ALL_CFLAGS) -It' "$$f"; \
	done | sed '$$!s/$$/,/'; echo ']'; } >$@.tmp && mv $@.tmp $@
	@echo "compile_commands.json: $$(grep -c '"file"' $@) files"

bench: deps
	@$(MAKE) --no-print-directory all $(BENCH_PROGS) bench/fsync-shim.so
	@for b in bench/*.sh; do [ -x "$$b" ] && "$$b"; done

# libFuzzer targets (t/fuzz/fuzz-NAME.c) over the library built with clang,
# ASan and UBSan: make fuzz [FUZZ_SECONDS=60] runs each for that long,
# FUZZ_JOBS at a time (scripts/fuzz).
FUZZ_TARGETS = $(patsubst %.c,%,$(sort $(wildcard t/fuzz/fuzz-*.c)))
FUZZ_SECONDS ?= 60
FUZZ_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L -g -O1 $(WARNINGS) -Ilib \
	$(PKG_CFLAGS) -fsanitize=address,undefined -fno-sanitize-recover=all

t/fuzz/libbf-fuzz.a: $(LIB_SRCS) $(HEADERS)
	rm -rf t/fuzz/obj && mkdir -p t/fuzz/obj
	for f in $(LIB_SRCS); do \
		clang $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c $$f \
			-o t/fuzz/obj/$$(basename $$f .c).o || exit 1; \
	done
	rm -f $@
	$(AR) rcs $@ t/fuzz/obj/*.o

t/fuzz/fuzz-%: t/fuzz/fuzz-%.c t/fuzz/fuzz.h t/fuzz/libbf-fuzz.a
	clang $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< t/fuzz/libbf-fuzz.a \
		$(YAML_LIBS) $(XXH_LIBS) $(CBC_LIBS) $(JANSSON_LIBS) -lz -lm

fuzz: deps
	@$(MAKE) --no-print-directory $(FUZZ_TARGETS)
	@scripts/fuzz $(FUZZ_SECONDS)

# A step of its own, which says what it checks and what it installs.
deps:
	@scripts/install-deps -v

# check and demo install what is missing first, then build in a fresh make
# so that pkg-config sees the new libraries.  The tests run JOBS at a time
# (one per processor) in the order t/testrules.yml gives, which prove reads
# itself: first the Slurm, PBS and torch-on-Slurm tests JOBS at a time
# among themselves, then t4080 and t0100 alone, then the rest in parallel,
# the racing ones one at a time among them.  prove's
# summary stays the last thing printed: after a failure, scripts/check-digest
# lists the failed cases with their logs' last lines, then prints it again.
# JOBS=1 runs everything serially.  --timer: each file's time and when
# it ended, so that a slow CI run says which tests took it.
JOBS ?= $(shell nproc 2>/dev/null || echo 1)
PROVE = prove --exec '' --timer -j$(JOBS)
# The test files to run: every one unless TESTS names some (.ci/run names
# the sanitized pass's share, t/sanitize.list).
TESTS ?= t/t[0-9]*.sh t/t[0-9]*.test
check: deps
	@echo 'check: building'
	@$(MAKE) --no-print-directory all
	@mkdir -p t/trash && rm -f t/trash/*.failed t/trash/prove.rc
	{ $(PROVE) $(PROVEFLAGS) $(TESTS) 2>&1; \
	    echo $$? >t/trash/prove.rc; } | tee t/trash/prove.out
	@scripts/check-digest t/trash

demo: deps
	@$(MAKE) --no-print-directory all
	@scripts/demo

# One systemd unit per backend, bf-watch-BACKEND.service, made from
# examples/systemd/bf-watch.service.in with the installed paths: the
# program's (BINDIR), the spool's (SPOOL), the scheduler's unit to start
# after and the holes command of the backend.
UNITS = local slurm pbs
UNIT_AFTER_slurm = slurmctld.service
UNIT_AFTER_pbs = pbs.service
UNIT_HOLES_slurm = --holes-cmd "$(BINDIR)/bf-holes --slurm" --holes-interval 10
UNIT_HOLES_pbs = --holes-cmd "$(BINDIR)/bf-holes --pbs" --holes-interval 10

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man7 \
		$(DESTDIR)$(UNITDIR) $(DESTDIR)$(DOCDIR)
	install -m 0755 $(PROGS) $(DESTDIR)$(BINDIR)
	install -m 0644 $(MAN1) $(DESTDIR)$(MANDIR)/man1
	install -m 0644 $(MAN5) $(DESTDIR)$(MANDIR)/man5
	install -m 0644 $(MAN7) $(DESTDIR)$(MANDIR)/man7
	$(foreach b,$(UNITS),sed -e 's|@BINDIR@|$(BINDIR)|g' \
	    -e 's|@SPOOL@|$(SPOOL)|g' -e 's|@BACKEND@|$(b)|g' \
	    -e 's|@AFTER@|$(UNIT_AFTER_$(b))|g' \
	    -e 's|@HOLES@|$(UNIT_HOLES_$(b))|g' -e 's/ *$$//' \
	    examples/systemd/bf-watch.service.in \
	    >$(DESTDIR)$(UNITDIR)/bf-watch-$(b).service && \
	    chmod 0644 $(DESTDIR)$(UNITDIR)/bf-watch-$(b).service &&) true
	cd examples && find . -type f | sort | while read -r f; do \
		m=0644; test -x "$$f" && m=0755; \
		install -D -m $$m "$$f" "$(DESTDIR)$(DOCDIR)/examples/$$f" || \
		    exit 1; \
	done

uninstall:
	rm -f $(addprefix $(DESTDIR)$(BINDIR)/,$(notdir $(PROGS)))
	rm -f $(addprefix $(DESTDIR)$(MANDIR)/man1/,$(notdir $(MAN1)))
	rm -f $(addprefix $(DESTDIR)$(MANDIR)/man5/,$(notdir $(MAN5)))
	rm -f $(addprefix $(DESTDIR)$(MANDIR)/man7/,$(notdir $(MAN7)))
	rm -f $(foreach b,$(UNITS),$(DESTDIR)$(UNITDIR)/bf-watch-$(b).service)
	rm -rf $(DESTDIR)$(DOCDIR)/examples
	-rmdir $(DESTDIR)$(DOCDIR) 2>/dev/null

clean:
	rm -f $(LIB_OBJS) $(LIB_OBJS:.o=.d) $(LIB_ARCHIVES) $(PROGS) \
		$(PROGS:=.d) $(BENCH_PROGS) $(BENCH_PROGS:=.d) t/*.test t/*.d
	rm -f $(HEADER_CHECKS) $(HEADER_CHECKS:=.d) compile_commands.json
	rm -f bench/fsync-shim.so
	rm -rf t/fuzz/obj t/fuzz/libbf-fuzz.a $(FUZZ_TARGETS)
	rm -rf t/trash .build-flags

.PHONY: all bench check demo deps fuzz install layers layers-calls lint \
	uninstall clean FORCE
.SECONDARY: $(LIB_OBJS)
