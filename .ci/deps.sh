#!/bin/sh
# deps.sh: makes sure what fdtune needs to build is installed; with "test",
# also what its tests need. On Debian and Ubuntu it installs what is missing
# with apt-get (as root, or through sudo); elsewhere it names the packages.
#   sh .ci/deps.sh          build: C compiler, make, m4, SQLite headers, and a
#                           GPU compiler (CUDA's NVRTC or ROCm's hiprtc)
#   sh .ci/deps.sh test     also cmocka, sqlite3, gnuplot (fdtune report's
#                           tests), gfortran and cmake (the Fortran
#                           modules' and CMake package's tests), bash and
#                           groff-base (the completion's and man page's
#                           tests), and ROCm's
#                           hiprtc and hipcc so that generated and exported
#                           kernels are compile-tested for AMD as well as
#                           NVIDIA
#   sh .ci/deps.sh slurm    also Slurm and munge, for make test-slurm
#   sh .ci/deps.sh fuzz     clang and libFuzzer's runtime (make fuzz; Debian
#                           ships libFuzzer in libclang-rt-14-dev, which clang
#                           only recommends)
set -eu
want=""
have_hdr() { for d in /usr/include /usr/local/include /opt/rocm/include "${CUDA:-/usr/local/cuda}/include"; do
	[ -e "$d/$1" ] && return 0; done; return 1; }
command -v cc >/dev/null 2>&1 || want="$want gcc"
command -v make >/dev/null 2>&1 || want="$want make"
command -v m4 >/dev/null 2>&1 || want="$want m4"
have_hdr sqlite3.h || want="$want libsqlite3-dev"
have_hdr zlib.h || want="$want zlib1g-dev"
if [ "${1:-}" = test ]; then
	have_hdr cmocka.h || want="$want libcmocka-dev"
	have_hdr hip/hiprtc.h || want="$want libamdhip64-dev libhiprtc-builtins5"
	command -v hipcc >/dev/null 2>&1 || want="$want hipcc"
	command -v sqlite3 >/dev/null 2>&1 || want="$want sqlite3"
	command -v gnuplot >/dev/null 2>&1 || want="$want gnuplot-nox"
	command -v pkg-config >/dev/null 2>&1 || want="$want pkg-config"
	command -v gfortran >/dev/null 2>&1 || want="$want gfortran"
	command -v cmake >/dev/null 2>&1 || want="$want cmake"
	command -v bash >/dev/null 2>&1 || want="$want bash"
	command -v groff >/dev/null 2>&1 || command -v nroff >/dev/null 2>&1 || want="$want groff-base"
elif [ "${1:-}" = slurm ]; then
	PATH=$PATH:/usr/sbin:/sbin
	command -v slurmctld >/dev/null 2>&1 || want="$want slurm-wlm"
	command -v munged >/dev/null 2>&1 || want="$want munge"
	command -v sqlite3 >/dev/null 2>&1 || want="$want sqlite3"
elif [ "${1:-}" = fuzz ]; then
	command -v clang >/dev/null 2>&1 || want="$want clang"
	command -v clang >/dev/null 2>&1 && [ -e "$(clang -print-resource-dir)/lib/linux/libclang_rt.fuzzer-$(uname -m).a" ] ||
		want="$want libclang-rt-14-dev"
fi
if [ "${1:-}" != test ] && [ "${1:-}" != fuzz ] && ! have_hdr nvrtc.h && ! have_hdr hip/hiprtc.h; then
	want="$want libamdhip64-dev libhiprtc-builtins5"
fi
[ -z "$want" ] && exit 0
echo "fdtune: installing:$want"
if ! command -v apt-get >/dev/null 2>&1; then
	echo "fdtune: no apt-get here; install these packages (or your system's equivalents):$want" >&2
	exit 1
fi
sudo=""
if [ "$(id -u)" != 0 ]; then
	command -v sudo >/dev/null 2>&1 || { echo "fdtune: run as root, or install:$want" >&2; exit 1; }
	sudo=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
# shellcheck disable=SC2086
$sudo apt-get install -y -qq --no-install-recommends $want
