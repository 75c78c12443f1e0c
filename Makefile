# fdtune: an autotuner and kernel generator for high-order finite-difference
# stencils. `make` builds ./fdtune for the GPU platform it finds (NVIDIA when
# a CUDA toolkit is present, else AMD when ROCm's HIP is); GPU=nvidia or
# GPU=amd forces one. `make sweep` runs the main job (ARGS= adds fdtune sweep
# options); `make test` runs the test suite, the GPU tests where a GPU is
# present. Both install what is missing first (Debian and Ubuntu, apt-get).

CUDA ?= /usr/local/cuda
HAVE_CUDA := $(shell test -e $(CUDA)/include/nvrtc.h && echo yes)
HAVE_HIP := $(shell test -e /usr/include/hip/hiprtc.h -o -e /opt/rocm/include/hip/hiprtc.h && echo yes)
ifeq ($(HAVE_CUDA),yes)
GPU ?= nvidia
else
GPU ?= amd
endif

CC ?= cc
WARN = -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
CFLAGS ?= -O2 -g
CFLAGS += -std=c11 $(WARN) -fopenmp -MMD -MP
CPPFLAGS += -D_POSIX_C_SOURCE=200809L -Igen -Iruntime -Idb -Ituner -Ituner/cmd -Ituner/fam -Ituner/ref -Ituner/search -Ituner/sweep -Ituner/report -Ituner/plan -DFDT_TEMPLATE_DIR='"$(CURDIR)/templates"'
LDLIBS = -lsqlite3 -lpthread -lm
NV_CPPFLAGS = -DRT_NVIDIA -I$(CUDA)/include
NV_LIBS = -L$(CUDA)/lib64 -Wl,-rpath,$(CUDA)/lib64 -lnvrtc -ldl
AMD_CPPFLAGS = -D__HIP_PLATFORM_AMD__ -I/opt/rocm/include
AMD_LIBS = -L/opt/rocm/lib -Wl,-rpath,/opt/rocm/lib -lamdhip64

B = build
CORE = gen/gen.c db/db.c db/db_best.c db/db_merge.c db/db_strategy.c tuner/ref/tn_coef.c tuner/ref/tn_field.c \
       tuner/ref/tn_ref.c tuner/search/tn_space.c tuner/tn_problem.c tuner/fam/tn_families.c \
       tuner/fam/fam_xyz.c tuner/fam/fam_bugs.c tuner/search/tn_search.c \
       tuner/fam/fam_x.c tuner/fam/fam_y.c tuner/fam/fam_z.c tuner/fam/fam_xy.c \
       tuner/fam/fam_xs.c tuner/fam/fam_ym.c tuner/fam/fam_zm.c \
       tuner/ref/tn_ref_mixed.c tuner/fam/fam_dmix.c tuner/fam/fam_d1.c \
       tuner/ref/tn_ref_wave.c tuner/fam/fam_iso3dfd.c tuner/plan/tn_plan.c tuner/plan/tn_order.c
TOOL = tuner/sweep/tn_bench.c tuner/sweep/tn_sweep.c tuner/sweep/tn_gpus.c tuner/sweep/tn_loop.c tuner/sweep/tn_record.c tuner/sweep/tn_pool.c tuner/sweep/tn_worker.c tuner/sweep/tn_progress.c tuner/cmd/tn_cli.c tuner/sweep/tn_cache.c \
       tuner/cmd/cmd_gen.c tuner/cmd/cmd_sweep.c tuner/cmd/cmd_info.c tuner/cmd/cmd_report.c tuner/report/tn_report.c \
       tuner/cmd/cmd_export.c tuner/cmd/cmd_replay.c tuner/cmd/cmd_merge.c \
       tuner/main.c
CORE_O = $(CORE:%.c=$(B)/%.o)
TOOL_O = $(TOOL:%.c=$(B)/%.o)

# Platforms whose toolchain is here: both on a developer's or CI machine.
PLATFORMS = $(if $(HAVE_CUDA),nvidia) $(if $(HAVE_HIP),amd)

all: fdtune

fdtune: fdtune-$(GPU)
	cp $< $@

fdtune-nvidia: $(CORE_O) $(TOOL_O) $(B)/nvidia/rt.o
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS) $(NV_LIBS)

fdtune-amd: $(CORE_O) $(TOOL_O) $(B)/amd/rt.o
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS) $(AMD_LIBS)

