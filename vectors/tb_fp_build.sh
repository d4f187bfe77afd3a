#!/bin/sh
# tb_fp_build.sh OUT OBJDIR OTPU_FP_SV [JOBS] - Verilate and compile the tb_fp bench around the
# package otpu_fp of OTPU_FP_SV (the project's rtl/otpu_fp.sv or any file defining that package),
# in OBJDIR (kept: a rebuild with unchanged sources is a no-op), and copy the binary to OUT.
# The meson build (vectors/meson.build) and `otpu-fpvec rtl --sv` both use it. The bench links
# the C side of its DPI batch mode: vectors/fpvec.c and sim/fp32.c (compiled here with CC).
# VERILATOR and CC override the commands; JOBS (default 2) caps the parallel C++ compiles.
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
sim=$(cd "$here/../sim" && pwd)
mkdir -p "$obj"
obj=$(cd "$obj" && pwd)
log=$obj/build.log
: >"$log"
for c in "$here/fpvec.c" "$sim/fp32.c"; do
  o=$obj/c_$(basename "$c" .c).o
  if ! ${CC:-cc} -std=c11 -O2 -D_GNU_SOURCE -I"$here" -I"$sim" -c "$c" -o "$o" >>"$log" 2>&1; then
    cat "$log" >&2
    echo "tb_fp_build: cannot compile $c (log: $log)" >&2
    exit 1
  fi
done
# -Wno-fatal: a user's otpu_fp.sv need not be lint-clean here (the project's file has its own
# -Wall lint test). Verilator's own optimizations stay at their defaults.
if ! ${VERILATOR:-verilator} --cc --exe --build -j "$jobs" -Wno-fatal --top-module tb_fp \
    -Mdir "$obj" -o tb_fp -CFLAGS "-I$here -I$sim" -LDFLAGS "$obj/c_fpvec.o $obj/c_fp32.o" \
    "$fp" "$here/otpu_fp_vec.sv" "$here/tb_fp.sv" \
    "$here/tb_fp_main.cpp" "$here/tb_fp_hostref.cpp" "$here/fpvec_dpi.cpp" >>"$log" 2>&1; then
  cat "$log" >&2
  echo "tb_fp_build: verilator build failed (log: $log)" >&2
  exit 1
fi
grep '%Warning' "$log" >&2 || true
cp "$obj/tb_fp" "$out.tmp"
mv "$out.tmp" "$out"
