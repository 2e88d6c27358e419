# libFuzzer harnesses (clang): tests/fuzz/fuzz_NAME.c -> $(BUILD)/fuzz/fuzz_NAME,
# each linked with clang-built copies of only the sources it exercises, under
# ASan and UBSan. `make fuzz` runs each for FUZZ_SECONDS (default 30) on its
# corpus in tests/fuzz/corpus/NAME (read) and $(BUILD)/fuzz/corpus/NAME (new
# finds; `make fuzz-merge` folds the useful ones back into the repo's), with
# the keywords of its format from tests/fuzz/dict/NAME.dict.

FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 30
FUZZ_FLAGS   := -g -O1 -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined \
                -fno-sanitize-recover=undefined -std=gnu11 -D_GNU_SOURCE -I.
FUZZ_NAMES   := proto experiment profile bzimage trace agent_cmdline compat_paste

# The code under test for each harness.
FUZZ_COMMON := $(wildcard common/*.c)
FUZZ_SRC_proto         := host/cell/proto.c $(FUZZ_COMMON)
FUZZ_SRC_experiment    := host/plan/experiment.c host/plan/testdef.c host/plan/reported.c host/plan/warmup.c host/store/store.c $(FUZZ_COMMON) $(addprefix guest-agent/,keys.c idemode.c cmdline.c fmt.c opts.c)
FUZZ_LIBS_experiment   := -lsqlite3 -lpthread # warmup.c: a stored cell's warm-up rule
FUZZ_SRC_profile       := host/hdd/profile.c host/hdd/model.c host/hdd/layout.c host/hdd/queue.c common/kv.c
FUZZ_SRC_bzimage       := kernels/bzimage.c $(FUZZ_COMMON)
FUZZ_SRC_trace         := host/report/trace.c host/plan/warmup.c $(FUZZ_COMMON) host/store/store.c
FUZZ_LIBS_trace        := -lsqlite3 -lpthread # trace.c also reads a cell's window from the store
FUZZ_SRC_agent_cmdline := $(addprefix guest-agent/,cmdline.c keys.c idemode.c fmt.c opts.c parse.c)
FUZZ_SRC_compat_paste  := kernels/compat_paste.c

FUZZ_BINS := $(FUZZ_NAMES:%=$(BUILD)/fuzz/fuzz_%)

# Rebuilt when the harness, the code under test or any header changes.
FUZZ_HDRS := $(wildcard common/*.h host/*.h host/*/*.h guest-agent/*.h kernels/*.h)
.SECONDEXPANSION:
$(BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.mk $$(FUZZ_SRC_$$*) $(FUZZ_HDRS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $< $(FUZZ_SRC_$*) $(FUZZ_LIBS_$*) -lcrypto -lm

.PHONY: fuzz fuzz-build fuzz-merge fuzz-coverage
fuzz-build: $(FUZZ_BINS)

# -close_fd_mask=2: the parsers' error messages would drown the fuzzer's.
fuzz: fuzz-build
	@fail=0; for n in $(FUZZ_NAMES); do \
	    mkdir -p $(BUILD)/fuzz/corpus/$$n; \
	    echo "=== fuzz_$$n for $(FUZZ_SECONDS) s"; \
	    dict=; [ -f tests/fuzz/dict/$$n.dict ] && dict=-dict=tests/fuzz/dict/$$n.dict; \
	    $(BUILD)/fuzz/fuzz_$$n -max_total_time=$(FUZZ_SECONDS) -close_fd_mask=2 $$dict \
	        -artifact_prefix=$(BUILD)/fuzz/$$n- -print_final_stats=1 \
	        $(BUILD)/fuzz/corpus/$$n tests/fuzz/corpus/$$n >$(BUILD)/fuzz/$$n.log 2>&1; \
	    rc=$$?; \
	    grep -E '^(#[0-9]+[[:space:]]+DONE|stat::number_of_executed_units|==[0-9]+==ERROR|SUMMARY)' \
	        $(BUILD)/fuzz/$$n.log; \
	    test $$rc -eq 0 || { echo "FAIL: fuzz_$$n (log: $(BUILD)/fuzz/$$n.log)"; fail=1; }; \
	done; exit $$fail

fuzz-merge: fuzz-build
	@for n in $(FUZZ_NAMES); do \
	    $(BUILD)/fuzz/fuzz_$$n -merge=1 -close_fd_mask=2 tests/fuzz/corpus/$$n \
	        $(BUILD)/fuzz/corpus/$$n 2>&1 | tail -1; \
	done

# Line coverage of the code under test by each corpus (llvm-cov): the
# harnesses once more with source-based coverage, run over both corpora.
FUZZ_COV_FLAGS := -g -O0 -fsanitize=fuzzer -fprofile-instr-generate -fcoverage-mapping \
                  -std=gnu11 -D_GNU_SOURCE -I.
$(BUILD)/fuzz-cov/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.mk $$(FUZZ_SRC_$$*) $(FUZZ_HDRS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_COV_FLAGS) -o $@ $< $(FUZZ_SRC_$*) $(FUZZ_LIBS_$*) -lcrypto -lm

fuzz-coverage: $(FUZZ_NAMES:%=$(BUILD)/fuzz-cov/fuzz_%)
	@for n in $(FUZZ_NAMES); do \
	    d=$(BUILD)/fuzz-cov; mkdir -p $(BUILD)/fuzz/corpus/$$n; \
	    LLVM_PROFILE_FILE=$$d/$$n.profraw $$d/fuzz_$$n -runs=0 -close_fd_mask=3 \
	        tests/fuzz/corpus/$$n $(BUILD)/fuzz/corpus/$$n >/dev/null 2>&1; \
	    llvm-profdata merge -sparse -o $$d/$$n.profdata $$d/$$n.profraw; \
	    echo "=== fuzz_$$n"; \
	    llvm-cov report $$d/fuzz_$$n -instr-profile=$$d/$$n.profdata $(FUZZ_SRC_$$n) | tail -n +3; \
	done
