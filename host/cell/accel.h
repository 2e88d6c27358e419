/* TCG or KVM. On some hosts /dev/kvm exists but KVM guests hang, so KVM is
 * used only after a probe guest reached its agent under it; the verdict is
 * cached per host kernel in $LAB_HOME/accel. */
#ifndef LAB_ACCEL_H
#define LAB_ACCEL_H

#include "host/cell/cell.h"

/* requested: "auto", "tcg" or "kvm". Returns the libvirt domain type to use
 * ("qemu" or "kvm"), or NULL with an error. `probe` is a cell that boots the
 * kernel the run starts with. */
const char *lab_accel_choose(const char *requested, const struct lab_cell_env *env,
                             const struct lab_cell_spec *probe);

#endif
