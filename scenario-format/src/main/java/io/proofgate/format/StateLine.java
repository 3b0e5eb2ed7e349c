package io.proofgate.format;

import io.proofgate.words.Counter;

import java.util.List;

/**
 * One line of what must hold after an event, in the scenario's words: first the verdicts the event produced, then the
 * connector's state (the pending stores, the held digests, the counters). The model's state (generation), the
 * validator's (the generated tests) and an adapter's answer (the conformance kit) are all written as these lines, so
 * that they compare as text. Numbers and lists are kept as their text ({@code 6912}, {@code [[11,12,13],[42]]}).
 */
public sealed interface StateLine {

    /** The line as a scenario states it. */
    String text();

    /**
     * A verdict: a decision about one request (not a type of the validator or of the kit, whose verdicts these lines
     * state).
     */
    sealed interface Verdict extends StateLine {
        String id();

        /**
         * The verdict said in step {@code step}: its line with the step after the request's id ({@code plan r1 step=3
         * digest=d1 ...}), the words every comparison of verdicts said in a log shows them in (the kit's, the audits').
         */
        default String text(String step) {
            String text = text();
            int afterId = text.indexOf(' ') + 1 + id().length(); // an adapter's id may hold a space
            return text.substring(0, afterId) + " step=" + step + text.substring(afterId);
        }
    }

    /** {@code plan r1 digest=d1 span=6912 blocks=[[11,12,13],[42]] recurrent=[[1,42]]} */
    record Plan(String id, String digest, String span, String blocks, String recurrent) implements Verdict {
        @Override
        public String text() {
            return "plan "
                    + id
                    + " digest="
                    + digest
                    + " span="
                    + span
                    + " blocks="
                    + blocks
                    + " recurrent="
                    + recurrent;
        }
    }

    /** {@code rejected r1 code=future_boundary observed=8448 target=8192}: the facts as the reason ends. */
    record Rejected(String id, String code, List<String> facts) implements Verdict {
        public Rejected {
            facts = List.copyOf(facts);
        }

        @Override
        public String text() {
            return "rejected " + id + " code=" + code + (facts.isEmpty() ? "" : " " + String.join(" ", facts));
        }
    }

    /** {@code retired r1 cause=finished} */
    record Retired(String id, String cause) implements Verdict {
        @Override
        public String text() {
            return "retired " + id + " cause=" + cause;
        }
    }

    /** {@code hit r3 tokens=6912}: the answer to a lookup (the restore half). */
    record Hit(String id, String tokens) implements Verdict {
        @Override
        public String text() {
            return "hit " + id + " tokens=" + tokens;
        }
    }

    /** {@code load r3 digest=d1 span=6912 blocks=[[61,62,63],[71]]}: what a restored request's load writes. */
    record Load(String id, String digest, String span, String blocks) implements Verdict {
        @Override
        public String text() {
            return "load " + id + " digest=" + digest + " span=" + span + " blocks=" + blocks;
        }
    }

    /** {@code pending none}: no request has a pending store. */
    record NoPending() implements StateLine {
        @Override
        public String text() {
            return "pending none";
        }
    }

    /** {@code pending r1 done=6912 table=[[11,12,13],[0,0,71]] latch=[[1,42]]}, one per store, by request id. */
    record Pending(String id, String done, String table, String latch) implements StateLine {
        @Override
        public String text() {
            return "pending " + id + " done=" + done + " table=" + table + " latch=" + latch;
        }
    }

    /** {@code held d1=[0,1]}: the ranks that hold a digest, for digests some rank holds. */
    record Held(String digest, String ranks) implements StateLine {
        @Override
        public String text() {
            return "held " + digest + "=" + ranks;
        }
    }

