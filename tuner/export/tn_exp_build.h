/*
 * tn_exp_build.h: the measured build in an export. A tuned kernel's speed is
 * the speed of the code its run-time compiler made; nvcc or hipcc, given the
 * same source, can make other code (NVRTC and nvcc differ in their PTX, and
 * ptxas then in registers). So an export carries the code object the sweep
 * timed, rebuilt here with the compiler, version, target and options its
 * builds row records and checked against that row, and NAME_launch runs it
 * where the device's architecture is the one it was built for; elsewhere the
 * source kernel that nvcc or hipcc compiled.
 */
#ifndef TN_EXP_BUILD_H
#define TN_EXP_BUILD_H

#include <stddef.h>
#include <stdio.h>

#include "db.h"
#include "tn.h"

/* The measured build of one kernel of an export. */
struct tn_measured {
	int ok;                 /* 1: code holds the build the run timed */
	char why[640];          /* ok: what it is and how it was checked; else why not */
	char platform[8];       /* "nvidia" or "amd": the runtime it loads with */
	char arch[64];          /* the target it was built for: "sm_90", "gfx90a" */
	char fn[32];            /* the kernel's symbol in the code object */
	long long run, build;   /* the run, and its builds row */
	void *code;
	size_t size;
	char hash[17];          /* FNV-1a 64 of the code, hex */
};

/* The build of run p (configuration values v of family fam), rebuilt and
 * checked: the source regenerated must hash as the row's source_hash, the
 * compiler and its version and the options must be this fdtune's, and the
 * registers, LDS and spills it reports must be the row's. With off set, or
 * where any of this fails, m->ok = 0 and m->why says why; that is no error.
 * Nonzero only when the source cannot be generated (err says why). m is
 * released with tn_measured_free. */
int tn_measured_get(struct db *db, const struct tn_family *fam, const struct db_pick *p,
		    const int *v, int off, struct tn_measured *m, char *err, size_t n);
void tn_measured_free(struct tn_measured *m);
/* m for a kernel of no run (a family default): source only, why says so. */
void tn_measured_none(struct tn_measured *m, const char *why);

/* NAME.h's comment lines on the kernels m[0..nk): which carry their
 * measured build and which do not, and why. */
void tn_measured_doc(FILE *o, const char *name, const struct tn_measured *m, int nk);

/* Host code of NAME.cu for the kernels m[0..nk), launched with dyn[k] bytes
 * of dynamic LDS: the code objects, their table, static NAME_build(k, &why)
 * (kernel k's loaded measured build on the current device, loaded once per
 * device, or NULL for the source kernel) and static NAME_go(), which
 * launches one. Needs FD_RT and string.h (tn_exp_preamble). */
void tn_measured_host(FILE *o, const char *name, const struct tn_measured *m, int nk,
		      const long long *dyn);
/* extern "C" int NAME_measured(nx, ny, nz, &why): 1 when NAME_launch of
 * that grid on the current device runs a measured build; kexpr, a C
 * expression of nx, ny, nz for the kernel index (< 0: none fits), which
 * may write into an int e declared for it ("NAME_kernel(nx, ny, nz, &e)"). */
void tn_measured_query(FILE *o, const char *name, const char *kexpr);
/* The statements that launch kernel k's measured build where NAME_build
 * gives one, returning from NAME_launch; args the kernel's arguments
 * ("out, in"), grid and block dim3s and g, c in scope. */
void tn_measured_launch(FILE *o, const char *ind, const char *name, int k, const char *args,
			long long dyn);

#endif
