---------------------------- MODULE MCProducer ----------------------------
(* Model constants for the models of vLLM's proof producer (Producer.tla):  *)
(* the constants of MCPublication, with Producer's environment.             *)
EXTENDS Producer, MCPublication
=============================================================================
