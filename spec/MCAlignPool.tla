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
\* r2 is admitted after r1 finished: r2 still takes r1's freed blocks, with r1's saves
\* outstanding, and the two requests' steps do not interleave.
Sequential == \A i \in 2..Len(Requests) :
                  status[Requests[i]] # "waiting" => \A j \in 1..(i - 1) : status[Requests[j]] = "finished"

=====
