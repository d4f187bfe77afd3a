/* proc.h - the tools' child processes: run one to its end, and let none outlive the tool.
 *
 * otpu_proc_run runs a program (a simulator) as a child that dies with the tool: when the
 * tool dies, even of SIGKILL, the child gets SIGKILL (PR_SET_PDEATHSIG), and SIGINT, SIGTERM
 * and SIGHUP sent to the tool are forwarded to it.
 *
 * otpu_proc_run_group runs a program (a build: a shell running Verilator, make, the
 * compilers) in a process group of its own, under a small supervisor process that kills the
 * whole group when the tool dies or is interrupted, so no compiler is left running and no
 * lock is left held.
 *
 * Both return once the child has ended. When the tool itself was sent a signal meanwhile,
 * st->interrupted holds it: the caller cleans up what it made and calls otpu_proc_reraise,
 * printing no verdict (a killed run says nothing about the design).
 */
#ifndef OTPU_PROC_H
#define OTPU_PROC_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int code;        /* the exit status, when the child exited */
    int signal;      /* the signal that ended the child, or 0 */
    int interrupted; /* the signal the tool received while waiting, or 0 */
    int timed_out;   /* otpu_proc_run_group_for: the time ran out and the group was killed */
} otpu_proc_status;

/* argv[0] is a path (no PATH search). stdout/stderr are the tool's. 0, or -1 if the child
 * could not be started (errno says why). */
int otpu_proc_run(char *const argv[], otpu_proc_status *st);

/* argv as above, with stdout and stderr appended to log_path (NULL: both to the tool's
 * stderr, keeping build chatter off stdout). */
int otpu_proc_run_group(char *const argv[], const char *log_path, otpu_proc_status *st);
/* The same, killing the whole group (SIGKILL) after seconds (0: no limit): st->timed_out. */
int otpu_proc_run_group_for(char *const argv[], const char *log_path, double seconds,
                            otpu_proc_status *st);

/* Between otpu_proc_hold and otpu_proc_release, SIGINT, SIGTERM and SIGHUP sent to the tool
 * are recorded instead of ending it (runs in between see them, as usual, in st->interrupted):
 * for work that must clean up what it made (a build's temporary folder) however it ends.
 * otpu_proc_release returns the signal received, or 0. Not nested. */
void otpu_proc_hold(void);
int otpu_proc_release(void);

/* The signal the tool received during the last run, or 0. */
int otpu_proc_interrupted(void);

/* Ends the tool by the signal it received (the default action, so the parent shell sees it). */
void otpu_proc_reraise(int sig);

#ifdef __cplusplus
}
#endif
#endif
