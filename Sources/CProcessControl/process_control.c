#define _GNU_SOURCE
#include <malloc.h>
#include "process_control.h"
#include <errno.h>
#include <sched.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

int gridlock_signal_on_parent_death(int signal) {
    return prctl(PR_SET_PDEATHSIG, (unsigned long)signal, 0UL, 0UL, 0UL);
}

/// Closes every descriptor from `first` on: close_range(2), or one by one on a kernel without it.
static void close_from(int first) {
    if (syscall(SYS_close_range, (unsigned)first, ~0U, 0U) == 0) {
        return;
    }
    struct rlimit limit;
    long last = getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < 65536 ? (long)limit.rlim_cur : 65536;
    for (long descriptor = first; descriptor < last; descriptor++) {
        close((int)descriptor);
    }
}

/// The watchdog's answer to its parent's death: the whole group, itself included, dies.
static void kill_group(int signal) {
    (void)signal;
    kill(0, SIGKILL);
}

/// Default handling for every signal, and none blocked.
static void reset_signals(void) {
    struct sigaction fallback;
    memset(&fallback, 0, sizeof fallback);
    fallback.sa_handler = SIG_DFL;
    for (int number = 1; number < NSIG; number++) {
        if (number != SIGKILL && number != SIGSTOP) {
            sigaction(number, &fallback, NULL);
        }
    }
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
}

pid_t gridlock_spawn_shell(
    const char *command, char *const environment[], int input, int output, int errors, const int *cgroup_procs, int cgroup_count,
    int usage_out) {
    // The parent's pid, read before the fork: a child whose parent is already gone when it sets
    // its death signal would otherwise wait for a signal that never comes.
    pid_t parent = getpid();
    pid_t watchdog = fork();
    if (watchdog != 0) {
        return watchdog;
    }
    // The watchdog: the leader of a new process group, which kills the group if the caller
    // dies. The shell gets a death signal too, but /bin/sh forks a command rather than exec it,
    // and a death signal is not inherited: without the watchdog a solver outlives a killed
    // worker. Only async-signal-safe calls from here on: this is a fork of a threaded process.
    setpgid(0, 0);
    reset_signals();
    struct sigaction on_death;
    memset(&on_death, 0, sizeof on_death);
    on_death.sa_handler = kill_group;
    sigaction(SIGTERM, &on_death, NULL);
    prctl(PR_SET_PDEATHSIG, (unsigned long)SIGTERM, 0UL, 0UL, 0UL);
    if (getppid() != parent) {
        kill(0, SIGKILL);
    }
    pid_t shell = fork();
    if (shell == 0) {
        reset_signals();
        // Into the solver's control groups before anything of the solver runs, so that every
        // process it starts is counted and limited there; the watchdog stays outside them.
        for (int index = 0; index < cgroup_count; index++) {
            if (write(cgroup_procs[index], "0", 1) != 1) {
                static const char message[] = "gridlock: the solver could not enter its control group\n";
                (void)!write(errors, message, sizeof message - 1);
                _exit(125);
            }
        }
        if (dup2(input, 0) < 0 || dup2(output, 1) < 0 || dup2(errors, 2) < 0) {
            _exit(127);
        }
        // Nothing of the worker's (sockets, the database, other jobs' pipes) reaches the solver.
        close_from(3);
        char *const arguments[] = {"sh", "-c", (char *)command, NULL};
        execve("/bin/sh", arguments, environment);
        _exit(127);
    }
    // The pipes are the shell's alone, so that its output ends when it and its children are done;
    // the watchdog keeps only where it reports the shell's usage, as descriptor 3.
    if (usage_out >= 0 && usage_out != 3) {
        dup2(usage_out, 3);
    }
    close_from(usage_out >= 0 ? 4 : 3);
    if (shell < 0) {
        _exit(127);
    }
    int status = 0;
    struct rusage usage;
    memset(&usage, 0, sizeof usage);
    while (wait4(shell, &status, 0, &usage) < 0) {
        if (errno != EINTR) {
            _exit(127);
        }
    }
    // The shell's tree as it waited for it, not the watchdog's own (a fork of the worker):
    // peak resident kilobytes and CPU microseconds.
    if (usage_out >= 0) {
        long long report[2] = {
            (long long)usage.ru_maxrss,
            (long long)usage.ru_utime.tv_sec * 1000000 + usage.ru_utime.tv_usec + (long long)usage.ru_stime.tv_sec * 1000000 + usage.ru_stime.tv_usec,
        };
        (void)!write(3, report, sizeof report);
    }
    if (WIFEXITED(status)) {
        _exit(WEXITSTATUS(status));
    }
    // The shell died by a signal: so does the watchdog, that the caller reads the same ending.
    int signal = WTERMSIG(status);
    struct sigaction fallback;
    memset(&fallback, 0, sizeof fallback);
    fallback.sa_handler = SIG_DFL;
    sigaction(signal, &fallback, NULL);
    struct rlimit no_core = {0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    kill(getpid(), signal);
    _exit(128 + signal);
}

int gridlock_pin_to_cpu(int cpu) {
    if (cpu < 0 || cpu >= CPU_SETSIZE) {
        errno = EINVAL;
        return -1;
    }
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return sched_setaffinity(0, sizeof set, &set);
}

int gridlock_allowed_cpus(int *cpus, int capacity) {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0) {
        return -1;
    }
    int count = 0;
    for (int cpu = 0; cpu < CPU_SETSIZE && count < capacity; cpu++) {
        if (CPU_ISSET(cpu, &set)) {
            cpus[count++] = cpu;
        }
    }
    return count;
}

int gridlock_pipe_close_on_exec(int ends[2]) {
    return pipe2(ends, O_CLOEXEC);
}

int gridlock_become_subreaper(void) {
    return prctl(PR_SET_CHILD_SUBREAPER, 1UL, 0UL, 0UL, 0UL);
}

int gridlock_pipe_unread(int fd) {
    int count = 0;
    return ioctl(fd, FIONREAD, &count) == 0 ? count : -1;
}

int gridlock_trim_heap(void) {
    return malloc_trim(0);
}
