package io.proofgate.conform;

import io.proofgate.format.ReplaySummary;
import io.proofgate.format.StateLine;
import io.proofgate.words.Capability;
import io.proofgate.words.ConnectorPolicy;
import io.proofgate.words.CopyTiming;
import io.proofgate.words.EventObject;
import io.proofgate.words.Outside;
import io.proofgate.words.PoisonCode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;

/**
 * One line an implementation says, or the kit expects, in the adapter protocol: a verdict as {@code proofgate replay}
 * prints it, the connector's state, the summary, a refusal, the end marker or the hello. Numbers are kept as their
 * decimal digits, so integers beyond 64 bits compare exactly.
 *
 * <p>{@link Compared#words} is what is compared: the same words for both sides, with what the adapter's capabilities
 * leave out left out.
 */
public sealed interface Line {

    /** A line that is compared with an expectation. */
    sealed interface Compared extends Line {
        String words(Set<Capability> capabilities);
    }

    /**
     * A decision about one request: what {@code replay} prints per verdict. The verdict itself is the scenario format's
     * ({@link StateLine.Verdict}, as the generated scenarios state it); the kit adds the step it was said in.
     */
    sealed interface VerdictLine extends Compared {
        /**
         * {@code said}, said in step {@code step}, as {@code replay} prints it: a plan copied in its step, and a
         * rejection's reason the sentence of its code (protocol §6) and its facts (docs/conformance.md, "Scenario
         * files"). A code this version does not know has a reason of its facts alone.
         */
        static VerdictLine of(String step, StateLine.Verdict said) {
            return switch (said) {
                case StateLine.Plan plan -> new Plan(step, plan, CopyTiming.IN_STEP, false);
                case StateLine.Retired retired -> new Retired(step, retired);
                case StateLine.Hit hit -> new Hit(step, hit);
                case StateLine.Load load -> new Load(step, load);
                case StateLine.Rejected rejected -> {
                    List<String> words = new ArrayList<>();
                    PoisonCode.of(rejected.code()).ifPresent(code -> words.add(code.sentence()));
                    words.addAll(rejected.facts());
                    yield new Rejected(step, rejected, "", String.join(" ", words));
                }
            };
        }

        /** The verdict as the scenario format states it. */
        StateLine.Verdict said();

        String step();

        default String id() {
            return said().id();
        }

        /** The verdict as {@code replay} prints it (the expected side of a report). */
        String json();

        /**
         * The scenario format's words with the step after the request's id ({@code plan r1 step=3 digest=d1 ...}),
         * escaped (Outside): they are the adapter's, and a report shows them on a terminal.
         */
        @Override
        default String words(Set<Capability> capabilities) {
            return Outside.bare(said().text(step()));
        }
    }

    /**
     * A plan. {@code copy} says when the connector's workers copy its blocks: in the step of the event it answers
     * ({@link CopyTiming#IN_STEP}, the default), or later ({@link CopyTiming#ASYNC}), up to the adapter's {@link Saved}
     * line for it; {@code pinned}, for an asynchronous copy, that the connector keeps vLLM from freeing the blocks
     * until then. Neither is compared with a policy: both are judged for safety ({@link PlanSafety}).
     */
    record Plan(String step, StateLine.Plan said, CopyTiming copy, boolean pinned) implements VerdictLine {

        public Plan(
                String id,
                String step,
                String digest,
                String span,
                String blocksByGroup,
                String recurrent,
                CopyTiming copy,
                boolean pinned) {
            this(step, new StateLine.Plan(id, digest, span, blocksByGroup, recurrent), copy, pinned);
        }

        /** A plan whose blocks the workers copy in its step. */
        public Plan(String id, String step, String digest, String span, String blocksByGroup, String recurrent) {
            this(id, step, digest, span, blocksByGroup, recurrent, CopyTiming.IN_STEP, false);
        }

        public String digest() {
            return said.digest();
        }

        public String span() {
            return said.span();
        }

        public String blocksByGroup() {
            return said.blocks();
        }

        public String recurrent() {
            return said.recurrent();
        }

