// Linux process controls Swift cannot call itself: prctl(2) is variadic in glibc, and what a
// forked child may do before exec must be async-signal-safe C, not Swift.
#ifndef GRIDLOCK_PROCESS_CONTROL_H
#define GRIDLOCK_PROCESS_CONTROL_H

#include <sys/types.h>
// getxattr(2), which Swift's Glibc module leaves out: a control group's delegation mark.
#include <sys/xattr.h>

/// Asks the kernel to send `signal` to this process when its parent dies; 0 on success.
int gridlock_signal_on_parent_death(int signal);

/// Starts `/bin/sh -c command` with `environment`, with `input`, `output` and `errors` (each 3
/// or more) as its standard input, output and error and no other descriptor open, under a
/// watchdog process: the leader of a new process group, which kills the whole group if the
/// calling thread ends (a worker killed mid-job leaves no solver behind) and otherwise ends as
/// the shell ends (its exit code, or the signal that killed it). The shell first writes "0" to
/// each of the `cgroup_count` open `cgroup.procs` files in `cgroup_procs`, joining those control
/// groups (exit 125 if it cannot). When the shell ends, the watchdog writes its resource usage
/// (with its waited-for descendants) to `usage_out` (-1: none) as two 64-bit integers: peak
/// resident kilobytes, CPU microseconds. Returns the watchdog's pid, or -1 with errno set.
pid_t gridlock_spawn_shell(
    const char *command, char *const environment[], int input, int output, int errors, const int *cgroup_procs, int cgroup_count,
    int usage_out);

/// Gives the heap's free memory back to the system (malloc_trim(3), which Swift's Glibc module
/// leaves out); 1 if any was given back.
int gridlock_trim_heap(void);

/// Runs this process (its calling thread, and the threads and children it starts from now on)
/// on `cpu` alone (sched_setaffinity); 0 on success, -1 with errno set.
int gridlock_pin_to_cpu(int cpu);

/// The CPUs this process may run on (sched_getaffinity), in order, at most `capacity` of them;
/// how many, or -1 with errno set.
int gridlock_allowed_cpus(int *cpus, int capacity);

/// pipe2(2) with O_CLOEXEC (glibc declares pipe2 only with _GNU_SOURCE); 0 on success.
int gridlock_pipe_close_on_exec(int ends[2]);

/// How many bytes written to the pipe `fd` (either end) are still unread (FIONREAD, which Swift
/// cannot call: ioctl is variadic); -1 with errno set.
int gridlock_pipe_unread(int fd);
/// Makes this process the reaper of its orphaned descendants (PR_SET_CHILD_SUBREAPER), so that
/// a solver's killed children are reaped here, not left as zombies; 0 on success.
int gridlock_become_subreaper(void);

#endif
