# The era-disk timing model (host/hdd): pure model and profile parser in
# libhost_hdd.a (for lab and the unit tests), and the nbdkit filter
# $(BUILD)/nbdkit-hdd-filter.so with its own -fPIC copies of the pure files.
# The filter must be built against the installed nbdkit (exact version match).

HDD_DIR  := host/hdd
HDD_PURE := layout.c model.c queue.c profile.c
HOST_hdd_SRCS := $(addprefix $(HDD_DIR)/,$(HDD_PURE))

# The profile parser reads its lines with common/kv.c (libc only), so the
# filter gets a -fPIC copy of that file too.
HDD_COMMON   := kv.c
HDD_PIC_OBJS := $(HDD_PURE:%.c=$(BUILD)/hdd-pic/%.o) $(HDD_COMMON:%.c=$(BUILD)/hdd-pic/common/%.o)
HDD_CFLAGS   := $(CFLAGS) -O2 -fPIC $(WARN) -std=gnu11 -D_GNU_SOURCE -MMD -MP -I. \
                $(shell pkg-config --cflags nbdkit)

$(BUILD)/hdd-pic/%.o: $(HDD_DIR)/%.c
	@mkdir -p $(@D)
	$(CC) $(HDD_CFLAGS) -c -o $@ $<

$(BUILD)/hdd-pic/common/%.o: common/%.c
	@mkdir -p $(@D)
	$(CC) $(HDD_CFLAGS) -c -o $@ $<

$(BUILD)/nbdkit-hdd-filter.so: $(HDD_DIR)/filter.c $(HDD_PIC_OBJS)
	@mkdir -p $(@D)
	$(CC) $(HDD_CFLAGS) -shared -o $@ $(HDD_DIR)/filter.c $(HDD_PIC_OBJS) -lm -lpthread

all: $(BUILD)/nbdkit-hdd-filter.so

# Analytic expectations of a profile, for measure.sh and by hand.
$(BUILD)/hdd-expect: $(HDD_DIR)/expect_main.c $(HDD_PIC_OBJS)
	$(CC) $(HDD_CFLAGS) -o $@ $< $(HDD_PIC_OBJS) -lm

all: $(BUILD)/hdd-expect
