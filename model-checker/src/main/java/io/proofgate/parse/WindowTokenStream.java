package io.proofgate.parse;

import org.antlr.v4.runtime.RuleContext;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.TokenSource;
import org.antlr.v4.runtime.TokenStream;
import org.antlr.v4.runtime.WritableToken;
import org.antlr.v4.runtime.misc.Interval;

import java.util.Arrays;

/**
 * A token stream that forgets tokens the parser is done with, for inputs of millions of tokens that are handled
 * statement by statement. {@code CommonTokenStream} keeps every token of the input until the parse ends: 5.3 million
 * for the 55 MB state graph of the interleaved model, which the garbage collector then copies over and over (2.5 s of
 * collection per read).
 *
 * <p>It keeps the tokens from the earliest open {@link #mark} (prediction looks ahead and seeks back) and the one
 * before the current token (error messages name it). Like {@code CommonTokenStream} on a lexer whose grammar skips
 * whitespace: every token is on the default channel, and a token's index is its position in the input.
 */
public final class WindowTokenStream implements TokenStream {
    /** Forget consumed tokens once this many have piled up, so compaction is rare. */
    private static final int KEEP_AT_MOST = 4096;

    private final TokenSource source;
    private Token[] window = new Token[2 * KEEP_AT_MOST];

    /** Index in the input of {@code window[0]}. */
    private int base;

    /** Tokens in the window. */
    private int count;

    /** Index in the input of the current token, LT(1). */
    private int position;

    private int openMarks;
    private boolean fetchedEof;

    public WindowTokenStream(TokenSource source) {
        this.source = source;
    }

    /** Starts over on what the source reads now (after e.g. {@code Lexer.setInputStream}). */
    public void reset() {
        Arrays.fill(window, 0, count, null);
        base = 0;
        count = 0;
        position = 0;
        openMarks = 0;
        fetchedEof = false;
    }

    @Override
    public Token LT(int k) {
        if (k == 0) {
            return null;
        }
        if (k < 0) {
            int at = position + k;
            return at < base ? null : window[at - base];
        }
        int at = position + k - 1;
        if (at >= base + count) {
            fetch(at);
            if (at >= base + count) {
                return window[count - 1];
            }
        }
        return window[at - base];
    }

    @Override
    public int LA(int i) {
        return LT(i).getType();
    }

    @Override
    public Token get(int index) {
        if (index < base || index >= base + count) {
            throw new IndexOutOfBoundsException(
                    "token index " + index + " out of range " + base + ".." + (base + count - 1));
        }
        return window[index - base];
    }

    @Override
    public void consume() {
        if (LA(1) == Token.EOF) {
            throw new IllegalStateException("cannot consume EOF");
        }
        position++;
        if (openMarks == 0 && position - base > KEEP_AT_MOST) {
            forgetBefore(position - 1);
        }
    }

    /** Reads tokens from the source up to input index {@code at}, or to EOF. */
    private void fetch(int at) {
        while (base + count <= at && !fetchedEof) {
            if (count == window.length) {
                window = Arrays.copyOf(window, window.length * 2);
            }
            Token t = source.nextToken();
            if (t instanceof WritableToken w) {
                w.setTokenIndex(base + count);
            }
            window[count++] = t;
            fetchedEof = t.getType() == Token.EOF;
        }
    }

    private void forgetBefore(int index) {
        int drop = index - base;
        System.arraycopy(window, drop, window, 0, count - drop);
        Arrays.fill(window, count - drop, count, null);
        count -= drop;
        base = index;
    }

    @Override
    public int mark() {
        openMarks++;
        return position;
    }

    @Override
    public void release(int marker) {
        openMarks--;
    }

    @Override
    public int index() {
        return position;
    }

    @Override
    public void seek(int index) {
        if (index < base) {
            throw new UnsupportedOperationException(
                    "token " + index + " was already forgotten (window starts at " + base + ")");
        }
        position = index;
    }

    /** The tokens read so far, as {@code CommonTokenStream} counts them. */
    @Override
    public int size() {
        return base + count;
    }

    @Override
    public String getSourceName() {
        return source.getSourceName();
    }

    @Override
    public TokenSource getTokenSource() {
        return source;
    }

    /** The text of the tokens in {@code interval} that are still in the window. */
    @Override
    public String getText(Interval interval) {
        int start = Math.max(interval.a, base);
        int stop = Math.min(interval.b, base + count - 1);
        StringBuilder text = new StringBuilder();
        for (int i = start; i <= stop; i++) {
            Token t = window[i - base];
            if (t.getType() == Token.EOF) {
                break;
            }
            text.append(t.getText());
        }
        return text.toString();
    }

    @Override
    public String getText() {
        return getText(Interval.of(base, base + count - 1));
    }

    @Override
    public String getText(RuleContext ctx) {
        return getText(ctx.getSourceInterval());
    }

    @Override
    public String getText(Token start, Token stop) {
        return start == null || stop == null ? "" : getText(Interval.of(start.getTokenIndex(), stop.getTokenIndex()));
    }
}
