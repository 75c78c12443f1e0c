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

# the version of fdtune: --version, pkg-config's and the CMake package's
VERSION = 0.1

CC ?= cc
WARN = -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
CFLAGS ?= -O2 -g
CFLAGS += -std=c11 $(WARN) -fopenmp -MMD -MP
CPPFLAGS += -D_POSIX_C_SOURCE=200809L -Igen -Iruntime -Idb -Ituner -Ituner/cmd -Ituner/fam -Ituner/ref -Ituner/search -Ituner/sweep -Ituner/report -Ituner/export -Ituner/plan -Ituner/online -DFDT_TEMPLATE_DIR='"$(CURDIR)/templates"'
LDLIBS = -lsqlite3 -lz -lpthread -lm -ldl
NV_CPPFLAGS = -DRT_NVIDIA -I$(CUDA)/include
NV_LIBS = -L$(CUDA)/lib64 -Wl,-rpath,$(CUDA)/lib64 -lnvrtc -ldl
AMD_CPPFLAGS = -D__HIP_PLATFORM_AMD__ -I/opt/rocm/include
AMD_LIBS = -L/opt/rocm/lib -Wl,-rpath,/opt/rocm/lib -lamdhip64

B = build
# every family descriptor (tuner/fam/fam_*.c) is built: a new family is its
# template, its descriptor and its line in tuner/fam/tn_families.c
CORE = gen/gen.c runtime/rt_res.c db/db.c db/db_build.c db/db_schema.c db/db_record.c db/db_fault.c db/db_best.c db/db_pick.c db/db_merge.c db/db_strategy.c db/db_related.c db/db_kin.c db/db_reap.c db/db_read.c db/db_source.c db/db_code.c db/db_compact.c tuner/ref/tn_coef.c tuner/ref/tn_field.c \
       tuner/ref/tn_ref.c tuner/search/tn_space.c tuner/tn_problem.c tuner/fam/tn_families.c \
       $(sort $(wildcard tuner/fam/fam_*.c)) tuner/search/tn_search.c tuner/search/tn_transfer.c \
       tuner/ref/tn_ref_mixed.c tuner/ref/tn_ref_wave.c tuner/plan/tn_plan.c tuner/plan/tn_order.c tuner/plan/tn_pcache.c tuner/tn_file.c
TOOL = tuner/sweep/tn_bench.c tuner/sweep/tn_wref.c tuner/sweep/tn_hdata.c tuner/sweep/tn_hshare.c tuner/sweep/tn_energy.c runtime/rt_energy.c tuner/sweep/tn_time.c tuner/sweep/tn_sweep.c tuner/sweep/tn_schedule.c tuner/sweep/tn_stop.c tuner/sweep/tn_choose.c tuner/sweep/tn_gpus.c tuner/sweep/tn_loop.c tuner/sweep/tn_warm.c tuner/sweep/tn_fill.c tuner/sweep/tn_yield.c tuner/sweep/tn_record.c tuner/sweep/tn_pool.c tuner/sweep/tn_cproc.c tuner/sweep/tn_worker.c tuner/sweep/tn_fault.c tuner/sweep/tn_progress.c tuner/sweep/tn_summary.c tuner/sweep/tn_steps.c tuner/cmd/tn_cli.c tuner/sweep/tn_cache.c tuner/sweep/tn_cache_use.c tuner/sweep/tn_code.c \
       tuner/cmd/cmd_gen.c tuner/cmd/cmd_sweep.c tuner/cmd/cmd_info.c tuner/cmd/cmd_report.c tuner/report/tn_report.c \
       tuner/cmd/cmd_export.c tuner/cmd/cmd_replay.c tuner/cmd/cmd_merge.c tuner/cmd/cmd_compact.c tuner/cmd/cmd_cache.c tuner/cmd/cmd_codes.c tuner/online/tn_online_cmp.c \
       tuner/export/tn_exp_build.c tuner/export/tn_exp_emit.c tuner/export/tn_exp_one.c tuner/export/tn_exp_sizes.c \
       tuner/export/tn_exp_f90.c tuner/export/tn_exp_name.c \
       tuner/main.c
# online tuning in a user's run (tuner/online): libfdtune's, with the runtime;
# what a program that calls it links besides SQLite (pkg-config --static)
ONLINE = tuner/online/tn_online.c tuner/online/tn_online_pick.c tuner/online/tn_online_run.c \
	tuner/online/tn_online_save.c tuner/online/tn_online_cmp.c \
	tuner/online/fdt_online.c
CORE_O = $(CORE:%.c=$(B)/%.o)
ONLINE_LIBS = $(if $(filter nvidia,$(GPU)),$(NV_LIBS),$(AMD_LIBS)) -lz -lgomp -lpthread -lm
ONLINE_O = $(ONLINE:%.c=$(B)/%.o) $(B)/tuner/sweep/tn_cache.o $(B)/tuner/sweep/tn_cache_use.o $(B)/tuner/sweep/tn_code.o
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

