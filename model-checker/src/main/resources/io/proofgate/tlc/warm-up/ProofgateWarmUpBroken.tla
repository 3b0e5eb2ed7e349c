---- MODULE ProofgateWarmUpBroken ----
\* A module SANY refuses (WarmTlc's warm-up): an undefined name.
EXTENDS ProofgateWarmUp
ProofgateWarmUpBrokenInv == proofgateWarmUpN < proofgateWarmUpUndefined
====
