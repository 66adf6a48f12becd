#define _GNU_SOURCE
#include "process_control.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int gridlock_signal_on_parent_death(int signal) {
    return prctl(PR_SET_PDEATHSIG, (unsigned long)signal, 0UL, 0UL, 0UL);
}

pid_t gridlock_spawn_shell(const char *command, char *const environment[], int input, int output, int errors) {
    // The parent's pid, read before the fork: a child whose parent is already gone when it sets
    // its death signal would otherwise wait for a signal that never comes.
    pid_t parent = getpid();
    pid_t child = fork();
    if (child != 0) {
        return child;
    }
    // The child: only async-signal-safe calls until exec.
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, (unsigned long)SIGKILL, 0UL, 0UL, 0UL);
    if (getppid() != parent) {
        _exit(127);
    }
    // Default handling for every signal, and none blocked: the worker ignores SIGPIPE, and an
    // ignored signal stays ignored across exec.
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
    if (dup2(input, 0) < 0 || dup2(output, 1) < 0 || dup2(errors, 2) < 0) {
        _exit(127);
    }
    // Nothing of the worker's (sockets, the database, other jobs' pipes) reaches the solver.
    syscall(SYS_close_range, 3U, ~0U, 0U);
    char *const arguments[] = {"sh", "-c", (char *)command, NULL};
    execve("/bin/sh", arguments, environment);
    _exit(127);
}

int gridlock_pipe_close_on_exec(int ends[2]) {
    return pipe2(ends, O_CLOEXEC);
}

int gridlock_become_subreaper(void) {
    return prctl(PR_SET_CHILD_SUBREAPER, 1UL, 0UL, 0UL, 0UL);
}