$(B)/tuner/main.o: CPPFLAGS += -DFDT_VERSION='"$(VERSION)"'
$(B)/tuner/main.o: Makefile

# the CPU references: -O3 vectorises their row loops (tn_ref.c), the same bits
$(B)/tuner/ref/%.o: CFLAGS += -O3

$(B)/nvidia/rt.o: runtime/rt.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(NV_CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(B)/amd/rt.o: runtime/rt.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(AMD_CPPFLAGS) $(CFLAGS) -c -o $@ $<

# ---- libfdtune: the run-time lookup library (db/fdtune.h) ----
PREFIX ?= /usr/local
# the lookups (fdt_lib.o: SQLite alone), and online tuning (tuner/online,
# with the tuner's core and the runtime: a program links only what it calls)
$(B)/libfdtune.a: $(B)/db/fdt_lib.o $(ONLINE_O) $(CORE_O) $(B)/$(GPU)/rt.o
	rm -f $@ && $(AR) rcs $@ $^

lib: $(B)/libfdtune.a

# libfdtune's defaults: every family's, printed from the family descriptors
# by tuner/fam/tn_defaults.c (libfdtune cannot link the tuner)
$(B)/tn_defaults: $(B)/tuner/fam/tn_defaults.o $(CORE_O)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)
$(B)/db/fdt_defaults.h: $(B)/tn_defaults
	./$< > $@.tmp && mv $@.tmp $@
$(B)/db/fdt_lib.o: $(B)/db/fdt_defaults.h
# online tuning's validation kernel (templates/cmp.m4) as C strings
$(B)/tn_cmp_gen: $(B)/tuner/online/tn_cmp_gen.o $(CORE_O)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)
$(B)/tuner/online/tn_cmp_src.h: $(B)/tn_cmp_gen templates/cmp.m4 templates/lib.m4
	./$< > $@.tmp && mv $@.tmp $@
$(B)/tuner/online/tn_online_cmp.o: $(B)/tuner/online/tn_cmp_src.h
$(B)/tuner/online/tn_online_cmp.o: private CPPFLAGS += -I$(B)/tuner/online
$(B)/db/fdt_lib.o: private CPPFLAGS += -I$(B)/db

# The installed fdtune: the objects of ./fdtune, but gen.o compiled to find
# the templates under PREFIX/share/fdtune, into INST ($(B)/inst;
# $(INST)/prefix remembers which PREFIX, so that another one rebuilds it).
# The tests install into prefixes of their own, each with an INST of its own,
# so that installs running at once do not rebuild each other's fdtune.
INST = $(B)/inst
$(INST)/prefix: FORCE
	@mkdir -p $(dir $@)
	@echo '$(PREFIX)' | cmp -s - $@ || echo '$(PREFIX)' > $@
$(INST)/gen.o: gen/gen.c $(INST)/prefix
	$(CC) $(filter-out -DFDT_TEMPLATE_DIR=%,$(CPPFLAGS)) \
	  -DFDT_TEMPLATE_DIR='"$(PREFIX)/share/fdtune/templates"' $(CFLAGS) -c -o $@ $<
$(INST)/fdtune: $(filter-out $(B)/gen/gen.o,$(CORE_O)) $(INST)/gen.o $(TOOL_O) $(B)/$(GPU)/rt.o
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS) $(if $(filter nvidia,$(GPU)),$(NV_LIBS),$(AMD_LIBS))

