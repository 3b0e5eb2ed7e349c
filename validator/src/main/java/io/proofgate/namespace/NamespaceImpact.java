package io.proofgate.namespace;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Two revisions' answers to the same probes, compared name by name: a name is identical on every probe, or changed,
 * with the first probe (in the set's order) where the two differ and both values. A name one revision gives for a probe
 * and the other does not is a change.
 */
public final class NamespaceImpact {

    /**
     * One name's comparison.
     *
     * @param probes the probes either revision gave the name for
     * @param changed of those, how many differ
     * @param firstProbe the first differing probe's id, null when none differs
     * @param base the base's value there (hex), null when the base did not give it
     * @param head the head's value there (hex), null when the head did not give it
     */
    public record Name(String name, int probes, int changed, String firstProbe, String base, String head) {}

    private NamespaceImpact() {}

    /** {@code base.get(i)} and {@code head.get(i)} answer {@code probes.get(i)}: each a map from name to hex value. */
    public static List<Name> compare(
            List<String> probes, List<? extends Map<String, String>> base, List<? extends Map<String, String>> head) {
        TreeSet<String> names = new TreeSet<>();
        base.forEach(values -> names.addAll(values.keySet()));
        head.forEach(values -> names.addAll(values.keySet()));
        List<Name> result = new ArrayList<>();
        for (String name : names) {
            int answered = 0;
            int changed = 0;
            String first = null;
            String firstBase = null;
            String firstHead = null;
            for (int i = 0; i < probes.size(); i++) {
                String a = base.get(i).get(name);
                String b = head.get(i).get(name);
                if (a == null && b == null) {
                    continue;
                }
                answered++;
                if (a == null || !a.equals(b)) {
                    changed++;
                    if (first == null) {
                        first = probes.get(i);
                        firstBase = a;
                        firstHead = b;
                    }
                }
            }
            result.add(new Name(name, answered, changed, first, firstBase, firstHead));
        }
        return List.copyOf(result);
    }

    /** A value for a report: its text when the bytes are printable UTF-8, otherwise its hex; "(not given)" for none. */
    public static String shown(String hex) {
        if (hex == null) {
            return "(not given)";
        }
        byte[] bytes = HexFormat.of().parseHex(hex);
        try {
            String text =
                    StandardCharsets.UTF_8
                            .newDecoder()
                            .onMalformedInput(CodingErrorAction.REPORT)
                            .onUnmappableCharacter(CodingErrorAction.REPORT)
                            .decode(ByteBuffer.wrap(bytes))
                            .toString();
            boolean printable =
                    !text.isEmpty()
                            && text.codePoints()
                                    .allMatch(
                                            c ->
                                                    c >= 0x20
                                                            && c != 0x7f
                                                            && Character.getType(c) != Character.FORMAT
                                                            && Character.getType(c) != Character.UNASSIGNED
                                                            && Character.getType(c) != Character.CONTROL);
            return printable ? text : "0x" + hex;
        } catch (CharacterCodingException e) {
            return "0x" + hex;
        }
    }
}
