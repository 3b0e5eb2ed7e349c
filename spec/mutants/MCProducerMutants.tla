------------------------- MODULE MCProducerMutants -------------------------
(* Broken rules of vLLM's proof producer (Producer.tla).  Each cfg in this  *)
(* folder named MCProducer*.cfg overrides one rule of Publication's        *)
(* producer section with one of these and names the invariant TLC must     *)
(* report violated (spec/models.json); the same edits are named mistakes   *)
(* in spec/mistakes.json.                                                  *)
EXTENDS MCProducer

\* The crossing producer: a cache_blocks call that runs past a boundary is taken to produce it
\* (the producer's rule for a while; its running block holds the state past the boundary).
MutantCrossingProducesBoundary(d0, d1, bd) == d0 < bd /\ bd <= d1

\* The partial tail handed over in the step that produces it, before the copy is made.
MutantTailHandedBeforeCopy(produced, now) == now

\* The partial tail proven from the request table's running block instead of the copy target.
MutantTailFromTableSlot(g, d) == NBlocks(g, d)
=============================================================================
