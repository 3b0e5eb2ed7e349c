package io.proofgate.namespace;

import io.proofgate.protocol.Verdict;
import io.proofgate.replay.OutputLine;
import io.proofgate.words.ReasonFacts;

import java.util.LinkedHashMap;
import java.util.Map;

/** A validator's replay output, read as the words a namespace answer is made of. */
final class AnswerWords {

    private AnswerWords() {}

    /**
     * Replay's verdict lines as words by request id, without ids or steps ("plan span=S blocks=B recurrent=R"; several
     * joined by "; "), or null when the validator refused the log.
     */
    static Map<String, String> wordsById(String output) {
        Map<String, String> words = new LinkedHashMap<>();
        for (String line : output.lines().toList()) {
            if (line.startsWith("error: ")) {
                return null;
            }
            if (line.isBlank()) {
                continue;
            }
            String[] verdict = verdictWords(line);
            if (verdict != null) {
                words.merge(verdict[0], verdict[1], (x, y) -> x + "; " + y);
            }
        }
        return words;
    }

    /** One verdict line's request id and words, or null for the summary. */
    private static String[] verdictWords(String line) {
        OutputLine read;
        try {
            read = OutputLine.read(line);
        } catch (OutputLine.Unreadable e) {
            return new String[] {idIn(line), "a line that is not one replay prints (" + e.getMessage() + "): " + line};
        }
        if (!(read instanceof OutputLine.Said said)) {
            return null;
        }
        String words =
                switch (said.verdict()) {
                    case Verdict.Plan plan ->
                            "plan span="
                                    + plan.target()
                                    + " blocks="
                                    + plan.blocksByGroup()
                                    + " recurrent="
                                    + OutputLine.pairs(plan.recurrent());
                    case Verdict.Rejected rejected ->
                            "rejected code=" + rejected.code().wireName() + ReasonFacts.words(rejected.reason());
                    case Verdict.Retired retired -> "retired cause=" + retired.cause().wireName();
                    case Verdict.Hit hit -> "hit tokens=" + hit.tokens();
                    case Verdict.Load load -> "load span=" + load.restored() + " blocks=" + load.blocksByGroup();
                };
        return new String[] {said.verdict().id(), words};
    }

    /** The request id of a line replay does not print, where it has one, so that the probe's answer says so. */
    private static String idIn(String line) {
        try {
            return OutputLine.tree(line).path("id").asText("");
        } catch (OutputLine.Unreadable e) {
            return "";
        }
    }
}