    /** {@code counters plans=1 rejected=0 store_skipped_quorum=0 retired_finished=0}: always the last line. */
    record Counters(String plans, String rejected, String storeSkippedQuorum, String retiredFinished)
            implements StateLine {
        @Override
        public String text() {
            return "counters " + words();
        }

        /** {@code plans=1 rejected=0 store_skipped_quorum=0 retired_finished=0}, as every line that states them. */
        public String words() {
            StringBuilder words = new StringBuilder();
            byName().forEach(
                            (name, value) ->
                                    words.append(words.isEmpty() ? "" : " ").append(name).append('=').append(value));
            return words.toString();
        }

        /** The counts by their wire names, in protocol §5's order. */
        public java.util.SequencedMap<String, String> byName() {
            java.util.SequencedMap<String, String> byName = new java.util.LinkedHashMap<>();
            byName.put(Counter.PLANS.wireName(), plans);
            byName.put(Counter.REJECTED.wireName(), rejected);
            byName.put(Counter.STORE_SKIPPED_QUORUM.wireName(), storeSkippedQuorum);
            byName.put(Counter.RETIRED_FINISHED.wireName(), retiredFinished);
            return byName;
        }
    }

    /**
     * {@code contents 1=d1@4 2=none 3=d2@2 4=d1@2 released=[2,3]}: what each block of vLLM's pool holds after the
     * event, the one line of a scenario generated with the blocks' contents instead of a connector's verdicts
     * (docs/generation.md): {@code d1@4} is the recurrent state of the prompt {@code d1} at 4 tokens, {@code none}
     * bytes that no request's tokens computed; the released blocks are those the event let go (before its forward
     * pass), which vLLM may give out again unless a connector pins them.
     */
    record Contents(java.util.SortedMap<Long, String> blocks, java.util.SortedSet<Long> released) implements StateLine {
        private static final java.util.regex.Pattern HOLDS =
                java.util.regex.Pattern.compile("none|[^@= ]+@(0|[1-9][0-9]{0,17})");
        private static final java.util.regex.Pattern BLOCK = java.util.regex.Pattern.compile("0|[1-9][0-9]{0,17}");

        public Contents {
            blocks = java.util.Collections.unmodifiableSortedMap(new java.util.TreeMap<>(blocks));
            released = java.util.Collections.unmodifiableSortedSet(new java.util.TreeSet<>(released));
        }

        /** The recurrent state of the prompt {@code digest} at {@code tokens}. */
        public record State(String digest, long tokens) {}

        /** The blocks that hold a state a request computed, with it; the others hold nothing computed. */
        public java.util.SortedMap<Long, State> states() {
            java.util.SortedMap<Long, State> states = new java.util.TreeMap<>();
            blocks.forEach(
                    (block, holds) -> {
                        int at = holds.lastIndexOf('@');
                        if (at > 0) {
                            states.put(
                                    block, new State(holds.substring(0, at), Long.parseLong(holds.substring(at + 1))));
                        }
                    });
            return states;
        }

        @Override
        public String text() {
            StringBuilder text = new StringBuilder("contents");
            blocks.forEach((block, holds) -> text.append(' ').append(block).append('=').append(holds));
            return text.append(" released=")
                    .append(
                            released.stream()
                                    .map(String::valueOf)
                                    .collect(java.util.stream.Collectors.joining(",", "[", "]")))
                    .toString();
        }
    }

    /** The word of a block that holds nothing a request computed. */
    String NOTHING = "none";

