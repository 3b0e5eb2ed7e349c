---- MODULE ProofgateStateBound ----
\* A state bound over the warm-up model, as StateBound writes one (WarmTlc's warm-up).
EXTENDS ProofgateWarmUp
LOCAL INSTANCE TLC
ProofgateStateBound == TLCGet("distinct") <= 20
====
