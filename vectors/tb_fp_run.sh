#!/bin/sh
# tb_fp_run.sh - build (if needed) and run the tb_fp vector bench for an otpu_fp.sv of your choice.
#
#   vectors/tb_fp_run.sh [--fp OTPU_FP_SV] [--obj DIR] [--jobs N] VECFILE [+show=N]
#   vectors/tb_fp_run.sh [--fp OTPU_FP_SV] ... +vec=VECFILE | +hostref=N [+seed=S]
#
# --fp    the file defining package otpu_fp (default: the project's rtl/otpu_fp.sv); e.g.
#         openTPU's rtl/vpu/otpu_fp.sv
# --obj   Verilator work folder (default: .cache/tb_fp/<checksum of the --fp path> in the
#         source tree); kept between runs, so only changed sources are rebuilt
# --jobs  parallel C++ compiles (default 2)
# Exit status: the bench's (0 all vectors match, 1 mismatches, 2 bad input), or 1 if the
# build fails.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
fp=$root/rtl/otpu_fp.sv
obj=
jobs=2
while [ $# -gt 0 ]; do
  case $1 in
    --fp) fp=$2; shift 2 ;;
    --fp=*) fp=${1#--fp=}; shift ;;
    --obj) obj=$2; shift 2 ;;
    --obj=*) obj=${1#--obj=}; shift ;;
    --jobs) jobs=$2; shift 2 ;;
    --jobs=*) jobs=${1#--jobs=}; shift ;;
    -h|--help) sed -n '2,/^set /p' "$0" | grep '^#' | sed 's/^# \{0,1\}//'; exit 0 ;;
    --) shift; break ;;
    *) break ;;
  esac
done
if [ ! -r "$fp" ]; then
  echo "tb_fp_run: cannot read $fp" >&2
  exit 2
fi
fp=$(cd "$(dirname "$fp")" && pwd)/$(basename "$fp")
if [ -z "$obj" ]; then
  obj=$root/.cache/tb_fp/$(printf '%s' "$fp" | cksum | cut -d' ' -f1)
fi
"$here/tb_fp_build.sh" "$obj/tb_fp.bin" "$obj" "$fp" "$jobs" || exit 1
# A bare argument is the vector file.
n=$#
i=0
while [ $i -lt $n ]; do
  a=$1
  shift
  case $a in
    +*) set -- "$@" "$a" ;;
    *) set -- "$@" "+vec=$a" ;;
  esac
  i=$((i + 1))
done
exec "$obj/tb_fp.bin" "$@"
