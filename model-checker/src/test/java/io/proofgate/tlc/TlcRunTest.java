package io.proofgate.tlc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.proofgate.value.TlaValue;
import io.proofgate.value.TlaValue.TlaInt;
import io.proofgate.value.TlaValue.TlaModelValue;
import io.proofgate.value.TlaValue.TlaSet;
import io.proofgate.value.TlaValueReader;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

class TlcRunTest {

    private static TlaValue v(String text) {
        return TlaValueReader.value("expected", text);
    }

    @Test
    void invariantViolation_tracesEveryIncrement() {
        TlcRun run = Samples.run("tiny_invariant.out");

        assertEquals(TlcEnding.VIOLATION, run.ending());
        assertEquals(Violation.Kind.INVARIANT, run.violation().orElseThrow().kind());
        assertEquals(Optional.of("SmallX"), run.violatedName());
        assertEquals(5, run.trace().size());
        assertInstanceOf(TraceStep.Initial.class, run.trace().getFirst().step());
        TraceStep.Action inc = assertInstanceOf(TraceStep.Action.class, run.trace().get(1).step());
        assertEquals("Inc", inc.name());
        assertEquals("Tiny", inc.module());
        assertEquals(new SourceRange(18, 8, 23, 23), inc.range());
        assertEquals(List.of(1, 2, 3, 4, 5), run.trace().stream().map(TraceState::number).toList());

        var first = run.trace().getFirst().state();
        assertEquals(List.of("fn", "who", "tags", "rec", "x", "log"), List.copyOf(first.vars().keySet()));
        assertEquals(new TlaInt(-1), first.get("x").orElseThrow());
        assertEquals(new TlaModelValue("p1"), first.get("who").orElseThrow());
        assertEquals(v("[name |-> \"a\\\"b\\\\c\", ok |-> TRUE]"), first.get("rec").orElseThrow());
        var last = run.trace().getLast().state();
        assertEquals(new TlaInt(3), last.get("x").orElseThrow());
        assertEquals(v("(0 :> {} @@ 1 :> {-1, 0, 1, 2, 7})"), last.get("fn").orElseThrow());
        assertEquals(v("<<-1, 0, 1, 2>>"), last.get("log").orElseThrow());
        assertEquals(4, ((TlaSet) last.get("tags").orElseThrow()).elements().size());

        assertEquals(OptionalLong.of(5), run.statistics().generatedStates());
        assertEquals(OptionalLong.of(5), run.statistics().distinctStates());
        assertEquals(OptionalLong.of(0), run.statistics().queueSize());
        assertEquals(OptionalLong.of(5), run.statistics().depth());
        assertTrue(run.statistics().elapsed().orElseThrow().compareTo(Duration.ofMinutes(1)) < 0);
        assertEquals(List.of(), run.errors());
    }

    /**
     * Regression: TLC wraps a config error (5006) inside a general error (1000); the inner frame closed the outer one.
     */
    @Test
    void nestedFrame_configErrorInsideGeneralError() {
        TlcOutput output = Samples.output("config_error_nested.out");
        TlcRun run = TlcRun.of(output);

        assertEquals(TlcEnding.ERROR, run.ending());
        TlcMessage general = output.messages().stream().filter(m -> m.code() == 1000).findFirst().orElseThrow();
        assertTrue(general.text().contains("TLC found an error in the configuration file at line 1"), general.text());
        assertEquals(
                """
                TLC threw an unexpected exception.
                This was probably caused by an error in the spec or model.
                See the User Output or TLC Console for clues to what happened.
                The exception was a tlc2.tool.ConfigFileException
                TLC found an error in the configuration file at line 1
                It was expecting a keyword, but did not find it.\
                """,
                general.words());
        assertTrue(
                output.messages().stream().anyMatch(m -> m.code() == 2186),
                "the frames after the nested one parse too");
    }

    @Test
    void livenessViolation_endsWithBackToState() {
        TlcRun run = Samples.run("lasso_liveness.out");

        assertEquals(TlcEnding.VIOLATION, run.ending());
        assertEquals(Violation.Kind.TEMPORAL_PROPERTY, run.violation().orElseThrow().kind());
        assertEquals(Optional.empty(), run.violatedName());
        assertEquals(6, run.trace().size());
        TraceStep.BackTo back = assertInstanceOf(TraceStep.BackTo.class, run.trace().getLast().step());
        assertEquals(4, back.state());
        assertEquals("Step", back.via().name());
        assertEquals(new SourceRange(12, 9, 13, 32), back.via().range());
        assertTrue(run.trace().getLast().state().vars().isEmpty());
        assertEquals(v("{0, 1, 2}"), run.trace().get(4).state().get("seen").orElseThrow());
        assertEquals(OptionalLong.of(5), run.statistics().distinctStates());
        assertEquals(OptionalLong.of(6), run.statistics().generatedStates());
    }