        @Override
        public String json() {
            return "{\"kind\":\"plan\",\"step\":"
                    + step
                    + ",\"id\":"
                    + EventObject.quote(id())
                    + ",\"digest\":"
                    + EventObject.quote(digest())
                    + ",\"span\":"
                    + span()
                    + ",\"blocks_by_group\":"
                    + blocksByGroup()
                    + ",\"recurrent\":"
                    + recurrent()
                    + (copy == CopyTiming.IN_STEP ? "" : ",\"copy\":\"" + copy.wireName() + "\"")
                    + (pinned ? ",\"pinned\":true" : "")
                    + "}";
        }

        /** Whether {@code saved} ends this plan's copy: the same request, digest and span. */
        boolean endsWith(Saved saved) {
            return copy == CopyTiming.ASYNC
                    && id().equals(saved.id())
                    && digest().equals(saved.digest())
                    && span().equals(saved.span());
        }
    }

    /**
     * The adapter's word that every rank's worker has copied an asynchronous plan's blocks (the plan of request {@code
     * id} for prefix {@code digest} of {@code span} tokens): the copy is over, and with it the plan's pins. Judged for
     * safety, never compared with a policy.
     */
    record Saved(String id, String step, String digest, String span) implements Line {
        public String json() {
            return "{\"kind\":\"saved\",\"step\":"
                    + step
                    + ",\"id\":"
                    + EventObject.quote(id)
                    + ",\"digest\":"
                    + EventObject.quote(digest)
                    + ",\"span\":"
                    + span
                    + "}";
        }
    }

    /**
     * A rejection. {@code facts} are the {@code name=value} words that end its reason (docs/protocol.md §6, "Reasons");
     * {@code disagreement} names a field (observed, target, group, block) whose value differs from the fact of the same
     * name, empty when they agree.
     */
    record Rejected(String step, StateLine.Rejected said, String disagreement, String reason) implements VerdictLine {

        public Rejected(String id, String step, String code, List<String> facts, String disagreement, String reason) {
            this(step, new StateLine.Rejected(id, code, facts), disagreement, reason);
        }

        public String code() {
            return said.code();
        }

        public List<String> facts() {
            return said.facts();
        }

        @Override
        public String words(Set<Capability> capabilities) {
            // the facts, and how a field disagrees with them, only from an adapter that states them
            return capabilities.contains(Capability.REASON_FACTS)
                    ? Outside.bare(said.text(step) + disagreement)
                    : Outside.bare(new StateLine.Rejected(id(), code(), List.of()).text(step));
        }

        @Override
        public String json() {
            StringBuilder json =
                    new StringBuilder("{\"kind\":\"rejected\",\"step\":")
                            .append(step)
                            .append(",\"id\":")
                            .append(EventObject.quote(id()))
                            .append(",\"code\":")
                            .append(EventObject.quote(code()));
            for (String field : List.of("observed", "target", "group", "block")) {
                String value = fact(field);
                if (value != null) {
                    json.append(",\"").append(field).append("\":").append(value);
                }
            }
            return (reason.isEmpty() ? json : json.append(",\"reason\":").append(EventObject.quote(reason)))
                    .append('}')
                    .toString();
        }

        String fact(String name) {
            for (String fact : facts()) {
                if (fact.startsWith(name + "=")) {
                    return fact.substring(name.length() + 1);
                }
            }
            return null;
        }
    }

    record Retired(String step, StateLine.Retired said) implements VerdictLine {

        public Retired(String id, String step, String cause) {
            this(step, new StateLine.Retired(id, cause));
        }

        public String cause() {
            return said.cause();
        }

        @Override
        public String json() {
            return "{\"kind\":\"retired\",\"step\":"
                    + step
                    + ",\"id\":"
                    + EventObject.quote(id())
                    + ",\"cause\":"
                    + EventObject.quote(cause())
                    + "}";
        }
    }

    /**
     * The answer to a lookup: the connector can load {@code tokens} of the prompt beyond the tokens vLLM has (0: none).
     * Judged for safety ({@link RestoreSafety}), and compared under latch-at-target.
     */
    record Hit(String step, StateLine.Hit said) implements VerdictLine {

        public Hit(String id, String step, String tokens) {
            this(step, new StateLine.Hit(id, tokens));
        }

        public String tokens() {
            return said.tokens();
        }

