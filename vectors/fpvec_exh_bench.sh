#!/bin/sh
# fpvec_exh_bench.sh OTPU_FPVEC [LO:HI] - inputs per second of `otpu-fpvec exhaustive`, per
# function, on one core (-j 1) and on all of them (-j NCPU), over LO:HI (default 2^25 normal
# inputs, 0x3f000000:0x41000000: 0.5 to 8), on the project's otpu_fp.sv, and the projected wall
# time of every input (2^32) of that function at the all-cores rate. `meson compile -C build
# fpvec-exhaustive-bench` runs it. Not a test: it prints figures (vectors/README.md).
set -eu
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: $0 OTPU_FPVEC [LO:HI]" >&2
  exit 2
fi
tool=$1
range=${2:-0x3f000000:0x41000000}
ncpu=$(getconf _NPROCESSORS_ONLN)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fpvec-exh-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

# the rate of the verdict line: "... mismatches in S s (R inputs/s, ...)"
rate() {
  "$tool" exhaustive "$1" --range "$range" -j "$2" --progress 0 --json "$tmp/r.json" \
    | sed -n 's/.* in \([0-9.]*\) s (\([0-9.e+]*\) inputs\/s.*/\2/p'
}

echo "range $range, $ncpu CPUs, load $(cut -d' ' -f1 /proc/loadavg)"
printf '%-6s %16s %16s %22s\n' func "1 core (/s)" "$ncpu cores (/s)" "2^32 inputs at that"
for f in exp2 recip rsqrt i2f q8 abs log2; do
  one=$(rate "$f" 1)
  all=$(rate "$f" "$ncpu")
  proj=$(awk -v r="$all" 'BEGIN { s = 4294967296 / r; printf "%dm%02ds", s / 60, s % 60 }')
  printf '%-6s %16s %16s %22s\n' "$f" "$one" "$all" "$proj"
done
