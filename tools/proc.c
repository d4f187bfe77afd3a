/* proc.c - child processes that never outlive the tool (proc.h). */
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const int forwarded[] = {SIGINT, SIGTERM, SIGHUP};
enum { NFWD = sizeof forwarded / sizeof forwarded[0] };

/* set by the handler; read by the waiting tool */
static volatile sig_atomic_t g_sig;
static int g_held;                  /* otpu_proc_hold: g_sig is kept across runs */
static struct sigaction g_hold_old[NFWD];
static volatile pid_t g_target;     /* the child (> 0) or its process group (< 0) */
static volatile sig_atomic_t g_fwd; /* the signal sent on: 0 the one received */

static void on_signal(int sig)
{
    g_sig = sig;
    if (g_target)
        kill(g_target, g_fwd ? g_fwd : sig);
}

static void handlers(struct sigaction *old)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < NFWD; i++)
        sigaction(forwarded[i], &sa, &old[i]);
}

static void restore(const struct sigaction *old)
{
    for (int i = 0; i < NFWD; i++)
        sigaction(forwarded[i], &old[i], NULL);
}

static void defaults(void)
{
    for (int i = 0; i < NFWD; i++)
        signal(forwarded[i], SIG_DFL);
}

/* In a new child: die when the parent does (it may have died already). */
static void die_with(pid_t parent, int sig)
{
    prctl(PR_SET_PDEATHSIG, sig);
    if (getppid() != parent)
        raise(sig);
}

static void wait_child(pid_t pid, otpu_proc_status *st)
{
    int ws = 0;
    while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
        ;
    st->code = WIFEXITED(ws) ? WEXITSTATUS(ws) : -1;
    st->signal = WIFSIGNALED(ws) ? WTERMSIG(ws) : 0;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* wait_child, at most seconds (0: no limit): past it the child's group is killed, and
 * st->timed_out set */
static void wait_child_for(pid_t pid, double seconds, otpu_proc_status *st)
{
    double deadline = now_s() + seconds;
    while (seconds > 0) {
        int ws = 0;
        pid_t r = waitpid(pid, &ws, WNOHANG);
        if (r == pid) {
            st->code = WIFEXITED(ws) ? WEXITSTATUS(ws) : -1;
            st->signal = WIFSIGNALED(ws) ? WTERMSIG(ws) : 0;
            return;
        }
        if (r < 0 && errno != EINTR)
            break;
        if (now_s() >= deadline) {
            kill(g_target, SIGKILL);
            st->timed_out = 1;
            break;
        }
        nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
    }
    wait_child(pid, st);
}

static int start(pid_t pid, int fwd, const struct sigaction *old, double timeout,
                 otpu_proc_status *st)
{
    if (pid < 0) {
        int e = errno;
        restore(old);
        errno = e;
        return -1;
    }
    g_fwd = fwd;
    g_target = fwd == SIGKILL ? -pid : pid;
    if (g_sig) /* a signal came before the child was known */
        kill(g_target, fwd ? fwd : g_sig);
    wait_child_for(pid, timeout, st);
    g_target = 0;
    st->interrupted = g_sig;
    restore(old);
    return 0;
}

/* Signal handlers on, buffers flushed, then fork(). */
static pid_t begin(otpu_proc_status *st, struct sigaction *old)
{
    memset(st, 0, sizeof *st);
    if (!g_held)
        g_sig = 0;
    fflush(stdout);
    fflush(stderr);
    handlers(old);
    return fork();
}

int otpu_proc_run(char *const argv[], otpu_proc_status *st)
{
    struct sigaction old[NFWD];
    pid_t parent = getpid(), pid = begin(st, old);
    if (pid == 0) {
        defaults();
        die_with(parent, SIGKILL);
        execv(argv[0], argv);
        fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    return start(pid, 0, old, 0, st);
}

/* The supervisor's answer to its parent's death or to a signal: the whole group goes. */
static void kill_group(int sig)
{
    (void)sig;
    kill(0, SIGKILL);
}

int otpu_proc_run_group(char *const argv[], const char *log_path, otpu_proc_status *st)
{
    return otpu_proc_run_group_for(argv, log_path, 0, st);
}

int otpu_proc_run_group_for(char *const argv[], const char *log_path, double seconds,
                            otpu_proc_status *st)
{
    struct sigaction old[NFWD];
    pid_t parent = getpid(), pid = begin(st, old);
    if (pid == 0) {
        setpgid(0, 0);
        for (int i = 0; i < NFWD; i++)
            signal(forwarded[i], kill_group);
        die_with(parent, SIGTERM);
        pid_t sh = fork();
        if (sh == 0) {
            defaults();
            prctl(PR_SET_PDEATHSIG, SIGKILL);
            int fd = log_path ? open(log_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666)
                              : STDERR_FILENO;
            if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0 || dup2(fd, STDERR_FILENO) < 0)
                _exit(127);
            execv(argv[0], argv);
            fprintf(stderr, "cannot run %s: %s\n", argv[0], strerror(errno));
            _exit(127);
        }
        if (sh < 0)
            _exit(127);
        otpu_proc_status s;
        wait_child(sh, &s);
        _exit(s.signal ? 128 + s.signal : s.code);
    }
    if (pid > 0)
        setpgid(pid, pid); /* (also done by the child: whichever runs first) */
    return start(pid, SIGKILL, old, seconds, st);
}

void otpu_proc_hold(void)
{
    g_sig = 0;
    g_target = 0;
    handlers(g_hold_old);
    g_held = 1;
}

int otpu_proc_release(void)
{
    g_held = 0;
    restore(g_hold_old);
    return g_sig;
}

int otpu_proc_interrupted(void)
{
    return g_sig;
}

void otpu_proc_reraise(int sig)
{
    signal(sig, SIG_DFL);
    fflush(stdout);
    fflush(stderr);
    raise(sig);
    _exit(128 + sig);
}
