#define _GNU_SOURCE
#include "cprocess.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/prctl.h>
#include <sys/syscall.h>
#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif
#endif

/* Everything the child needs, made before fork: after fork the child calls async-signal-safe functions only
   (this process may have other threads, whose locks the child's copy holds forever). */
struct child_plan {
    const char *path;
    char *const *argv;
    char *const *envp;
    int fds[3];          /* becomes 0, 1, 2 */
    int report;          /* write end of the close-on-exec pipe: errno of a failure before or at execve */
    pid_t parent;
    int max_fd;          /* above every descriptor this process can have open */
    struct sigaction default_action;
    sigset_t empty;
};

/* Tells the parent why the program could not be started, then ends the child. */
static void child_fail(const struct child_plan *plan, int err) __attribute__((noreturn));
static void child_fail(const struct child_plan *plan, int err) {
    ssize_t n;
    do {
        n = write(plan->report, &err, sizeof err);
    } while (n < 0 && errno == EINTR);
    _exit(127);
}

static void run_child(const struct child_plan *plan) __attribute__((noreturn));
static void run_child(const struct child_plan *plan) {
    if (setpgid(0, 0) != 0) child_fail(plan, errno);
#if defined(__linux__)
    /* SIGKILL when the thread that forked us ends: with it when this process dies, even by kill -9. */
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) child_fail(plan, errno);
    /* The parent died before prctl: no signal will come, and nobody waits for the message. */
    if (getppid() != plan->parent) _exit(127);
#endif
    /* Copies at 3 and above first, so that putting one on 0, 1 or 2 cannot overwrite another (nor be a
       no-op dup2 that keeps close-on-exec); the copies themselves are closed by execve. */
    int copies[3];
    for (int i = 0; i < 3; i++) {
        copies[i] = fcntl(plan->fds[i], F_DUPFD_CLOEXEC, 3);
        if (copies[i] < 0) child_fail(plan, errno);
    }
    for (int i = 0; i < 3; i++) {
        if (dup2(copies[i], i) < 0) child_fail(plan, errno);
    }
    /* The program gets 0, 1 and 2 only: whatever else this process has open without close-on-exec (a
       descriptor it inherited, one a library opened) is closed by execve. */
    int marked = -1;
#if defined(__linux__) && defined(SYS_close_range)
    marked = (int)syscall(SYS_close_range, 3U, ~0U, CLOSE_RANGE_CLOEXEC);
#endif
    if (marked != 0) {
        for (int fd = 3; fd < plan->max_fd; fd++) fcntl(fd, F_SETFD, FD_CLOEXEC);
    }
    /* Default actions: for every signal with a handler here (execve would reset those too, but a signal
       between unblocking and execve must not run this process's handler in the child), and for the
       signals that stop a program even when they are ignored here. */
    for (int sig = 1; sig < NSIG; sig++) {
        struct sigaction current;
        if (sigaction(sig, NULL, &current) != 0) continue; /* reserved by the C library */
        int stops = sig == SIGINT || sig == SIGTERM || sig == SIGHUP || sig == SIGQUIT || sig == SIGPIPE;
        int handled = current.sa_handler != SIG_DFL && current.sa_handler != SIG_IGN;
        if (stops || handled) sigaction(sig, &plan->default_action, NULL);
    }
    sigprocmask(SIG_SETMASK, &plan->empty, NULL);
    execve(plan->path, plan->argv, plan->envp);
    child_fail(plan, errno);
}

pid_t cprocess_spawn(const char *path, char *const argv[], char *const envp[], int stdin_fd, int stdout_fd,
                     int stderr_fd, int *error) {
    int report[2];
#if defined(__linux__)
    if (pipe2(report, O_CLOEXEC) != 0) {
        *error = errno;
        return -1;
    }
#else
    if (pipe(report) != 0) {
        *error = errno;
        return -1;
    }
    fcntl(report[0], F_SETFD, FD_CLOEXEC);
    fcntl(report[1], F_SETFD, FD_CLOEXEC);
#endif
    struct child_plan plan;
    memset(&plan, 0, sizeof plan);
    plan.path = path;
    plan.argv = argv;
    plan.envp = envp;
    plan.fds[0] = stdin_fd;
    plan.fds[1] = stdout_fd;
    plan.fds[2] = stderr_fd;
    plan.report = report[1];
    plan.parent = getpid();
    struct rlimit files;
    plan.max_fd = 1 << 20;
    if (getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur != RLIM_INFINITY && files.rlim_cur < (1 << 20)) {
        plan.max_fd = (int)files.rlim_cur;
    }
    plan.default_action.sa_handler = SIG_DFL;
    sigemptyset(&plan.default_action.sa_mask);
    sigemptyset(&plan.empty);

    /* No handler of this process may run in the child (it would act on this process's behalf, e.g. write to
       a signal watcher's pipe, which the child shares until execve): every signal is blocked from before
       fork until the child has set the default actions. */
    sigset_t all, saved;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &saved);
    pid_t pid = fork();
    if (pid == 0) run_child(&plan);
    int fork_error = errno;
    pthread_sigmask(SIG_SETMASK, &saved, NULL);
    close(report[1]);
    if (pid < 0) {
        close(report[0]);
        *error = fork_error;
        return -1;
    }
    /* End of file: execve closed the pipe, the program runs. Otherwise the child's errno. */
    int child_error = 0;
    ssize_t n;
    do {
        n = read(report[0], &child_error, sizeof child_error);
    } while (n < 0 && errno == EINTR);
    close(report[0]);
    if (n <= 0) return pid; /* (a failed read cannot tell: the caller's wait will) */
    if (n != sizeof child_error || child_error == 0) child_error = EIO;
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    *error = child_error;
    return -1;
}
