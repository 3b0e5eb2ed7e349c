---------------------------- MODULE MCAlignPool ----------------------------
(* Model constants for the align-pool models (AlignPool.tla).             *)
EXTENDS AlignPool, TLC

Req2 == <<"r1", "r2">>
\* Block size 2: r1's prompt 5 has boundaries 2 and 4, r2's prompt 3 the boundary 2.
Prompt53 == "r1" :> 5 @@ "r2" :> 3
\* Two verify steps' worth of decoding past each prompt.
Decode2 == "r1" :> 7 @@ "r2" :> 5
\* r1 decodes past its fourth block boundary (8), so that a save of r1 sits in the column past
\* r2's table in the row r2 takes.
Decode8 == "r1" :> 9 @@ "r2" :> 5
\* r1's prompt 7 (boundaries 2, 4 and 6): without drafts a chunk from 2 may run to 6, past 4.
Prompt73 == "r1" :> 7 @@ "r2" :> 3
Decode73 == "r1" :> 8 @@ "r2" :> 4
\* Blocks of 4 tokens (B = 4): r1's prompt 9 has boundaries 4 and 8, r2's prompt 5 the boundary 4.
Prompt95 == "r1" :> 9 @@ "r2" :> 5
Decode95 == "r1" :> 11 @@ "r2" :> 6
\* r2 is admitted after r1 finished: r2 still takes r1's freed blocks, with r1's saves
\* outstanding, and the two requests' steps do not interleave.
Sequential == \A i \in 2..Len(Requests) :
                  status[Requests[i]] # "waiting" => \A j \in 1..(i - 1) : status[Requests[j]] = "finished"

=====
