# bench_common.sh - what the bench shell scripts share (sourced): --help printed from the
# script's header comment, options refused, counts from the environment checked.

# bench_args NAME "$@": exits 0 after the help on -h/--help, 2 on any other option
bench_args() {
  local me=$1
  shift
  for a in "$@"; do
    case $a in
      -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
                 exit 0 ;;
      -*) echo "$me: unknown option '$a' (see --help)" >&2; exit 2 ;;
    esac
  done
}

# bench_count NAME VAR VALUE: VALUE must be a count from 1 to 99999, else exit 2
bench_count() {
  [[ $3 =~ ^[1-9][0-9]{0,4}$ ]] ||
    { echo "$1: $2 must be a count from 1 to 99999, not '$3'" >&2; exit 2; }
}
