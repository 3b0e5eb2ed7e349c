package io.proofgate.parse;

import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.tree.ErrorNode;
import org.antlr.v4.runtime.tree.ParseTreeListener;
import org.antlr.v4.runtime.tree.TerminalNode;

/**
 * Hands a parser's rule events to a listener while it parses, for readers that build no tree; the listener's first
 * exception is kept and thrown by {@link #throwFailure} once the parse has ended. A parser subclass calls it from
 * {@code enterRule} and {@code exitRule} ({@code TlcDotEventParser}, {@code TlaValueEventParser}).
 *
 * <p>Not {@code Parser.addParseListener}, for two reasons. With a parse listener, ANTLR makes a terminal node for every
 * token and adds it to its rule, tree or no tree (10 to 20% of reading a state graph). And the parser reports a rule's
 * end from a {@code finally} block: after a syntax error the listener sees the half-parsed rules the error unwinds, and
 * an exception it throws there would replace the syntax error. Here nothing is thrown during the parse, and no event
 * follows the listener's first exception. So a syntax error anywhere wins over an error the listener finds, and of the
 * listener's errors the first wins: what a reader that parsed the whole input first and then walked its tree would
 * report.
 *
 * <p>A rule's start is reported before the parser has chosen an alternative, so a labelled alternative ({@code #
 * intValue}) reaches the listener only on exit; tokens are not passed on.
 */
public final class ParseEvents implements ParseTreeListener {
    private final ParseTreeListener listener;
    private RuntimeException failure;

    public ParseEvents(ParseTreeListener listener) {
        this.listener = listener;
    }

    @Override
    public void enterEveryRule(ParserRuleContext ctx) {
        if (failure != null) {
            return;
        }
        try {
            listener.enterEveryRule(ctx);
            ctx.enterRule(listener);
        } catch (RuntimeException e) {
            failure = e;
        }
    }

    @Override
    public void exitEveryRule(ParserRuleContext ctx) {
        if (failure != null) {
            return;
        }
        try {
            ctx.exitRule(listener);
            listener.exitEveryRule(ctx);
        } catch (RuntimeException e) {
            failure = e;
        }
    }

    @Override
    public void visitTerminal(TerminalNode node) {}

    @Override
    public void visitErrorNode(ErrorNode node) {}

    /** Forgets the listener's failure, for a parser that reads one input after another. */
    public void reset() {
        failure = null;
    }

    /** Throws what the listener threw, if anything; call it only after a parse that ended without a syntax error. */
    public void throwFailure() {
        if (failure != null) {
            throw failure;
        }
    }
}
