#include "process_control.h"
#include <sys/prctl.h>

int gridlock_signal_on_parent_death(int signal) {
    return prctl(PR_SET_PDEATHSIG, (unsigned long)signal, 0UL, 0UL, 0UL);
}
