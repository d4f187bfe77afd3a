#!/bin/sh
# tb_fp_build.sh OUT OBJDIR OTPU_FP_SV [JOBS] - Verilate and compile the tb_fp bench around the
# package otpu_fp of OTPU_FP_SV (the project's rtl/otpu_fp.sv or any file defining that package),
# in OBJDIR (kept: a rebuild with unchanged sources is a no-op), and copy the binary to OUT.
# The meson build (vectors/meson.build) and tb_fp_run.sh both use it. VERILATOR overrides the
# verilator command; JOBS (default 2) caps the parallel C++ compiles.
set -eu
if [ $# -lt 3 ]; then
  echo "usage: $0 OUT OBJDIR OTPU_FP_SV [JOBS]" >&2
  exit 2
fi
out=$1
obj=$2
fp=$3
jobs=${4:-2}
here=$(cd "$(dirname "$0")" && pwd)
if [ ! -r "$fp" ]; then
  echo "tb_fp_build: cannot read $fp" >&2
  exit 2
fi
fp=$(cd "$(dirname "$fp")" && pwd)/$(basename "$fp")
mkdir -p "$obj"
log=$obj/build.log
# -Wno-fatal: a user's otpu_fp.sv need not be lint-clean here (the project's file has its own
# -Wall lint test). Verilator's own optimizations stay at their defaults.
if ! ${VERILATOR:-verilator} --cc --exe --build -j "$jobs" -Wno-fatal --top-module tb_fp \
    -Mdir "$obj" -o tb_fp -CFLAGS "-I$here" \
    "$fp" "$here/otpu_fp_vec.sv" "$here/tb_fp.sv" \
    "$here/tb_fp_main.cpp" "$here/tb_fp_hostref.cpp" >"$log" 2>&1; then
  cat "$log" >&2
  echo "tb_fp_build: verilator build failed (log: $log)" >&2
  exit 1
fi
grep '%Warning' "$log" >&2 || true
cp "$obj/tb_fp" "$out.tmp"
mv "$out.tmp" "$out"
