/*
 * db_path.c: a database path checked before SQLite opens it. SQLite reports
 * a directory, a device such as /dev/null, a missing directory or a file
 * without permission as "disk I/O error" or "unable to open database file";
 * db_path_check names what is wrong with the path and what to do instead.
 */
#include "db.h"
#include "db_int.h"

#include <errno.h>
#include <libgen.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The directory of path (dirname, on a copy) into dir[0..n). */
static void dir_of(const char *path, char *dir, size_t n)
{
    char copy[4096];

    snprintf(copy, sizeof copy, "%s", path);
    snprintf(dir, n, "%s", dirname(copy));
}

int db_path_check(const char *path, int write, char *err, size_t n)
{
    struct stat st, ds;
    char dir[4096];

    if (strlen(path) >= sizeof dir)
        return db_fail(err, n, "%.200s...: path too long", path);
    dir_of(path, dir, sizeof dir);
    if (stat(path, &st)) {
        if (errno != ENOENT)
            return db_fail(err, n, "cannot access %s: %s; check the path and its permissions",
                           path, strerror(errno));
        if (!write)
            return db_fail(err, n, "no database at %s; give the path of a database that "
                           "fdtune sweep wrote", path);
        if (stat(dir, &ds))
            return db_fail(err, n, "cannot create %s: its directory %s %s; create it "
                           "(mkdir -p %s) or choose another path", path, dir,
                           errno == ENOENT ? "does not exist" : strerror(errno), dir);
        if (!S_ISDIR(ds.st_mode))
            return db_fail(err, n, "cannot create %s: %s is not a directory", path, dir);
        if (access(dir, W_OK | X_OK))
            return db_fail(err, n, "cannot create %s: directory %s is not writable (%s); "
                           "choose another path", path, dir, strerror(errno));
        return 0;
    }
    if (S_ISDIR(st.st_mode))
        return db_fail(err, n, "%s is a directory, not a database file; give the path of a "
                       "file (e.g. %s/fdtune.db)", path, strcmp(path, "/") ? path : "");
    if (!S_ISREG(st.st_mode))
        return db_fail(err, n, "%s is not a regular file (a %s); give the path of a database "
                       "file", path, S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "device" :
                       S_ISFIFO(st.st_mode) ? "pipe" : S_ISSOCK(st.st_mode) ? "socket" :
                       "special file");
    if (access(path, write ? R_OK | W_OK : R_OK))
        return db_fail(err, n, "%s cannot be %s: %s; fix its permissions or choose another "
                       "path", path, write ? "read and written" : "read", strerror(errno));
    /* SQLite writes its -wal and -shm files next to the database */
    if (write && access(dir, W_OK | X_OK))
        return db_fail(err, n, "%s is in a directory that is not writable (%s: %s), where "
                       "SQLite must keep its -wal and -shm files; move the database or fix "
                       "the permissions", path, dir, strerror(errno));
    return 0;
}

int db_path_writable(const char *path)
{
    char dir[4096];

    if (strlen(path) >= sizeof dir)
        return 0;
    dir_of(path, dir, sizeof dir);
    return !access(path, R_OK | W_OK) && !access(dir, W_OK | X_OK);
}
