---- MODULE ProofgateWarmUp ----
\* What a warm TLC child runs before its first request (WarmTlc): the kinds of values, operators,
\* config entries and endings the project's models use, so that TLC's classes are loaded and
\* initialised before the child takes its picture of TLC's static state. Every name is prefixed,
\* so that none of it comes before a model's own strings in TLC's order of strings.
EXTENDS Integers, Sequences, FiniteSets, TLC

CONSTANTS ProofgateWarmUpA, ProofgateWarmUpB, ProofgateWarmUpPeers, ProofgateWarmUpLimit

VARIABLES proofgateWarmUpN, proofgateWarmUpLog, proofgateWarmUpRec, proofgateWarmUpFn

proofgateWarmUpVars == <<proofgateWarmUpN, proofgateWarmUpLog, proofgateWarmUpRec, proofgateWarmUpFn>>

ProofgateWarmUpKinds == {"proofgateWarmUpText", "proofgateWarmUpOther"}

ProofgateWarmUpInit ==
    /\ proofgateWarmUpN = 0
    /\ proofgateWarmUpLog = <<>>
    /\ proofgateWarmUpRec = [proofgateWarmUpKind |-> "proofgateWarmUpText", proofgateWarmUpPeer |-> ProofgateWarmUpA,
                             proofgateWarmUpOk |-> TRUE]
    /\ proofgateWarmUpFn = [proofgateWarmUpP \in ProofgateWarmUpPeers |-> {}]

ProofgateWarmUpStep(proofgateWarmUpP) ==
    LET proofgateWarmUpSuccessor == (proofgateWarmUpN + 1) % 7
    IN /\ proofgateWarmUpN < ProofgateWarmUpLimit
       /\ proofgateWarmUpN' = proofgateWarmUpSuccessor
       /\ proofgateWarmUpLog' = IF Len(proofgateWarmUpLog) >= 3 THEN Tail(Append(proofgateWarmUpLog, proofgateWarmUpP))
                                ELSE Append(proofgateWarmUpLog, proofgateWarmUpP)
       /\ proofgateWarmUpRec' = [proofgateWarmUpRec EXCEPT !.proofgateWarmUpOk = ~@,
                                   !.proofgateWarmUpKind = CHOOSE proofgateWarmUpK \in ProofgateWarmUpKinds : proofgateWarmUpK /= @]
       /\ proofgateWarmUpFn' = [proofgateWarmUpFn EXCEPT ![proofgateWarmUpP] = @ \cup {proofgateWarmUpSuccessor \div 2}]

ProofgateWarmUpReset ==
    /\ proofgateWarmUpN >= 2
    /\ \E proofgateWarmUpQ \in ProofgateWarmUpPeers : proofgateWarmUpFn[proofgateWarmUpQ] /= {}
    /\ proofgateWarmUpN' = 0
    /\ UNCHANGED <<proofgateWarmUpLog, proofgateWarmUpRec, proofgateWarmUpFn>>

ProofgateWarmUpNext == (\E proofgateWarmUpP \in ProofgateWarmUpPeers : ProofgateWarmUpStep(proofgateWarmUpP)) \/ ProofgateWarmUpReset

ProofgateWarmUpSpec == ProofgateWarmUpInit /\ [][ProofgateWarmUpNext]_proofgateWarmUpVars
                       /\ WF_proofgateWarmUpVars(ProofgateWarmUpNext)

ProofgateWarmUpSmall == proofgateWarmUpN < ProofgateWarmUpLimit

ProofgateWarmUpTypeOK ==
    /\ proofgateWarmUpN \in 0..7
    /\ proofgateWarmUpLog \in Seq(ProofgateWarmUpPeers)
    /\ DOMAIN proofgateWarmUpFn = ProofgateWarmUpPeers
    /\ \A proofgateWarmUpP \in ProofgateWarmUpPeers : Cardinality(proofgateWarmUpFn[proofgateWarmUpP]) <= 8
    /\ CASE proofgateWarmUpRec.proofgateWarmUpOk -> TRUE [] OTHER -> proofgateWarmUpRec.proofgateWarmUpKind \in ProofgateWarmUpKinds

ProofgateWarmUpBounded == proofgateWarmUpN < 4 \/ proofgateWarmUpLog /= <<>>

ProofgateWarmUpConstraint == Len(proofgateWarmUpLog) <= 3

ProofgateWarmUpPeersOf == {ProofgateWarmUpA, ProofgateWarmUpB}

\* a liveness property that fails: the counter comes back to 0 for ever
ProofgateWarmUpSettles == <>[](proofgateWarmUpN = 0)

\* a liveness property that fails and needs a tableau: the counter never reaches 6
ProofgateWarmUpReaches == <>(proofgateWarmUpN = 6)

\* an evaluation error once the counter reaches 3
ProofgateWarmUpFaulty == proofgateWarmUpN < 3 \/ (CHOOSE proofgateWarmUpK \in {} : TRUE) = 0
====
