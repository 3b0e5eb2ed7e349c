--------------------------- MODULE MCPublication ---------------------------
(* Model constants for TLC.  Every cfg in spec/ and spec/mutants/ uses this *)
(* module; a cfg picks one definition per constant with `Const <- Def`.     *)
EXTENDS Publication

\* Seed topology (DESIGN section 3): full + recurrent_align, 2304-token blocks.
TopoSeed == << [policy |-> "full", block_tokens |-> 2304, window_tokens |-> 0],
               [policy |-> "recurrent_align", block_tokens |-> 2304, window_tokens |-> 0] >>
\* Seed topology with a second recurrent group (incomplete proof is reachable).
TopoTwoRec == TopoSeed \o
             << [policy |-> "recurrent_align", block_tokens |-> 2304, window_tokens |-> 0] >>
\* Deep topology: full, sliding (4096-token window), two recurrent groups.
TopoDeep == << [policy |-> "full", block_tokens |-> 2304, window_tokens |-> 0],
               [policy |-> "sliding", block_tokens |-> 2304, window_tokens |-> 4096],
               [policy |-> "recurrent_align", block_tokens |-> 2304, window_tokens |-> 0],
               [policy |-> "recurrent_align", block_tokens |-> 2304, window_tokens |-> 0] >>
\* Attention only: no recurrent groups (publishes on the new-request step).
TopoAttention == << [policy |-> "full", block_tokens |-> 2304, window_tokens |-> 0],
                    [policy |-> "sliding", block_tokens |-> 2304, window_tokens |-> 4096] >>

\* r1: prompt 6992, target 6912 (aligned); r2: prompt 8256, target 8192 (non-aligned).
Req2 == <<"r1", "r2">>
Req3 == <<"r1", "r2", "r3">>
Digest1 == "r1" :> "d1" @@ "r2" :> "d1"
Digest3 == "r1" :> "d1" @@ "r2" :> "d1" @@ "r3" :> "d2"
Prompt2 == "r1" :> 6992 @@ "r2" :> 8256
\* r3: prompt 1000, target 768 < min_span_tokens 1024: never tracked.
Prompt3 == "r1" :> 6992 @@ "r2" :> 8256 @@ "r3" :> 1000
PromptAligned == "r1" :> 6992 @@ "r2" :> 6992

AllKinds == {"null", "notalist", "empty", "malformed", "malformed_bool", "malformed_text",
             "unknown", "nonrecurrent", "nullblock", "future", "intermediate", "exact",
             "exact_alt", "incomplete", "duplicate", "chunked"}
CiKinds == AllKinds \ {"malformed_bool", "malformed_text"}
ProofKinds == {"exact", "exact_alt", "intermediate", "chunked"}
\* ci: r1 gets every evidence kind, r2 (non-aligned) intermediate and exact proofs.
CiEvidence == "r1" :> CiKinds @@ "r2" :> {"exact", "intermediate"}
\* Reachability: r1 everything, r2 (null first table block) exact proofs only.
ReachEvidence == "r1" :> AllKinds @@ "r2" :> {"exact", "intermediate"}
\* Liveness: well-formed evidence only.
LiveEvidence == "r1" :> {"exact", "intermediate"} @@ "r2" :> {"exact"}
\* Deep: r1 and r2 every kind, r3 (untracked) exact only.
DeepEvidence == "r1" :> AllKinds @@ "r2" :> AllKinds @@ "r3" :> {"exact"}
\* ci (generation): r1 every evidence kind, r2 (non-aligned, sharing r1's digest) exact proofs.
GenEvidence == "r1" :> CiKinds @@ "r2" :> {"exact"}
\* ci's state constraint: r2 is admitted only after r1 finished.  Each state records the event
\* that led to it, so interleaving two pending requests multiplies the edges that the generated
\* tests must cover (MCPublicationInterleaved.cfg checks the interleavings without tests).
Sequential == status["r2"] # "waiting" => status["r1"] = "finished"
\* Generation models beside ci (one topology each): malformed entries with a boolean or a
\* string element, incomplete and duplicate proofs over two recurrent groups, and r2's null
\* first table block (invalid_selection).
GenTwoRecEvidence == "r1" :> {"exact", "incomplete", "duplicate", "malformed_bool", "malformed_text"}
                     @@ "r2" :> {"exact"}
AbsentOnly == {"absent"}
LiveFields == {"absent", "mapping"}
AllFields == {"absent", "null", "text", "mapping"}
NoNullTable == {}
NullTableR2 == {"r2"}
Unbounded == 1000000
=============================================================================