    /** Reads one line; a line that is none of these is a {@link ScenarioFormatException} at {@code source:line:1}. */
    static StateLine read(String source, int line, String text) {
        String[] words = text.split(" ");
        LineWords at = new LineWords(source, line, words);
        return switch (words[0]) {
            case "plan", "rejected", "retired", "hit", "load" -> {
                if (words.length < 3) {
                    throw at.error("a verdict line names its request and its fields");
                }
                int count =
                        switch (words[0]) {
                            case "plan" -> 6;
                            case "load" -> 5;
                            case "retired", "hit" -> 3;
                            default -> -1; // a rejection's facts vary in number
                        };
                if (count > 0 && words.length != count) {
                    throw at.error("a " + words[0] + " line has " + count + " words, this one " + words.length);
                }
                yield switch (words[0]) {
                    case "plan" ->
                            new Plan(
                                    words[1],
                                    at.value(2, "digest"),
                                    at.number(3, "span"),
                                    at.value(4, "blocks"),
                                    at.value(5, "recurrent"));
                    case "retired" -> new Retired(words[1], at.value(2, "cause"));
                    case "hit" -> new Hit(words[1], at.number(2, "tokens"));
                    case "load" ->
                            new Load(words[1], at.value(2, "digest"), at.number(3, "span"), at.value(4, "blocks"));
                    default -> new Rejected(words[1], at.value(2, "code"), List.of(words).subList(3, words.length));
                };
            }
            case "pending" -> text.equals("pending none") ? new NoPending() : pending(at);
            case "held" -> {
                // the ranks hold no '=', a digest (the connector's text) may
                int equals = words.length == 2 ? words[1].lastIndexOf('=') : -1;
                if (equals <= 0) {
                    throw at.error("a held line reads held DIGEST=[RANKS]");
                }
                yield new Held(words[1].substring(0, equals), words[1].substring(equals + 1));
            }
            case "counters" -> {
                Counters counters =
                        new Counters(
                                at.number(1, Counter.PLANS.wireName()),
                                at.number(2, Counter.REJECTED.wireName()),
                                at.number(3, Counter.STORE_SKIPPED_QUORUM.wireName()),
                                at.number(4, Counter.RETIRED_FINISHED.wireName()));
                yield wordsAll(at, counters, 5);
            }
            case "contents" -> contents(at, words);
            default ->
                    throw at.error(
                            "expected a plan, rejected, retired, hit, load, pending, held, counters or contents line");
        };
    }

    private static Contents contents(LineWords at, String[] words) {
        java.util.SortedMap<Long, String> blocks = new java.util.TreeMap<>();
        for (int i = 1; i < words.length - 1; i++) {
            int equals = words[i].indexOf('=');
            String block = equals < 0 ? "" : words[i].substring(0, equals);
            String holds = equals < 0 ? "" : words[i].substring(equals + 1);
            if (!Contents.BLOCK.matcher(block).matches() || !Contents.HOLDS.matcher(holds).matches()) {
                throw at.error(
                        "a block of a contents line reads BLOCK=DIGEST@TOKENS or BLOCK=none, found "
                                + io.proofgate.words.Outside.quoted(words[i]));
            }
            if (blocks.put(Long.parseLong(block), holds) != null) {
                throw at.error("block " + block + " appears twice in a contents line");
            }
        }
        String last = words.length < 2 ? "" : words[words.length - 1];
        if (blocks.isEmpty() || !last.matches("released=\\[((0|[1-9][0-9]{0,17})(,(0|[1-9][0-9]{0,17}))*)?]")) {
            throw at.error("a contents line reads contents BLOCK=HOLDS ... released=[BLOCKS]");
        }
        java.util.SortedSet<Long> released = new java.util.TreeSet<>();
        String list = last.substring("released=[".length(), last.length() - 1);
        if (!list.isEmpty()) {
            for (String block : list.split(",")) {
                if (!blocks.containsKey(Long.parseLong(block)) || !released.add(Long.parseLong(block))) {
                    throw at.error("released block " + block + " is not one of the line's blocks, or is named twice");
                }
            }
        }
        return new Contents(blocks, released);
    }

    private static Pending pending(LineWords at) {
        // the latch first: the conformance kit has always named it when a pending line is short
        String latch = at.value(4, "latch");
        return wordsAll(at, new Pending(at.words()[1], at.number(2, "done"), at.value(3, "table"), latch), 5);
    }

    /**
     * {@code line}, read from {@code at}'s words, when they were all read: a word more would be dropped by the record
     * and pass unseen where the line is compared as its record's text.
     */
    private static <T extends StateLine> T wordsAll(LineWords at, T line, int count) {
        if (at.words().length != count) {
            throw at.error("a " + at.words()[0] + " line has " + count + " words, this one " + at.words().length);
        }
        return line;
    }
}
