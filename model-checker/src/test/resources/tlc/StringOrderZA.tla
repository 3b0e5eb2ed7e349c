---- MODULE StringOrderZA ----
\* TLC orders strings by when it first saw them: here "zz" before "aa" (WarmTlcPoolTest).
VARIABLE s
Init == s = [zz |-> {"zz", "aa"}, aa |-> <<"zz", "aa">>]
Next == UNCHANGED s
Empty == s = [zz |-> {}, aa |-> <<>>]
====
