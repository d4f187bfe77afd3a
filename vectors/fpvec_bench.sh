#!/bin/sh
# fpvec_bench.sh OTPU_FPVEC OPS_VEC - the figures of vectors/README.md "Benchmark": the
# Verilator build time of the bench, vectors per second in file mode and in DPI mode, and
# sim/fp32.c alone. `meson compile -C build fpvec-bench` runs it. Not a test: it prints figures.
set -eu
[ $# -eq 2 ] || { echo "usage: $0 OTPU_FPVEC OPS_VEC" >&2; exit 2; }
tool=$1
ops=$2
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fpvec-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

echo "== Verilator build of the bench (empty cache, 2 jobs)"
"$tool" rtl --sv "$here/../rtl/otpu_fp.sv" --cache "$tmp/cache" --ops add --count 1 \
  >/dev/null 2>"$tmp/build.err" || { cat "$tmp/build.err" >&2; exit 1; }
grep 'built the bench' "$tmp/build.err"

echo "== file mode: $ops"
"$tool" rtl "$ops" | grep 'file mode'
echo "== file mode: a generated level-1 file"
"$tool" gen --level 1 -o "$tmp/l1.vec" 2>/dev/null
"$tool" rtl "$tmp/l1.vec" | grep 'file mode'
echo "== DPI mode: level 1"
"$tool" rtl | grep 'FPVEC rate'
echo "== DPI mode: level 2"
"$tool" rtl --level 2 | grep 'FPVEC rate'
echo "== sim/fp32.c alone: check $ops"
"$tool" check "$ops" | tail -n 1