        /** The tokens as a count; {@link Long#MAX_VALUE} for a number beyond 64 bits (more than any prompt). */
        long count() {
            try {
                return Long.parseLong(tokens());
            } catch (NumberFormatException e) {
                return Long.MAX_VALUE; // read as an integer (AnswerReader), never below 0
            }
        }

        @Override
        public String json() {
            return "{\"kind\":\"hit\",\"step\":"
                    + step
                    + ",\"id\":"
                    + EventObject.quote(id())
                    + ",\"tokens\":"
                    + tokens()
                    + "}";
        }
    }

    /**
     * A load: the connector's workers put the state of prefix {@code digest} at {@code span} tokens into {@code
     * blocksByGroup}, for a request vLLM scheduled with its hit. Judged for safety ({@link RestoreSafety}), and
     * compared under latch-at-target.
     */
    record Load(String step, StateLine.Load said) implements VerdictLine {

        public Load(String id, String step, String digest, String span, String blocksByGroup) {
            this(step, new StateLine.Load(id, digest, span, blocksByGroup));
        }

        public String digest() {
            return said.digest();
        }

        public String span() {
            return said.span();
        }

        public String blocksByGroup() {
            return said.blocks();
        }

        @Override
        public String json() {
            return "{\"kind\":\"load\",\"step\":"
                    + step
                    + ",\"id\":"
                    + EventObject.quote(id())
                    + ",\"digest\":"
                    + EventObject.quote(digest())
                    + ",\"span\":"
                    + span()
                    + ",\"blocks_by_group\":"
                    + blocksByGroup()
                    + "}";
        }
    }

    /**
     * The connector's state after an event, in the generated scenarios' words (docs/generation.md): {@code pending
     * none} or a {@code pending} line per store by id, a {@code held} line per digest, the {@code counters} line.
     */
    record State(List<StateLine> lines) implements Compared {
        public State {
            lines = List.copyOf(lines);
        }

        /** The lines as the scenario states them. */
        public List<String> texts() {
            return lines.stream().map(StateLine::text).toList();
        }

        /** The ids of the pending stores, sorted. */
        public List<String> pendingIds() {
            return lines.stream()
                    .filter(StateLine.Pending.class::isInstance)
                    .map(line -> ((StateLine.Pending) line).id())
                    .sorted()
                    .toList();
        }

        @Override
        public String words(Set<Capability> capabilities) {
            return String.join("\n", texts());
        }
    }

    /** The summary {@code replay} prints at the end of a log, as the scenario format models it. */
    record Summary(ReplaySummary said) implements Compared {

        public Summary(
                StateLine.Counters counters, String ignoredHeld, List<String> pending, Map<String, String> latched) {
            this(new ReplaySummary(counters, ignoredHeld, pending, latched));
        }

        @Override
        public String words(Set<Capability> capabilities) {
            return said.words();
        }

        public String json() {
            return said.json();
        }
    }

    /** The implementation refused a message (an {@code error} line): a failure, with its words shown. */
    record Refused(String message) implements Compared {
        @Override
        public String words(Set<Capability> capabilities) {
            return "refused: " + Json.excerpt(message); // the adapter's text, quoted, so it cannot write to a terminal
        }
    }

    /**
     * The adapter's word that the scenario does not apply to its connector: the vLLM field its connector reads cannot
     * carry the scenario's evidence (docs/conformance.md, "Not applicable"). The scenario is then not run, never
     * passed.
     */
    record NotApplicable(String reason) implements Line {}

    /**
     * An answer to a namespace probe: named byte strings, hex, by name (docs/conformance.md, "Namespace probes"); read
     * only by an audit, never compared with a scenario.
     */
    record Namespace(SortedMap<String, String> values) implements Line {}

    /** The end of an answer. */
    record End() implements Line {}

    /**
     * The adapter's hello: its protocol, name, capabilities and connector policy ({@link
     * ConnectorPolicy#LATCH_AT_TARGET} where it names none).
     */
    record Hello(String protocol, String implementation, Set<Capability> capabilities, ConnectorPolicy policy)
            implements Line {
        public Hello(String protocol, String implementation, Set<Capability> capabilities) {
            this(protocol, implementation, capabilities, ConnectorPolicy.LATCH_AT_TARGET);
        }
    }
}
