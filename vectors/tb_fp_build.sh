#!/bin/sh
# tb_fp_build.sh OUT OBJDIR OTPU_FP_SV [JOBS [DEFINE...]] - Verilate and compile the tb_fp bench
# around the package otpu_fp of OTPU_FP_SV (the project's rtl/otpu_fp.sv or any file defining
# that package), in OBJDIR (kept: a rebuild with unchanged sources is a no-op), and copy the
# binary to OUT. The meson build (vectors/meson.build) and `otpu-fpvec rtl --sv` both use it.
# The bench links the C side of its DPI modes: vectors/fpvec.c, fpvec_exh.c and sim/fp32.c,
# revision.c, isa.c, isa_table.c, isa_fields.c (compiled here with CC). VERILATOR and CC override
# the commands; JOBS (default 2) caps the parallel C++ compiles; each DEFINE (OTPU_FP_NO_LOG2,
# OTPU_FP_NO_MM: an older revision's otpu_fp, otpu_fp_vec.sv) is defined for Verilator.
set -eu
[ $# -ge 3 ] || { echo "usage: $0 OUT OBJDIR OTPU_FP_SV [JOBS [DEFINE...]]" >&2; exit 2; }
out=$1
obj=$2
fp=$3
jobs=${4:-2}
shift $(( $# < 4 ? $# : 4 ))
defines=
for d in "$@"; do
  defines="$defines +define+$d"
done
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
objs=
for c in "$here/fpvec.c" "$here/fpvec_exh.c" "$sim/fp32.c" "$sim/revision.c" "$sim/isa.c" \
    "$sim/isa_table.c" "$sim/isa_fields.c"; do
  o=$obj/c_$(basename "$c" .c).o
  objs="$objs $o"
  if ! ${CC:-cc} -std=c11 -O2 -D_GNU_SOURCE -I"$here" -I"$sim" -c "$c" -o "$o" >>"$log" 2>&1; then
    cat "$log" >&2
    echo "tb_fp_build: cannot compile $c (log: $log)" >&2
    exit 1
  fi
done
# A kept OBJDIR's dependency file that names a file since renamed or removed would stop make
# ("No rule to make target"): forget it and its object, which are then built again.
for d in "$obj"/*.d; do
  [ -f "$d" ] || continue
  for f in $(sed -e 's/\\$//' -e 's/^[^:]*://' "$d"); do
    case $f in /*) ;; *) f=$obj/$f ;; esac  # (make runs in OBJDIR)
    if [ ! -e "$f" ]; then
      rm -f "$d" "${d%.d}.o"
      break
    fi
  done
done
# -Wno-fatal: a user's otpu_fp.sv need not be lint-clean here (the project's file has its own
# -Wall lint test). Verilator's own optimizations stay at their defaults.
# shellcheck disable=SC2086 # (each define a word of its own)
if ! ${VERILATOR:-verilator} --cc --exe --build -j "$jobs" -Wno-fatal --top-module tb_fp $defines \
    -Mdir "$obj" -o tb_fp -CFLAGS "-I$here -I$sim" \
    -LDFLAGS "${objs# }" \
    "$fp" "$here/otpu_fp_vec.sv" "$here/tb_fp.sv" \
    "$here/tb_fp_main.cpp" "$here/tb_fp_hostref.cpp" "$here/fpvec_dpi.cpp" \
    "$here/fpvec_exh_dpi.cpp" >>"$log" 2>&1; then
  cat "$log" >&2
  echo "tb_fp_build: verilator build failed (log: $log)" >&2
  exit 1
fi
grep '%Warning' "$log" >&2 || true
cp "$obj/tb_fp" "$out.tmp"
mv "$out.tmp" "$out"
