---- MODULE StringOrderAZ ----
\* The same strings first seen the other way round, "aa" before "zz" (WarmTlcPoolTest).
VARIABLE s
Init == s = [aa |-> {"aa", "zz"}, zz |-> <<"aa", "zz">>]
Next == UNCHANGED s
Empty == s = [aa |-> {}, zz |-> <<>>]
====
