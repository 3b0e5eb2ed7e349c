package io.proofgate.value;

import static org.quicktheories.generators.SourceDSL.lists;

import io.proofgate.value.TlaValue.Field;
import io.proofgate.value.TlaValue.Pair;

import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.SequencedMap;
import java.util.stream.Collectors;

/** QuickTheories generators of every value kind TLC prints, nested to a bounded depth. */
public final class TlaValues {
    private TlaValues() {}

    private static final List<Character> STRING_CHARS =
            "aZ09 _-.,:>@|/{}[]<>()=\"\\\n\t\r\féλ→".chars().mapToObj(c -> (char) c).toList();
    private static final List<Character> IDENT_START = "abcxyzABXY_".chars().mapToObj(c -> (char) c).toList();
    private static final List<Character> IDENT_REST = "abz09_XY".chars().mapToObj(c -> (char) c).toList();

    public static Gen<TlaValue> values() {
        return values(3);
    }

    public static Gen<TlaValue> values(int depth) {
        Gen<TlaValue> leaf =
                Generate.frequency(
                        List.of(
                                org.quicktheories.api.Pair.of(3, ints()),
                                org.quicktheories.api.Pair.of(2, strings().map(TlaValue.TlaString::new)),
                                org.quicktheories.api.Pair.of(1, Generate.booleans().map(TlaValue.TlaBool::new)),
                                org.quicktheories.api.Pair.of(2, identifiers().map(TlaValue.TlaModelValue::new))));
        if (depth == 0) {
            return leaf;
        }
        Gen<TlaValue> child = values(depth - 1);
        Gen<List<TlaValue>> some = lists().of(child).ofSizeBetween(0, 3);
        Gen<List<TlaValue>> atLeastOne = lists().of(child).ofSizeBetween(1, 3);
        Gen<TlaValue> record =
                identifiers()
                        .zip(
                                atLeastOne,
                                (prefix, vs) -> {
                                    List<Field> fields = new ArrayList<>();
                                    for (int i = 0; i < vs.size(); i++) {
                                        fields.add(new Field(prefix + i, vs.get(i)));
                                    }
                                    return new TlaValue.TlaRecord(fields);
                                });
        Gen<TlaValue> function =
                lists().of(child.zip(child, Pair::new)).ofSizeBetween(1, 3).map(TlaValue.TlaFunction::new);
        return Generate.frequency(
                List.of(
                        org.quicktheories.api.Pair.of(4, leaf),
                        org.quicktheories.api.Pair.of(1, record),
                        org.quicktheories.api.Pair.of(1, some.map(TlaValue.TlaSeq::new)),
                        org.quicktheories.api.Pair.of(1, some.map(TlaValue.TlaSet::new)),
                        org.quicktheories.api.Pair.of(1, function)));
    }

    /** States of one to four variables with distinct names. */
    public static Gen<TlaState> states() {
        return identifiers()
                .zip(
                        lists().of(values(2)).ofSizeBetween(1, 4),
                        (prefix, vs) -> {
                            SequencedMap<String, TlaValue> vars = new LinkedHashMap<>();
                            for (int i = 0; i < vs.size(); i++) {
                                vars.put(prefix + i, vs.get(i));
                            }
                            return new TlaState(vars);
                        });
    }

    private static Gen<TlaValue> ints() {
        return Generate.longRange(-3, 3)
                .mix(Generate.longRange(Long.MIN_VALUE, Long.MAX_VALUE))
                .map(TlaValue.TlaInt::new);
    }

    private static Gen<String> strings() {
        return lists().of(Generate.pick(STRING_CHARS))
                .ofSizeBetween(0, 6)
                .map(cs -> cs.stream().map(String::valueOf).collect(Collectors.joining()));
    }

    private static Gen<String> identifiers() {
        return Generate.pick(IDENT_START)
                .zip(
                        lists().of(Generate.pick(IDENT_REST)).ofSizeBetween(0, 4),
                        (first, rest) -> first + rest.stream().map(String::valueOf).collect(Collectors.joining()));
    }
}
