--------------------------- MODULE MCEveryHandoff ---------------------------
(* Model constants for the every-handoff models (EveryHandoff.tla): the    *)
(* constants of MCPublication, with vLLM's proof producer.                 *)
EXTENDS EveryHandoff, MCPublication

\* One request with a non-aligned target (prompt 8256, target 8192): its hand-offs are the
\* aligned checkpoints 2304, 4608 and 6912 and the partial tail at 8192.
ReqTail == <<"r2">>
=============================================================================
