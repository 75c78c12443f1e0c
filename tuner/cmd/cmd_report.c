/*
 * cmd_report.c: fdtune report, the database as a markdown page with plots.
 * It parses the options, opens the database (refusing a path that does not
 * exist rather than creating it), lists the sweeps still running (with their
 * host and age) on stderr, has tn_report_write (tn_report.c) write
 * DIR/report.md, the plot data and DIR/plots.gp, then runs gnuplot on that
 * script in DIR as a child process, which draws every plot as PNG and SVG.
 */
#define _POSIX_C_SOURCE 200809L
#include "db.h"
#include "tn_cli.h"
#include "tn_report.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define REPORT_DIR_DEFAULT "results/report"

static const char usage[] =
"usage: fdtune report [options]\n"
"Write DIR/report.md: for each device and problem in the database, the copy\n"
"bandwidth, the runs that failed, the ten fastest configurations and plots\n"
"of the effective bandwidth against nw, the block shape and the radius\n"
"(PNG and SVG, drawn by gnuplot from DIR/plots.gp and DIR/*.dat).\n"
"  --db PATH           database (default " TN_CLI_DB_DEFAULT ")\n"
"  -o, --out DIR       output directory, created if missing (default "
REPORT_DIR_DEFAULT ")\n"
"  -f, --family F      only this family\n"
"  -r, --radius R      only this radius (the radius plot still shows every\n"
"                      radius recorded for the same device, family and size)\n"
"  --device TEXT       only devices whose name or arch contains TEXT\n"
"  --precision P       only this precision (fp32 or fp64)\n"
"  -h, --help          this text\n"
"Exit status: 0 report written, 3 nothing matched, 1 error, 2 usage.\n";

/* Runs "gnuplot plots.gp" in dir and waits for it: 0 when it exits 0, else
 * FDT_FAIL with the reason in err (gnuplot missing: what to install). */
static int run_gnuplot(const char *dir, char *err, size_t n)
{
	char *const argv[] = { "gnuplot", "plots.gp", NULL };
	int fd[2], e[2] = { 0, 0 }, st; /* e: what the child could not do (1 chdir, 2 exec), errno */
	ssize_t got;
	pid_t pid;

	if (pipe(fd)) {
		snprintf(err, n, "cannot start gnuplot: %s", strerror(errno));
		return FDT_FAIL;
	}
	if (fcntl(fd[1], F_SETFD, FD_CLOEXEC) || (pid = fork()) < 0) {
		snprintf(err, n, "cannot start gnuplot: %s", strerror(errno));
		close(fd[0]);
		close(fd[1]);
		return FDT_FAIL;
	}
	if (!pid) { /* child: on failure, tells the parent through the pipe */
		close(fd[0]);
		e[0] = chdir(dir) ? 1 : 2;
		if (e[0] == 2)
			execvp(argv[0], argv);
		e[1] = errno;
		if (write(fd[1], e, sizeof e) < 0)
			_exit(126);
		_exit(127);
	}
	close(fd[1]);
	while ((got = read(fd[0], e, sizeof e)) < 0 && errno == EINTR)
		;
	close(fd[0]);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			snprintf(err, n, "waiting for gnuplot: %s", strerror(errno));
			return FDT_FAIL;
		}
	if (got == (ssize_t)sizeof e && e[0] == 2 && e[1] == ENOENT)
		snprintf(err, n, "gnuplot not found: install gnuplot-nox (apt-get install "
			 "gnuplot-nox), then run fdtune report again");
	else if (got == (ssize_t)sizeof e)
		snprintf(err, n, "cannot %s %.900s: %s", e[0] == 1 ? "enter" : "run gnuplot in",
			 dir, strerror(e[1]));
	else if (!WIFEXITED(st) || WEXITSTATUS(st))
		snprintf(err, n, "gnuplot failed (%s %d) on %.900s/plots.gp; its messages are above",
			 WIFEXITED(st) ? "exit status" : "signal",
			 WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st), dir);
	else
		return FDT_OK;
	return FDT_FAIL;
}

int tn_cmd_report(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "db", required_argument, 0, TN_O_DB },
		{ "out", required_argument, 0, 'o' },
		{ "family", required_argument, 0, 'f' },
		{ "radius", required_argument, 0, 'r' },
		{ "device", required_argument, 0, TN_O_DEVICE },
		{ "precision", required_argument, 0, TN_O_PRECISION },
		{ "help", no_argument, 0, 'h' },
		{ 0, 0, 0, 0 }
	};
	const char *path = TN_CLI_DB_DEFAULT, *dir = REPORT_DIR_DEFAULT;
	struct db_filter f = { 0 };     /* --device, --family, --radius, --precision */
	char err[1024] = "";
	int opt, rc = FDT_FAIL, nplots = 0;
	struct db *db = NULL;
	struct sqlite3 *h;

	struct tn_cli_seen seen = { 0 };
	int used;
	while ((opt = tn_cli_getopt(argc, argv, "o:f:r:h", lo, &seen)) != -1) {
		switch (opt) {
		case TN_O_DB: path = optarg; break;
		case 'o': dir = optarg; break;
		case 'f': case 'r': case TN_O_DEVICE: case TN_O_PRECISION:
			/* parsed as best, export and replay parse them */
			if (tn_cli_filter_opt(&f, opt, optarg, &used, err, sizeof err)) {
				fprintf(stderr, "fdtune report: %s\n", err);
				return FDT_USAGE;
			}
			break;
		case 'h': fputs(usage, stdout); return FDT_OK;
		default: fputs(usage, stderr); return FDT_USAGE;
		}
	}
	if (optind < argc || !*dir || !*path) {
		fprintf(stderr, "fdtune report: %s%s%s\n%s", optind < argc ? "unexpected argument '" :
			"--db and --out need a non-empty path", optind < argc ? argv[optind] : "",
			optind < argc ? "'" : "", usage);
		return FDT_USAGE;
	}
	if (tn_cli_db_read(path, 0, &db, err, sizeof err) || db_handle(db, &h, err, sizeof err))
		goto done;
	if (db_live_sweeps(db, stderr, "fdtune report: ", NULL, err, sizeof err))
		goto done;
	if ((rc = tn_report_write(h, path, &f, dir, &nplots, err, sizeof err)) ||
	    (nplots && (rc = run_gnuplot(dir, err, sizeof err))))
		goto done;
	printf("fdtune report: wrote %s/report.md with %d plots (PNG and SVG)\n", dir, nplots);
done:
	if (rc)
		tn_cli_db_said(db, path, err, sizeof err);
	db_close(db);
	if (rc)
		fprintf(stderr, "fdtune report: %s\n", err);
	return rc;
}
