/*
 * tn_cproc.h: compile processes (tn_cproc.c). A sweep's compile threads may
 * hand each NVRTC or hiprtc compile to a helper process of their own,
 * rather than run it in the sweep's process.
 */
#ifndef TN_CPROC_H
#define TN_CPROC_H

#include <stddef.h>
#include <sys/types.h>

struct rt_prog;

/* Reads FDTUNE_COMPILE_PROCS: 0 off; unset, empty or 1 on (the default,
 * NOTES "v81 measured"); *on the answer. Another value is refused,
 * with what to give in err[0..n). */
int tn_cproc_env(int *on, char *err, size_t n);
/* The program the helpers run as "PROGRAM __compile" (default
 * /proc/self/exe); the string must outlive the helpers. */
void tn_cproc_exe(const char *path);
/* At most n helpers kept idle (at least 1; default 64): one given back
 * beyond them is ended. */
void tn_cproc_keep(int n);
/* rt_compile's contract, the compile done by a helper process taken from
 * the idle ones or started: the same code, log, options, resources and
 * status. A helper that crashes during the compile fails it, saying so;
 * one found dead or killed (SIGKILL, SIGTERM, SIGINT, SIGHUP) is replaced;
 * where helpers cannot be started or keep being killed, rt_compile runs in
 * the calling thread (the first such failure said once on stderr).
 * Thread-safe. */
int tn_cproc_compile(const char *src, const char *name, const char *arch, struct rt_prog *p,
		     char *err, size_t n);
/* Ends every idle helper and waits for it; a helper in use is given back
 * idle when its compile returns: call this once every compile has. */
void tn_cproc_end(void);
/* The CPU seconds every helper of this process has used so far (those
 * ended, those alive): what the step log adds to the process's own. */
double tn_cproc_cpu_s(void);
/* The CPU seconds (user and system) process pid has used, from
 * /proc/PID/stat, to a clock tick; 0 where it cannot be read. */
double tn_cproc_pid_cpu_s(pid_t pid);
/* The helpers alive (idle or in use), and the pid of an idle one (0: none),
 * for tests. */
int tn_cproc_count(void);
pid_t tn_cproc_idle_pid(void);
/* A helper's loop ("fdtune __compile"): a request on stdin, its answer on
 * stdout, until stdin ends. */
int tn_cproc_main(void);

#endif