    @Test
    void livenessViolation_endsWithStuttering() {
        TlcRun run = Samples.run("stutter_liveness.out");

        assertEquals(TlcEnding.VIOLATION, run.ending());
        assertEquals(3, run.trace().size());
        assertInstanceOf(TraceStep.Stuttering.class, run.trace().getLast().step());
        assertEquals(3, run.trace().getLast().number());
        TlcMessage stutter =
                Samples.output("stutter_liveness.out").messages().stream()
                        .filter(m -> m.code() == 2218)
                        .findFirst()
                        .orElseThrow();
        assertEquals("3: Stuttering", stutter.text());
        assertEquals(Severity.STATE, stutter.severity());
    }

    @Test
    void singleVariableSpec_printsBareAssignment() {
        TlcRun run = Samples.run("loop_liveness.out");

        assertEquals(3, run.trace().size());
        assertEquals(new TlaInt(1), run.trace().get(1).state().get("x").orElseThrow());
        assertEquals(1, assertInstanceOf(TraceStep.BackTo.class, run.trace().get(2).step()).state());
    }

    @Test
    void okRun_hasCountsAndNoTrace() {
        TlcRun run = Samples.run("graph_ok.out");

        assertEquals(TlcEnding.OK, run.ending());
        assertEquals(Optional.empty(), run.violation());
        assertEquals(List.of(), run.trace());
        assertEquals(OptionalLong.of(31), run.statistics().generatedStates());
        assertEquals(OptionalLong.of(13), run.statistics().distinctStates());
        assertEquals(OptionalLong.of(4), run.statistics().depth());
    }

    @Test
    void deadlock_keepsWrappedValues() {
        TlcRun run = Samples.run("wide_deadlock.out");

        assertEquals(Violation.Kind.DEADLOCK, run.violation().orElseThrow().kind());
        assertEquals(2, run.trace().size());
        var big = (TlaValue.TlaSeq) run.trace().getFirst().state().get("big").orElseThrow();
        assertEquals(12, big.elements().size());
        assertEquals(
                v("[name |-> \"element-number\", idx |-> 12, tags |-> {\"alpha\", \"beta\"}]"),
                big.elements().getLast());
        var after = (TlaValue.TlaRecord) run.trace().get(1).state().get("big").orElseThrow();
        assertEquals(v("{<<\"k5\", 1>>, <<\"k5\", 2>>, <<\"k5\", 3>>, <<\"k5\", 4>>}"), after.get("k5").orElseThrow());
    }

    @Test
    void initialStateViolation_readsStateFromMessageText() {
        TlcRun run = Samples.run("wide_initial.out");

        assertEquals(Optional.of("Bad"), run.violatedName());
        assertEquals(1, run.trace().size());
        assertEquals(new TlaInt(0), run.trace().getFirst().state().get("n").orElseThrow());
    }

    @Test
    void semanticError_isAnErrorWithSanyTextKept() {
        TlcRun run = Samples.run("semantic_error.out");

        assertEquals(TlcEnding.ERROR, run.ending());
        assertEquals(List.of(3002), run.errors().stream().map(TlcMessage::code).toList());
        assertEquals("Parsing or semantic analysis failed.", run.errors().getFirst().text());
        assertTrue(
                run.freeText().stream()
                        .anyMatch(l -> l.contains("Could not find declaration or definition of symbol '-.'")));
        // the first error, at its place, not the list's heading "Semantic errors:" alone
        assertEquals(
                Optional.of("SemanticError.tla:5:13: Could not find declaration or definition of symbol '-.'."),
                run.parseProblem());
    }

    @Test
    void evaluationError_isAnErrorWithTheBehaviourSoFar() {
        TlcRun run = Samples.run("runtime_error.out");

        assertEquals(TlcEnding.ERROR, run.ending());
        assertEquals(1, run.trace().size());
        assertEquals(v("\"p\""), run.trace().getFirst().state().get("x").orElseThrow());
        assertTrue(run.errors().stream().anyMatch(m -> m.code() == 2266));
    }
}
