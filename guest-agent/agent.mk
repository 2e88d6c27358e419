# Placeholder; the guest agent's build rules live here.
AGENT_HOSTTEST_OBJS :=
$(BUILD)/lab-agent:
	@mkdir -p $(@D); touch $@
