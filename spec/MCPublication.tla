--------------------------- MODULE MCPublication ---------------------------
(* Model constants for TLC.  Every cfg in spec/ and spec/mutants/ uses this *)
(* module; a cfg picks one definition per constant with `Const <- Def`.     *)
EXTENDS Publication

\* Seed topology (protocol section 3): full + recurrent_align, 2304-token blocks.
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

\* MCValidateUntracked: r3 is untracked; every request gets exact proofs only.
UntrackedEvidence == "r1" :> {"exact"} @@ "r2" :> {"exact"} @@ "r3" :> {"exact"}
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
Sequential == \A i \in 2..Len(Requests) :
                  status[Requests[i]] # "waiting" => \A j \in 1..(i - 1) : status[Requests[j]] = "finished"
\* Generation models beside ci (one topology each): malformed entries with a boolean or a
\* string element, incomplete and duplicate proofs over two recurrent groups, and r2's null
\* first table block (invalid_selection).  Sequential generalises to any number of requests.
GenTwoRecEvidence == "r1" :> {"exact", "exact_mixed", "incomplete", "incomplete_last", "duplicate",
                              "malformed_bool", "malformed_text"}
                     @@ "r2" :> {"exact"}
\* Generation model gen-untracked: r1 (prompt 1000, target 768) below min_span_tokens and r2
\* (target 8192) above max_span_tokens 6912, so neither is ever tracked; vLLM may send each an
\* exact proof or an empty list (SentKinds), which the connector must not read.
PromptUntracked == "r1" :> 1000 @@ "r2" :> 8256
AbsentOnly == {"absent"}
\* gen-attention: the field may also be a string, which a topology without recurrent groups never reads.
AbsentOrText == {"absent", "text"}
LiveFields == {"absent", "mapping"}
AllFields == {"absent", "null", "text", "mapping"}
NoFaults == "r1" :> "none" @@ "r2" :> "none" @@ "r3" :> "none" @@ "r4" :> "none"
NullTableR2 == [NoFaults EXCEPT !["r2"] = "null"]
\* Generation model gen-shapes: every JSON kind where evidence may hold one, a group id at
\* 2^31-1 and at -1, and r2's table repeating a block (invalid_selection repeated_block).
ShapesEvidence == "r1" :> {"exact", "notalist_bool", "notalist_int", "notalist_number",
                           "notalist_mapping", "malformed_null", "malformed_first", "malformed_last",
                           "malformed_long", "future_second", "unknown_max", "unknown_negative"}
                  @@ "r2" :> {"exact"}
