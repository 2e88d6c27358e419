# The guest agent: a static, freestanding PID 1 for x86_64 and i386 guests,
# plus host builds of its pure parts: the key table's layer (libagent.a) and
# the rest for the cmocka tests (tests/unit/test_agent_*.c).

AGENT_DIR    := guest-agent
AGENT_PURE   := fmt.c cmdline.c keys.c idemode.c parse.c verify.c figures.c opts.c
# Every .c of the folder is the agent's: a new test's file (its row
# registered by AGENT_TEST, agent.h) needs no line here.
AGENT_SRCS   := $(notdir $(wildcard $(AGENT_DIR)/*.c))
AGENT_DEPS   := $(wildcard $(AGENT_DIR)/*.c $(AGENT_DIR)/*.h $(AGENT_DIR)/arch/*.h) \
                $(AGENT_DIR)/agent.mk

# No libc, no TLS, no PIE; -z noseparate-code keeps two PT_LOADs (RX text,
# RW data+bss) so the last one is writable, which old binfmt_elf needs.
AGENT_CFLAGS := -static -nostdlib -ffreestanding -fno-stack-protector -fno-pie -no-pie \
                -fno-asynchronous-unwind-tables -fno-unwind-tables -Wl,-z,noseparate-code -Os \
                -fno-tree-loop-distribute-patterns -fno-builtin-memcpy -fno-builtin-memset \
                -ffunction-sections -fdata-sections -Wl,--gc-sections -Wl,--build-id=none \
                -Wl,-z,noexecstack -Wl,-z,max-page-size=4096 \
                -std=gnu11 $(WARN) -I.

# Fails (and removes the binary) unless the last PT_LOAD is writable.
define agent_check_last_load
	@readelf -lW $(1) | awk '$$1 == "LOAD" { last = $$0 } END { \
	  if (last !~ / RW/) { print "$(1): last PT_LOAD is not writable: " last; exit 1 } }' \
	  || { rm -f $(1); exit 1; }
endef

$(BUILD)/lab-agent: $(AGENT_DEPS)
	@mkdir -p $(@D)
	$(CC) -m64 $(AGENT_CFLAGS) -o $@ $(addprefix $(AGENT_DIR)/,$(AGENT_SRCS))
	$(call agent_check_last_load,$@)

$(BUILD)/lab-agent-i386: $(AGENT_DEPS)
	@mkdir -p $(@D)
	$(CC) -m32 -march=i686 -mtune=generic $(AGENT_CFLAGS) -o $@ \
	    $(addprefix $(AGENT_DIR)/,$(AGENT_SRCS))
	$(call agent_check_last_load,$@)

all: $(BUILD)/lab-agent-i386

# The key table and the parser it needs are part of the host too: the host
# generates the agent's parameters from that table (host/plan/experiment.c). They
# are the agent's own layer under the others, libagent.a (the lab and the
# unit tests link it with the rest of LAB_LIBS).
AGENT_FOR_HOST := fmt.c opts.c cmdline.c keys.c idemode.c
AGENT_LIB_SRCS := $(addprefix $(AGENT_DIR)/,$(AGENT_FOR_HOST))
$(BUILD)/libagent.a: $(AGENT_LIB_SRCS:%.c=$(BUILD)/obj/%.o)
	rm -f $@ && ar rcs $@ $^
LAYERS += agent

# The other pure parts, compiled for the host with the normal flags, for the unit tests.
AGENT_HOSTTEST_OBJS := $(patsubst %.c,$(BUILD)/agent-host/%.o,$(filter-out $(AGENT_FOR_HOST),$(AGENT_PURE)))
$(BUILD)/agent-host/%.o: $(AGENT_DIR)/%.c
	@mkdir -p $(@D)
	$(CC) $(HOST_CFLAGS) -c -o $@ $<

# The era seccomp harness (tests/seccomp/): runs a program with ENOSYS for
# every system call newer than Linux 2.4.0. test_agent_seccomp runs the agent's
# --selftest under it; it needs the binaries, not to link them (order-only).
ERA_SECCOMP := $(BUILD)/tests/era-seccomp
$(ERA_SECCOMP): tests/seccomp/era-seccomp.c tests/seccomp/syscalls-2.4.0.h
	@mkdir -p $(@D)
	$(CC) $(HOST_CFLAGS) -o $@ $< -lseccomp
$(BUILD)/tests/test_agent_seccomp: | $(BUILD)/lab-agent $(BUILD)/lab-agent-i386 $(ERA_SECCOMP)
