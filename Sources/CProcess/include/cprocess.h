/*
 * CProcess — starting a child program that cannot outlive this process (what posix_spawn cannot do).
 *
 * Plain C, only <sys/types.h> here.
 */
#ifndef CPROCESS_H
#define CPROCESS_H

#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Starts `path` with `argv` (NULL-terminated, argv[0] included) and `envp` (NULL-terminated):
 *  - in a process group of its own (a Ctrl-C on the terminal does not reach it; its group can be killed);
 *  - on Linux, killed (SIGKILL) when the calling thread ends, which includes this process being killed
 *    (PR_SET_PDEATHSIG); the caller must wait for the child on the calling thread;
 *  - with `stdin_fd` as its standard input and `stdout_fd`, `stderr_fd` as its standard output and error,
 *    and no other descriptor of this process (all others are closed when the program starts);
 *  - with an empty signal mask and the default action for every signal that has a handler here, and for
 *    SIGINT, SIGTERM, SIGHUP, SIGQUIT and SIGPIPE even when they are ignored here.
 *
 * Returns the child's pid once it runs the program. On failure returns -1 and sets *error to the errno
 * value: of pipe or fork, or of whatever kept the child from running the program (e.g. ENOENT, EACCES from
 * execve); such a child has already been waited for.
 */
pid_t cprocess_spawn(const char *path, char *const argv[], char *const envp[], int stdin_fd, int stdout_fd,
                     int stderr_fd, int *error);

#ifdef __cplusplus
}
#endif

#endif /* CPROCESS_H */
