# What the shallot-cli test scripts share (sourced): `check NAME COMMAND...` prints ok or
# FAIL for the command's status and remembers a failure in $fail (each script exits with
# it); `contains TEXT PATTERN` greps TEXT for PATTERN.
fail=0
check() { # check NAME CONDITION-COMMAND...
  local name="$1"; shift
  if "$@"; then echo "ok   $name"; else echo "FAIL $name"; fail=1; fi
}
contains() { grep -q -- "$2" <<<"$1"; }
