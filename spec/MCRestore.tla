----------------------------- MODULE MCRestore -----------------------------
(* Model constants for the restore models (Restore.tla).                  *)
EXTENDS Restore, TLC

Req2 == {"r1", "r2"}
\* r1 alone: what vLLM's own prefix cache changes needs no second request.
Req1 == {"r1"}
\* r1 restores the stored prompt; r2, of another prompt, computes from 0.
Digests == "r1" :> "d1" @@ "r2" :> "d2"
=============================================================================
