package io.proofgate.cli;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The {@code --shard K/N} of the commands whose work splits (mutate, replay): shard K of N. */
record ShardOption(int index, int count) {

    private static final Pattern FORM = Pattern.compile("([0-9]{1,4})/([0-9]{1,4})");

    static final ShardOption WHOLE = new ShardOption(0, 1);

    static ShardOption parse(String value) throws UsageException {
        Matcher m = FORM.matcher(value);
        if (!m.matches()
                || Integer.parseInt(m.group(2)) == 0
                || Integer.parseInt(m.group(1)) >= Integer.parseInt(m.group(2))) {
            throw new UsageException("--shard must be K/N with 0 <= K < N, not \"" + value + "\"");
        }
        return new ShardOption(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)));
    }
}
