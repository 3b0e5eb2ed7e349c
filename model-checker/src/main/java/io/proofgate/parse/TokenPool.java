package io.proofgate.parse;

import org.antlr.v4.runtime.CharStream;
import org.antlr.v4.runtime.CommonToken;
import org.antlr.v4.runtime.TokenFactory;
import org.antlr.v4.runtime.TokenSource;
import org.antlr.v4.runtime.misc.Pair;

import java.util.Arrays;

/**
 * A token factory that hands out the same token objects again after each {@link #reset}: reading a state graph lexes
 * millions of tokens that are dead as soon as their state is built. Only for a parse that keeps no token past the next
 * reset (no parse tree, no error to report with them).
 */
public final class TokenPool implements TokenFactory<CommonToken> {
    private Reused[] tokens = new Reused[256];
    private int used;

    /** Every token handed out so far may be handed out again. */
    public void reset() {
        used = 0;
    }

    @Override
    public CommonToken create(
            Pair<TokenSource, CharStream> source,
            int type,
            String text,
            int channel,
            int start,
            int stop,
            int line,
            int charPositionInLine) {
        if (used == tokens.length) {
            tokens = Arrays.copyOf(tokens, 2 * used);
        }
        Reused token = tokens[used];
        if (token == null) {
            token = tokens[used] = new Reused();
        }
        used++;
        token.set(source, type, text, channel, start, stop, line, charPositionInLine);
        return token;
    }

    @Override
    public CommonToken create(int type, String text) {
        return new CommonToken(type, text);
    }

    /** What {@code CommonTokenFactory} makes (without copying the text), made again in place. */
    private static final class Reused extends CommonToken {
        Reused() {
            super(INVALID_TYPE);
        }

        void set(
                Pair<TokenSource, CharStream> source,
                int type,
                String text,
                int channel,
                int start,
                int stop,
                int line,
                int charPositionInLine) {
            this.source = source;
            this.type = type;
            this.text = text;
            this.channel = channel;
            this.start = start;
            this.stop = stop;
            this.line = line;
            this.charPositionInLine = charPositionInLine;
            this.index = -1;
        }
    }
}