WideFields == {"absent", "true", "int", "number", "list", "mapping"}
RepeatR2 == [NoFaults EXCEPT !["r2"] = "repeat"]
\* Generation model gen-bounds (full + sliding): r1 at exactly max_span_tokens with group 1
\* sharing group 0's blocks, r2 above max_span_tokens, r3 (prompt 1024, target 768) below
\* min_span_tokens, r4 (prompt 1025, target 1024) at exactly min_span_tokens with a short table.
Req4 == <<"r1", "r2", "r3", "r4">>
Digest4 == "r1" :> "d1" @@ "r2" :> "d1" @@ "r3" :> "d1" @@ "r4" :> "d1"
Prompt4 == "r1" :> 6992 @@ "r2" :> 8256 @@ "r3" :> 1024 @@ "r4" :> 1025
BoundsEvidence == [r \in {"r1", "r2", "r3", "r4"} |-> {}]
BoundsFaults == [NoFaults EXCEPT !["r1"] = "shared", !["r4"] = "short"]
\* Two chunk stops, so that a cached step ends below the target.
TwoChunkStops == {2304, 4608}
Unbounded == 1000000
\* Generation model gen-edges: the values where a rule's boundary is, each once.  Topology full +
\* recurrent_align + sliding (window 6912; after the recurrent group, whose one selected block
\* is fewer than group 0's); r1 (prompt 6992, target 6912 = the window) gets a
\* duplicate after an intermediate entry, the same exact entry twice and an intermediate entry
\* naming block 1, and its group-0 table holds block 1 then a null block; r2 (prompt 1500,
\* target 1280: one full block, not aligned) has block 1 first in its table; the whole field
\* may be the empty mapping {}.
TopoWindow == << [policy |-> "full", block_tokens |-> 2304, window_tokens |-> 0],
                 [policy |-> "recurrent_align", block_tokens |-> 2304, window_tokens |-> 0],
                 [policy |-> "sliding", block_tokens |-> 2304, window_tokens |-> 6912] >>
PromptEdges == "r1" :> 6992 @@ "r2" :> 1500
EdgesEvidence == "r1" :> {"exact", "duplicate_same", "duplicate_late", "intermediate_block1"} @@ "r2" :> {"exact"}
EdgesFields == {"absent", "object", "mapping"}
EdgesFaults == [NoFaults EXCEPT !["r1"] = "lownull", !["r2"] = "lowid"]
\* Generation model gen-batch: two requests in one step (new and cached together), pending at
\* once, two ranks reporting in any order (rank 1 alone is not full quorum);
\* one digest; r3 is never scheduled (ThirdWaits): it is there so that a step of two leaves a
\* request out (another request's key).
BatchEvidence == "r1" :> {"exact"} @@ "r2" :> {"exact", "empty"} @@ "r3" :> {"exact"}
DigestBatch == "r1" :> "d1" @@ "r2" :> "d1" @@ "r3" :> "d1"
PromptBatch == "r1" :> 6992 @@ "r2" :> 6992 @@ "r3" :> 1000
MappingOnly == {"mapping"}
ThirdWaits == status["r3"] = "waiting"
\* gen-batch's fields: also an empty list keyed by a request the step does not schedule.
BatchFields == {"mapping", "other_empty"}
AnyOrder == TRUE
\* Generation model gen-selection: every cell of plan block selection (generated-tests/COVERAGE.md,
\* "Plan block selection"): a full group, a recurrent group and seven sliding groups whose windows
\* are shorter than, equal to and longer than the targets, multiples of the block size or not; r1
\* (target 6912, aligned), r2 (8192) and r3 (prompt 6912, target 6656: a decode token takes its
\* table one block past the selection) with whole tables, then one request per group and target
\* whose table is one block short in that group alone (r4-r9 at 6912, r10-r15 at 8192).  One
\* request per behaviour (AdmitAlone, in any order), so each scenario is about one request.
TopoSelection == << [policy |-> "full", block_tokens |-> 2304, window_tokens |-> 0],
                    [policy |-> "recurrent_align", block_tokens |-> 2304, window_tokens |-> 0],
                    [policy |-> "sliding", block_tokens |-> 2304, window_tokens |-> 2304],
                    [policy |-> "sliding", block_tokens |-> 2304, window_tokens |-> 4096],
                    [policy |-> "sliding", block_tokens |-> 2304, window_tokens |-> 6656],
                    [policy |-> "sliding", block_tokens |-> 2304, window_tokens |-> 6912],
                    [policy |-> "sliding", block_tokens |-> 2304, window_tokens |-> 8192],
                    [policy |-> "sliding", block_tokens |-> 2304, window_tokens |-> 9216],
                    [policy |-> "sliding", block_tokens |-> 2304, window_tokens |-> 10000] >>
ReqSelection == [i \in 1..15 |-> "r" \o ToString(i)]
SelIds == {ReqSelection[i] : i \in 1..15}
DigestSelection == [r \in SelIds |-> "d1"]
\* The group each short request is short in (none for r1-r3).
SelShort == "r4" :> 0 @@ "r5" :> 2 @@ "r6" :> 3 @@ "r7" :> 5 @@ "r8" :> 6 @@ "r9" :> 7
            @@ "r10" :> 0 @@ "r11" :> 2 @@ "r12" :> 3 @@ "r13" :> 6 @@ "r14" :> 7 @@ "r15" :> 8
PromptSelection == [r \in SelIds |->
                      CASE r \in {"r1", "r4", "r5", "r6", "r7", "r8", "r9"} -> 6992
                        [] r = "r3" -> 6912
                        [] OTHER -> 8256]
FaultSelection == [r \in SelIds |-> IF r \in DOMAIN SelShort THEN "short" ELSE "none"]
ShortSelection(r) == IF r \in DOMAIN SelShort THEN {SelShort[r]} ELSE {}
ExactOnly == [r \in SelIds |-> {"exact"}]
\* Admission only while no request has started: one request per behaviour, in any order.
AdmitAlone(r) == \A x \in Req : status[x] = "waiting"
\* Generation model gen-restore: full (4096-token blocks, so a load's end is rounded up), sliding
\* (window 4096) and two recurrent groups (2304-token blocks, the grid).  r1 (prompt 6992, target
\* 6912, on the grid) publishes; r2, r3 and r4 share its digest and are looked up before they are
\* admitted: r2 (prompt 6912) is refused, its prompt ending where r1's prefix does (the last token
\* would be applied twice), and publishes 6656; r3 (8000) restores 6912 beyond the 4608 tokens
\* vLLM's own prefix cache holds, and publishes 7936; r4 (9000) restores 6912, not the longer
\* 7936 off the grid, into a table with block 1 and a null block.
TopoRestore == << [policy |-> "full", block_tokens |-> 4096, window_tokens |-> 0],
                  [policy |-> "sliding", block_tokens |-> 2304, window_tokens |-> 4096],
                  [policy |-> "recurrent_align", block_tokens |-> 2304, window_tokens |-> 0],
                  [policy |-> "recurrent_align", block_tokens |-> 2304, window_tokens |-> 0] >>
PromptRestore == "r1" :> 6992 @@ "r2" :> 6912 @@ "r3" :> 8000 @@ "r4" :> 9000
RestoreEvidence == [r \in {"r1", "r2", "r3", "r4"} |-> {"exact"}]
LookedUpRestore == {"r2", "r3", "r4"}
OwnHitRestore(r) == IF r = "r3" THEN 4608 ELSE 0
\* No rank reports in gen-restore: a hit does not depend on quorum, and quorum's paths, which every
\* other generation model has, would multiply its states four times over.
NoRanksHold == FALSE
RestoreFaults == [NoFaults EXCEPT !["r4"] = "lownull"]
\* Generation model gen-restore-checkpoints: the store holds two checkpoints of one prefix.  r1
\* (target 4608) and r2 (target 6912) publish d1 at two boundaries of the recurrent grid, one after
\* the other; r3 is looked up once r2 is admitted: while r2's proof is latched and not yet
\* published (the hit is r1's 4608, never the latched 6912), or once both are published (the hit
\* and the load are the longest, 6912: restore row 5).  r2's tables list their blocks out of order.
PromptCheckpoints == "r1" :> 4700 @@ "r2" :> 6992 @@ "r3" :> 8000
DigestCheckpoints == "r1" :> "d1" @@ "r2" :> "d1" @@ "r3" :> "d1"
CheckpointsEvidence == [r \in {"r1", "r2", "r3"} |-> {"exact"}]
LookedUpCheckpoints == {"r3"}
CheckpointsFaults == [NoFaults EXCEPT !["r2"] = "unordered"]
=============================================================================
