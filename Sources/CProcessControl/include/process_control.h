// Linux process controls Swift cannot call itself: prctl(2) is variadic in glibc.
#ifndef GRIDLOCK_PROCESS_CONTROL_H
#define GRIDLOCK_PROCESS_CONTROL_H

/// Asks the kernel to send `signal` to this process when its parent dies; 0 on success.
int gridlock_signal_on_parent_death(int signal);

#endif