# libfdtune (C header, Fortran module source, library, pkg-config file), the
# fdtune command and its templates (the m4 ones and fdt_rule.h, which
# export --all-sizes pastes into its NAME.cu), the CMake package (cmake/),
# the man page (docs/fdtune.1) and the bash completion
# (completion/fdtune.bash). INSTALLED lists every file install writes, for
# uninstall.
INSTALLED = include/fdtune.h include/fdtune.f90 include/fdtune_tuning.f90 lib/libfdtune.a lib/pkgconfig/fdtune.pc \
  bin/fdtune $(addprefix share/fdtune/templates/,$(notdir $(wildcard templates/*.m4 templates/*.h))) \
  lib/cmake/fdtune/fdtuneConfig.cmake lib/cmake/fdtune/fdtuneConfigVersion.cmake \
  share/man/man1/fdtune.1 share/bash-completion/completions/fdtune
install: $(B)/libfdtune.a $(INST)/fdtune
	install -d $(PREFIX)/include $(PREFIX)/lib/pkgconfig $(PREFIX)/bin \
	  $(PREFIX)/share/fdtune/templates $(PREFIX)/lib/cmake/fdtune \
	  $(PREFIX)/share/man/man1 $(PREFIX)/share/bash-completion/completions
	install -m 644 db/fdtune.h $(PREFIX)/include/fdtune.h
	install -m 644 db/fdtune.f90 $(PREFIX)/include/fdtune.f90
	install -m 644 db/fdtune_tuning.f90 $(PREFIX)/include/fdtune_tuning.f90
	install -m 644 $(B)/libfdtune.a $(PREFIX)/lib/libfdtune.a
	printf 'prefix=%s\nincludedir=$${prefix}/include\nlibdir=$${prefix}/lib\n\nName: fdtune\nDescription: best tuned stencil configurations from an fdtune database\nVersion: $(VERSION)\nRequires.private: sqlite3\nCflags: -I$${includedir}\nLibs: -L$${libdir} -lfdtune -lsqlite3\nLibs.private: %s\n' \
	  '$(PREFIX)' '$(ONLINE_LIBS)' > $(PREFIX)/lib/pkgconfig/fdtune.pc
	install -m 755 $(INST)/fdtune $(PREFIX)/bin/fdtune
	install -m 644 templates/*.m4 templates/*.h $(PREFIX)/share/fdtune/templates
	install -m 644 cmake/fdtuneConfig.cmake $(PREFIX)/lib/cmake/fdtune/fdtuneConfig.cmake
	sed 's/@VERSION@/$(VERSION)/' cmake/fdtuneConfigVersion.cmake.in \
	  > $(PREFIX)/lib/cmake/fdtune/fdtuneConfigVersion.cmake
	install -m 644 docs/fdtune.1 $(PREFIX)/share/man/man1/fdtune.1
	install -m 644 completion/fdtune.bash $(PREFIX)/share/bash-completion/completions/fdtune

# What install wrote, file by file (INSTALLED), then the directories of
# fdtune's own it made (share/fdtune/templates, share/fdtune,
# lib/cmake/fdtune) where they are left empty; shared directories (bin,
# include, share/man/man1, ...) stay. Builds nothing.
uninstall:
	rm -f $(addprefix $(PREFIX)/,$(INSTALLED))
	for d in share/fdtune/templates share/fdtune lib/cmake/fdtune; do \
	  [ ! -d '$(PREFIX)'/$$d ] || rmdir '$(PREFIX)'/$$d 2>/dev/null || true; done

# ---- examples/wave: a wave propagator on the exported iso3dfd kernel ----
# `make example` exports the best H100 iso3dfd R=8 fp32 kernels of
# EXAMPLE_DB into $(EX) (of every recorded size, chosen by the grid at run
# time, with an fdtune that has export --all-sizes; else the 512^3 one),
# compiles them with nvcc (else hipcc), and runs the example with
# EXAMPLE_ARGS (it says so and stops where there is no GPU).
EX = $(B)/example
EXAMPLE_DB ?= results/h100/fdtune.db
EXAMPLE_PICK ?= -f iso3dfd -r 8 --precision fp32 --device H100
EXAMPLE_ARGS ?=
NVCC ?= $(NVCC_FOUND)
HIPCC ?= $(HIPCC_FOUND)
# (not NVARCH: NVIDIA's CUDA container images set NVARCH=x86_64 in the environment)
EX_NVARCH ?= $(EX_NVARCH_FOUND)
NVCC_FOUND := $(shell command -v nvcc || { test -x $(CUDA)/bin/nvcc && echo $(CUDA)/bin/nvcc; })
HIPCC_FOUND := $(shell command -v hipcc)
EX_NVARCH_FOUND := $(shell nvidia-smi -L >/dev/null 2>&1 && echo native || echo sm_90)
GPULD = $(if $(NVCC),$(NVCC) -arch=$(EX_NVARCH),$(HIPCC))
GPUCC = $(if $(GPULD),$(GPULD) -O3 $(if $(NVCC),,-x hip))
EX_HOST = $(EX)/wave_host.o $(EX)/wave_run.o
# the fdtune of this build tree: ./fdtune, or $(B)/fdtune in another tree
# (make test-sanitize's), which must not replace ./fdtune
EX_FDTUNE = $(if $(filter build,$(B)),fdtune,$(B)/fdtune)
$(EX)/wave_k.h $(EX)/wave_k.cu $(EX)/wave_k.f90 &: $(EX_FDTUNE) $(EXAMPLE_DB)
	@mkdir -p $(EX)
	./$(EX_FDTUNE) export --db $(EXAMPLE_DB) $(EXAMPLE_PICK) --out $(EX) --name wave_k --fortran --all-sizes
$(EX)/%.o: examples/wave/%.c $(EX)/wave_k.h
	$(CC) $(CPPFLAGS) -I$(EX) -Iexamples/wave $(CFLAGS) -c -o $@ $<
comma := ,
# --online: libfdtune's online tuning, and what it links (nvcc takes -Xlinker
# where gcc and hipcc take -Wl,)
EX_LIBS = $(B)/libfdtune.a -lsqlite3 $(ONLINE_LIBS)
$(EX)/wave_dev.o: examples/wave/wave_dev.cu examples/wave/wave.h
	@mkdir -p $(EX)
	$(GPUCC) -Iexamples/wave -c -o $@ $<
$(EX)/wave_k.o: $(EX)/wave_k.cu
	$(GPUCC) -c -o $@ $<
$(EX)/wave: $(EX)/wave.o $(EX_HOST) $(EX)/wave_dev.o $(EX)/wave_k.o $(B)/libfdtune.a
	$(GPULD) -o $@ $(filter %.o,$^) $(if $(NVCC),$(subst -Wl$(comma),-Xlinker ,$(EX_LIBS)),$(EX_LIBS)) -lm
# the Fortran driver, where gfortran is: gfortran links it with the nvcc (or
# hipcc) objects and the runtime, libgfortran static so that it runs where
# gfortran is not installed
FORTRAN ?= $(FORTRAN_FOUND)
FORTRAN_FOUND := $(shell command -v gfortran || command -v gfortran-12)
FFLAGS_EX = -O2 -std=f2008 -Wall -J$(EX)
FLIBS_EX = $(if $(NVCC),-L$(dir $(NVCC))../lib64 -lcudart_static -ldl -lrt -lpthread,-L/opt/rocm/lib -Wl,-rpath,/opt/rocm/lib -lamdhip64) -lstdc++ -lm
$(EX)/wave_k_f.o: $(EX)/wave_k.f90
	$(FORTRAN) $(FFLAGS_EX) -c -o $@ $<
$(EX)/wave_f.o: examples/wave/wave.f90 $(EX)/wave_k_f.o
	$(FORTRAN) $(FFLAGS_EX) -c -o $@ $<
$(EX)/wave_f: $(EX)/wave_f.o $(EX)/wave_k_f.o $(EX)/wave_host.o $(EX)/wave_dev.o $(EX)/wave_k.o
	$(FORTRAN) -static-libgfortran -o $@ $^ $(FLIBS_EX)
example:
	@if [ -z "$(GPUCC)" ]; then echo "make example: needs nvcc (CUDA) or hipcc (ROCm); neither is here" >&2; exit 1; fi
	@$(MAKE) --no-print-directory $(EX)/wave $(if $(FORTRAN),$(EX)/wave_f)
	$(EX)/wave --out $(EX)/out $(EXAMPLE_ARGS)
# the same drivers on the CPU stepper (wave_cpu.c), for small grids and the tests
$(EX)/wave-cpu: $(EX)/wave.o $(EX_HOST) $(EX)/wave_cpu.o $(B)/libfdtune.a
	$(CC) $(CFLAGS) -o $@ $(filter %.o,$^) $(EX_LIBS) -lm
$(EX)/wave_f-cpu: $(EX)/wave_f.o $(EX)/wave_k_f.o $(EX)/wave_host.o $(EX)/wave_cpu.o
	$(FORTRAN) -fopenmp -o $@ $^ -lm
# its CPU test: the propagator on a CPU stepper, the example on a GPU
$(B)/tests/t_example.o: CPPFLAGS += -I$(EX) -Iexamples/wave
$(B)/tests/t_example.o: $(EX)/wave_k.h $(EX)/wave-cpu
$(B)/t_example: $(B)/tests/t_example.o $(B)/tests/t_util.o $(EX_HOST) $(EX)/wave_cpu.o $(B)/libfdtune.a
	$(CC) $(CFLAGS) -o $@ $(filter %.o,$^) $(EX_LIBS) -lm $(TESTLIBS)

# ---- generated kernels, in the build tree only ----
gen-all: fdtune
	./fdtune gen --all --out $(B)/kernels -r 4

# ---- tests (cmocka) ----
TESTLIBS = -lcmocka
# the slowest first (processor time: t_compile-amd some 370 s, t_cli 230,
# t_readme 210, t_compile-nvidia 160, t_pkg 70, the rest under 55 each):
# tests/run.sh starts them in this order, JOBS at a time
T_CPU = $(if $(HAVE_HIP),$(B)/t_compile-amd) $(B)/t_cli $(B)/t_readme
T_CPU += $(if $(HAVE_CUDA),$(B)/t_compile-nvidia) $(B)/t_pkg $(B)/t_shipped $(B)/t_lib
T_CPU += $(B)/t_export $(B)/t_robust $(B)/t_example $(B)/t_fortran $(B)/t_plan $(B)/t_share $(B)/t_hdata $(B)/t_energy $(B)/t_layers
T_CPU += $(B)/t_input $(B)/t_report $(B)/t_core $(B)/t_rule $(B)/t_res $(B)/t_strategy
T_CPU += $(B)/t_online $(B)/t_warm $(B)/t_cproc $(B)/t_yield $(B)/t_transfer $(B)/t_mixed $(B)/t_wave $(B)/t_db $(B)/t_source
# T_ONLY=PATTERN: each test program runs the cases that match (tests/t_only.c)
T_ONLY_O = $(B)/tests/t_only.o
$(T_CPU) $(B)/t_gpu $(B)/t_compile-nvidia $(B)/t_compile-amd: $(T_ONLY_O)
# what the tests make themselves (t_example), made before they run at once
T_MADE = $(B)/libfdtune.a $(EX)/wave-cpu $(if $(FORTRAN),$(EX)/wave_f-cpu)

$(B)/t_core: $(B)/tests/t_core.o $(CORE_O)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS) $(TESTLIBS)
$(B)/t_res: $(B)/tests/t_res.o $(B)/runtime/rt_res.o
	$(CC) $(CFLAGS) -o $@ $^ $(TESTLIBS)
$(B)/t_rule: $(B)/tests/t_rule.o $(CORE_O)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS) $(TESTLIBS)
$(B)/t_strategy: $(B)/tests/t_strategy.o $(B)/tests/t_ref.o $(CORE_O)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS) $(TESTLIBS)
$(B)/t_transfer: $(B)/tests/t_transfer.o $(B)/tests/t_rec.o $(CORE_O)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS) $(TESTLIBS)
$(B)/t_online: $(B)/tests/t_online.o $(B)/tests/t_util.o $(ONLINE_O) $(CORE_O) $(B)/db/fdt_lib.o $(B)/$(GPU)/rt.o
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS) $(if $(filter nvidia,$(GPU)),$(NV_LIBS),$(AMD_LIBS)) -lpthread $(TESTLIBS)
$(B)/t_mixed: $(B)/tests/t_mixed.o $(B)/tests/t_ref.o $(CORE_O)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS) $(TESTLIBS)
$(B)/t_wave: $(B)/tests/t_wave.o $(B)/tests/t_ref.o $(CORE_O)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS) $(TESTLIBS)
$(B)/t_db: $(B)/tests/t_db.o $(B)/tests/t_util.o $(B)/db/db.o $(B)/db/db_schema.o $(B)/db/db_record.o $(B)/db/db_fault.o $(B)/db/db_best.o $(B)/db/db_pick.o $(B)/db/db_related.o $(B)/db/db_reap.o $(B)/db/db_read.o
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS) $(TESTLIBS)
$(B)/t_source: $(B)/tests/t_source.o $(CORE_O)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS) $(TESTLIBS)
$(B)/t_lib: $(B)/tests/t_lib.o $(B)/tests/t_util.o $(CORE_O) $(B)/libfdtune.a
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS) $(TESTLIBS)
$(B)/t_fortran: $(B)/tests/t_fortran.o $(B)/tests/t_util.o $(B)/libfdtune.a
	$(CC) $(CFLAGS) -o $@ $^ -lsqlite3 -lz $(TESTLIBS)
$(B)/t_pkg: $(B)/tests/t_pkg.o $(B)/tests/t_util.o
	$(CC) $(CFLAGS) -o $@ $^ -lsqlite3 -lz $(TESTLIBS)
$(B)/t_cli: $(B)/tests/t_cli.o $(B)/tests/t_util.o
	$(CC) $(CFLAGS) -o $@ $^ -lsqlite3 -lz $(TESTLIBS)
$(B)/t_hdata: $(B)/tests/t_hdata.o $(CORE_O) $(B)/tuner/sweep/tn_hdata.o $(B)/tuner/sweep/tn_hshare.o
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS) $(TESTLIBS)

$(B)/libfake_nvml.so: tests/fake_nvml.c
	@mkdir -p $(B)
	$(CC) -std=c11 $(WARN) -O2 -shared -fPIC -o $@ $<
$(B)/tests/t_energy.o: CPPFLAGS += -DFAKE_NVML_PATH='"$(CURDIR)/$(B)/libfake_nvml.so"'
$(B)/t_energy: $(B)/tests/t_energy.o $(B)/tests/t_util.o $(B)/runtime/rt_energy.o $(B)/tuner/sweep/tn_energy.o $(CORE_O) $(B)/libfdtune.a | $(B)/libfake_nvml.so
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS) $(TESTLIBS)

# t_layers checks the objects of fdtune and libfdtune, so it is made after them
LAYER_O = $(sort $(CORE_O) $(ONLINE_O) $(filter-out $(B)/tuner/main.o,$(TOOL_O)) $(B)/$(GPU)/rt.o $(B)/db/fdt_lib.o)
$(B)/tests/t_layers.o: CPPFLAGS += -DT_LAYER_OBJS='"$(LAYER_O)"' -DT_LAYER_B='"$(B)"'
$(B)/t_layers: $(B)/tests/t_layers.o $(B)/tests/t_util.o | $(LAYER_O)
	$(CC) $(CFLAGS) -o $@ $^ -lsqlite3 $(TESTLIBS)

$(B)/t_plan: $(B)/tests/t_plan.o $(B)/tests/t_util.o $(CORE_O)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS) $(TESTLIBS)
$(B)/t_report: $(B)/tests/t_report.o $(B)/tests/t_util.o
	$(CC) $(CFLAGS) -o $@ $^ -lsqlite3 -lz $(TESTLIBS)
$(B)/t_share: $(B)/tests/t_share.o $(B)/tests/t_util.o $(B)/db/db.o $(B)/db/db_schema.o $(B)/db/db_fault.o $(B)/db/db_read.o
	$(CC) $(CFLAGS) -o $@ $^ -lsqlite3 -lz $(TESTLIBS)
$(B)/t_readme: $(B)/tests/t_readme.o $(B)/tests/t_util.o
	$(CC) $(CFLAGS) -o $@ $^ -lsqlite3 -lz $(TESTLIBS)
$(B)/t_shipped: $(B)/tests/t_shipped.o $(B)/tests/t_util.o
	$(CC) $(CFLAGS) -o $@ $^ -lsqlite3 -lz $(TESTLIBS)
$(B)/t_input: $(B)/tests/t_input.o $(B)/tests/t_util.o
	$(CC) $(CFLAGS) -o $@ $^ -lsqlite3 -lz $(TESTLIBS)
$(B)/t_robust: $(B)/tests/t_robust.o $(B)/tests/t_util.o
	$(CC) $(CFLAGS) -o $@ $^ -lsqlite3 -lz $(TESTLIBS)
$(B)/t_compile-nvidia: $(B)/tests/t_compile.o $(CORE_O) $(B)/nvidia/rt.o
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS) $(NV_LIBS) $(TESTLIBS)
$(B)/t_compile-amd: $(B)/tests/t_compile.o $(CORE_O) $(B)/amd/rt.o
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS) $(AMD_LIBS) $(TESTLIBS)
$(B)/t_export: $(B)/tests/t_export.o $(B)/tests/t_util.o $(CORE_O) $(B)/$(GPU)/rt.o
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS) $(if $(filter nvidia,$(GPU)),$(NV_LIBS),$(AMD_LIBS)) $(TESTLIBS)
$(B)/t_warm: $(B)/tests/t_warm.o $(B)/tests/t_util.o $(B)/tests/t_rec.o $(CORE_O) $(filter-out $(B)/tuner/main.o,$(TOOL_O)) $(B)/$(GPU)/rt.o
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS) $(if $(filter nvidia,$(GPU)),$(NV_LIBS),$(AMD_LIBS)) $(TESTLIBS)
$(B)/t_cproc: $(B)/tests/t_cproc.o $(CORE_O) $(filter-out $(B)/tuner/main.o,$(TOOL_O)) $(B)/$(GPU)/rt.o
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS) $(if $(filter nvidia,$(GPU)),$(NV_LIBS),$(AMD_LIBS)) $(TESTLIBS)
$(B)/t_yield: $(B)/tests/t_yield.o $(CORE_O) $(filter-out $(B)/tuner/main.o,$(TOOL_O)) $(B)/$(GPU)/rt.o
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS) $(if $(filter nvidia,$(GPU)),$(NV_LIBS),$(AMD_LIBS)) $(TESTLIBS)
$(B)/t_gpu: $(B)/tests/t_gpu.o $(B)/tests/t_util.o $(CORE_O) $(filter-out $(B)/tuner/main.o,$(TOOL_O)) $(B)/$(GPU)/rt.o
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS) $(if $(filter nvidia,$(GPU)),$(NV_LIBS),$(AMD_LIBS)) $(TESTLIBS)

# README's two commands. Each first installs what is missing (.ci/deps.sh),
# then runs make again so that the toolchains found are the ones now here.
sweep:
	@sh .ci/deps.sh
	@$(MAKE) --no-print-directory -j$$(nproc) fdtune
	@mkdir -p results
	./fdtune sweep $(ARGS)

# ---- the shipped databases (results/GPU/): fdtune.db, what users query (each
# problem's fastest records and the sources of the fastest few: fdtune
# compact), and history.db.xz, every run recorded, which replay, the README's
# figures (tests/readme.sh) and results/NOTES.md read. `make history`
# restores each history.db beside it; `make ship` (after sweeping into a
# history.db) makes fdtune.db and history.db.xz again from it.
SHIPPED = $(wildcard results/*/history.db.xz)
HISTORY = $(SHIPPED:.xz=)
history: $(HISTORY)
results/%/history.db: results/%/history.db.xz
	xz -dc $< > $@.tmp && mv $@.tmp $@
ship: fdtune
	@for h in $(HISTORY); do d=$$(dirname $$h); test -e $$h || { echo "make ship: $$h missing (make history)" >&2; exit 1; }; \
	  rm -f $$d/fdtune.db.new && ./fdtune compact --db $$h --out $$d/fdtune.db.new > $$d/compact.txt && \
	  ./fdtune codes --db $$d/fdtune.db.new --top 3 >> $$d/compact.txt && \
	  mv $$d/fdtune.db.new $$d/fdtune.db && xz -T0 -6 -c $$h > $$d/history.db.xz.tmp && \
	  mv $$d/history.db.xz.tmp $$d/history.db.xz && tail -1 $$d/compact.txt || { cat $$d/compact.txt; exit 1; }; done

# What is made from a shipped history, never committed (it would go stale):
# best.csv, ranked.csv (every record, ranked) and report/ of each GPU, into
# $(B)/results/GPU/ (the report needs gnuplot).
results-files: fdtune $(HISTORY)
	@for h in $(HISTORY); do g=$$(basename $$(dirname $$h)); o=$(B)/results/$$g; mkdir -p $$o; \
	  ./fdtune best --db $$h --csv > $$o/best.csv && ./fdtune best --db $$h --all --csv > $$o/ranked.csv && \
	  ./fdtune report --db $$h --out $$o/report >/dev/null && echo "$$o: best.csv, ranked.csv, report/" || exit 1; done

test:
	@sh .ci/deps.sh test
	@$(MAKE) --no-print-directory -j$$(nproc) check

# Every test binary runs even when an earlier one fails; the target fails
# if any did. t_gpu skips itself where there is no GPU. tests/run.sh runs
# them JOBS (the processors) at a time, slowest first (T_CPU's order); what
# they run make for is made here first, so that their makes have nothing
# to do (t_example's drivers; each install builds its own fdtune, INST).
check: fdtune $(if $(HAVE_HIP),fdtune-amd) $(T_CPU) $(B)/t_gpu $(HISTORY) $(T_MADE)
	@FDTUNE=$(CURDIR)/fdtune TEMPLATES=$(CURDIR)/templates ROOT=$(CURDIR) \
	  RESULTS_DB=$(CURDIR)/results/h100/fdtune.db HISTORY_DB=$(CURDIR)/results/h100/history.db \
	  sh tests/run.sh $(T_CPU) $(B)/t_gpu

# GPU tests only: what the device machine runs.
test-gpu: fdtune $(B)/t_gpu $(B)/t_example
	FDTUNE=$(CURDIR)/fdtune ROOT=$(CURDIR) RESULTS_DB=$(CURDIR)/results/h100/fdtune.db $(B)/t_gpu; s=$$?; \
	  ROOT=$(CURDIR) $(B)/t_example && exit $$s

# A real single-node Slurm cluster in a temporary directory runs the README's
# job-array script over a plan and its merged shards are checked (root only).
test-slurm: fdtune
	@sh .ci/deps.sh slurm
	FDTUNE=$(CURDIR)/fdtune sh tests/slurm.sh

# ---- sanitizers: fdtune, its worker process, its compile pool and the CPU
# tests built with ASan and UBSan into $(SAN)/, run by tests/run.sh. The
# tests find $(SAN)/fdtune through FDTUNE, and fdtune spawns its GPU worker from
# /proc/self/exe, so every process of a sweep is the sanitized one. Every CPU
# program runs; t_compile only its quick cases (T_COMPILE_QUICK: each family
# once, the helper kernels, an export, a broken source), since the rest of its
# time is spent in NVRTC and hiprtc, which are not instrumented but slow
# under ASan's allocator, and repeats fdtune's same code. Leaks in libraries that are not
# instrumented would be suppressed in tests/lsan.supp, each with its reason;
# fdtune's own code never is. t_gpu is left out (no GPU where CI runs).
SAN = build-san
SAN_CFLAGS = -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
SAN_ENV = T_COMPILE_QUICK=1 ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=1 \
  LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:suppressions=$(CURDIR)/tests/ubsan.supp

$(B)/fdtune: $(CORE_O) $(TOOL_O) $(B)/$(GPU)/rt.o
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS) $(if $(filter nvidia,$(GPU)),$(NV_LIBS),$(AMD_LIBS))

test-sanitize:
	@sh .ci/deps.sh test
	@CFLAGS='$(SAN_CFLAGS)' $(MAKE) --no-print-directory -j$$(nproc) B=$(SAN) $(SAN)/fdtune $(T_CPU:$(B)/%=$(SAN)/%) $(HISTORY)
	@$(MAKE) --no-print-directory -j$$(nproc) $(T_MADE)
	@$(SAN_ENV) FDTUNE=$(CURDIR)/$(SAN)/fdtune TEMPLATES=$(CURDIR)/templates ROOT=$(CURDIR) \
	  RESULTS_DB=$(CURDIR)/results/h100/fdtune.db HISTORY_DB=$(CURDIR)/results/h100/history.db \
	  FDTUNE_REPORT_DB=$(CURDIR)/results/h100/fdtune.db \
	  sh tests/run.sh $(T_CPU:$(B)/%=$(SAN)/%)

# ---- fuzzing with libFuzzer (clang): every tests/fuzz/fz_NAME.c is a target
# (a new parser to fuzz is a new file there), built into $(FZ)/fz_NAME with
# ASan and UBSan against an archive of fdtune's objects, so that a target may
# define a function in place of fdtune's own (fz_sweep does, for tn_sweep).
# `make fuzz` runs each for FUZZ_SECONDS on tests/fuzz/corpus/NAME/ (seeds and
# the regression inputs of what was found) plus what it finds in
# $(FZ)/corpus/NAME/, and fails on any crash, leak, undefined behaviour or
# hang; the input that did it is left as $(FZ)/NAME-crash-* (or leak-, timeout-).
FZ = build-fuzz
FUZZ_CC = clang
FUZZ_SECONDS = 60
FUZZ_CFLAGS = -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all \
  -std=c11 $(WARN) -Wno-unknown-pragmas
FUZZ_T = $(patsubst tests/fuzz/fz_%.c,$(FZ)/fz_%,$(wildcard tests/fuzz/fz_*.c))
FUZZ_O = $(patsubst %.c,$(FZ)/%.o,$(CORE) $(filter-out tuner/main.c,$(TOOL)) db/fdt_lib.c) $(FZ)/$(GPU)/rt.o
FUZZ_LIBS = $(LDLIBS) $(if $(filter nvidia,$(GPU)),$(NV_LIBS),$(AMD_LIBS))

$(FZ)/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<
$(FZ)/nvidia/rt.o: runtime/rt.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CPPFLAGS) $(NV_CPPFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<
$(FZ)/amd/rt.o: runtime/rt.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CPPFLAGS) $(AMD_CPPFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<
$(FZ)/db/fdt_lib.o: $(B)/db/fdt_defaults.h
$(FZ)/db/fdt_lib.o: private CPPFLAGS += -I$(B)/db
$(FZ)/tuner/online/tn_online_cmp.o: $(B)/tuner/online/tn_cmp_src.h
$(FZ)/tuner/online/tn_online_cmp.o: private CPPFLAGS += -I$(B)/tuner/online
$(FZ)/libfz.a: $(FUZZ_O)
	rm -f $@ && $(AR) rcs $@ $^
$(FZ)/fz_%: tests/fuzz/fz_%.c $(FZ)/libfz.a
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $^ $(FUZZ_LIBS)

fuzz-build: $(FUZZ_T)

fuzz:
	@sh .ci/deps.sh fuzz
	@$(MAKE) --no-print-directory -j$$(nproc) fuzz-build
	@fail=0; for t in $(FUZZ_T); do n=$${t##*/fz_}; mkdir -p $(FZ)/corpus/$$n; rm -f $(FZ)/$$n-*; \
	  echo "== $$t: $(FUZZ_SECONDS) s"; \
	  $$t -max_total_time=$(FUZZ_SECONDS) -timeout=30 -close_fd_mask=3 -print_final_stats=1 \
	    -artifact_prefix=$(FZ)/$$n- $(FZ)/corpus/$$n $$(ls -d tests/fuzz/corpus/$$n 2>/dev/null) >$(FZ)/$$n.log 2>&1; \
	  st=$$?; grep -v '^#[0-9]' $(FZ)/$$n.log | tail -n 60; \
	  [ $$st = 0 ] || { echo "$$t FAILED (exit status $$st): $$(ls $(FZ)/$$n-* 2>/dev/null)"; fail=1; }; \
	done; [ $$fail = 0 ]

deps:
	@sh .ci/deps.sh test

FORCE:

clean:
	rm -rf $(B) $(SAN) $(FZ) fdtune fdtune-nvidia fdtune-amd

.PHONY: all sweep test check test-gpu test-slurm deps clean gen-all lib install FORCE example test-sanitize fuzz fuzz-build history ship results-files uninstall
-include $(shell find $(B) -name '*.d' 2>/dev/null)
-include $(shell find $(FZ) -name '*.d' 2>/dev/null)