$(B)/tests/%.o: CPPFLAGS += -Itests -Idb
$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(B)/nvidia/rt.o: runtime/rt.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(NV_CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(B)/amd/rt.o: runtime/rt.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(AMD_CPPFLAGS) $(CFLAGS) -c -o $@ $<

# ---- libfdtune: the run-time lookup library (db/fdtune.h) ----
PREFIX ?= /usr/local
$(B)/libfdtune.a: $(B)/db/fdt_lib.o
	$(AR) rcs $@ $^

lib: $(B)/libfdtune.a

install: $(B)/libfdtune.a
	install -d $(PREFIX)/include $(PREFIX)/lib/pkgconfig
	install -m 644 db/fdtune.h $(PREFIX)/include/fdtune.h
	install -m 644 $(B)/libfdtune.a $(PREFIX)/lib/libfdtune.a
	printf 'prefix=%s\nincludedir=$${prefix}/include\nlibdir=$${prefix}/lib\n\nName: fdtune\nDescription: best tuned stencil configurations from an fdtune database\nVersion: 0.1\nRequires.private: sqlite3\nCflags: -I$${includedir}\nLibs: -L$${libdir} -lfdtune -lsqlite3\n' \
	  '$(PREFIX)' > $(PREFIX)/lib/pkgconfig/fdtune.pc

# ---- generated kernels, in the build tree only ----
gen-all: fdtune
	./fdtune gen --all --out $(B)/kernels -r 4

# ---- tests (cmocka) ----
TESTLIBS = -lcmocka
T_CPU = $(B)/t_core $(B)/t_strategy $(B)/t_mixed $(B)/t_wave $(B)/t_db $(B)/t_cli $(B)/t_plan $(B)/t_lib $(B)/t_report $(PLATFORMS:%=$(B)/t_compile-%)

$(B)/t_core: $(B)/tests/t_core.o $(CORE_O)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS) $(TESTLIBS)
$(B)/t_strategy: $(B)/tests/t_strategy.o $(B)/tests/t_ref.o $(CORE_O)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS) $(TESTLIBS)
$(B)/t_mixed: $(B)/tests/t_mixed.o $(B)/tests/t_ref.o $(CORE_O)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS) $(TESTLIBS)
$(B)/t_wave: $(B)/tests/t_wave.o $(B)/tests/t_ref.o $(CORE_O)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS) $(TESTLIBS)
$(B)/t_db: $(B)/tests/t_db.o $(B)/db/db.o $(B)/db/db_best.o
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS) $(TESTLIBS)
$(B)/t_lib: $(B)/tests/t_lib.o $(B)/tests/t_util.o $(B)/libfdtune.a
	$(CC) $(CFLAGS) -o $@ $^ -lsqlite3 $(TESTLIBS)
$(B)/t_cli: $(B)/tests/t_cli.o $(B)/tests/t_util.o
	$(CC) $(CFLAGS) -o $@ $^ -lsqlite3 $(TESTLIBS)
$(B)/t_plan: $(B)/tests/t_plan.o $(B)/tests/t_util.o $(CORE_O)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS) $(TESTLIBS)
$(B)/t_report: $(B)/tests/t_report.o $(B)/tests/t_util.o
	$(CC) $(CFLAGS) -o $@ $^ -lsqlite3 $(TESTLIBS)
$(B)/t_compile-nvidia: $(B)/tests/t_compile.o $(CORE_O) $(B)/nvidia/rt.o
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS) $(NV_LIBS) $(TESTLIBS)
$(B)/t_compile-amd: $(B)/tests/t_compile.o $(CORE_O) $(B)/amd/rt.o
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS) $(AMD_LIBS) $(TESTLIBS)
$(B)/t_gpu: $(B)/tests/t_gpu.o $(B)/tests/t_util.o $(CORE_O) $(filter-out $(B)/tuner/main.o,$(TOOL_O)) $(B)/$(GPU)/rt.o
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS) $(if $(filter nvidia,$(GPU)),$(NV_LIBS),$(AMD_LIBS)) $(TESTLIBS)

# README's two commands. Each first installs what is missing (.ci/deps.sh),
# then runs make again so that the toolchains found are the ones now here.
sweep:
	@sh .ci/deps.sh
	@$(MAKE) --no-print-directory -j$$(nproc) fdtune
	@mkdir -p results
	./fdtune sweep --db results/fdtune.db $(ARGS)

test:
	@sh .ci/deps.sh test
	@$(MAKE) --no-print-directory -j$$(nproc) check

# Every test binary runs even when an earlier one fails; the target fails
# if any did. t_gpu skips itself where there is no GPU.
check: fdtune $(T_CPU) $(B)/t_gpu
	@FDTUNE=$(CURDIR)/fdtune TEMPLATES=$(CURDIR)/templates ROOT=$(CURDIR) \
	  RESULTS_DB=$(CURDIR)/results/h100/fdtune.db sh tests/run.sh $(T_CPU) $(B)/t_gpu

# GPU tests only: what the device machine runs.
test-gpu: fdtune $(B)/t_gpu
	FDTUNE=$(CURDIR)/fdtune ROOT=$(CURDIR) RESULTS_DB=$(CURDIR)/results/h100/fdtune.db $(B)/t_gpu

# A real single-node Slurm cluster in a temporary directory runs the README's
# job-array script over a plan and its merged shards are checked (root only).
test-slurm: fdtune
	@sh .ci/deps.sh slurm
	FDTUNE=$(CURDIR)/fdtune sh tests/slurm.sh

deps:
	@sh .ci/deps.sh test

clean:
	rm -rf $(B) fdtune fdtune-nvidia fdtune-amd

.PHONY: all sweep test check test-gpu test-slurm deps clean gen-all lib install
-include $(shell find $(B) -name '*.d' 2>/dev/null)
