package io.proofgate.tlc;

import io.proofgate.parse.ParseException;
import io.proofgate.value.TlaState;
import io.proofgate.value.TlaValueReader;

import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.TokenStream;
import org.antlr.v4.runtime.misc.Interval;

import java.util.Optional;

/** Maps one {@code message} parse tree onto a {@link TlcMessage}, parsing trace states with TlaValue. */
final class TlcMessageBuilder {
    private final String source;
    private final TokenStream tokens;

    TlcMessageBuilder(String source, TokenStream tokens) {
        this.source = source;
        this.tokens = tokens;
    }

    TlcMessage message(TlcToolParser.MessageContext ctx) {
        return switch (ctx) {
            case TlcToolParser.TextMessageContext m -> {
                int code = number(m.code);
                checkFooter(code, m.footer());
                yield new TlcMessage(
                        code,
                        severity(m.severity),
                        text(m.messageBody()).stripTrailing(),
                        m.start.getLine(),
                        Optional.empty());
            }
            case TlcToolParser.TraceMessageContext m -> {
                int code = number(m.TRACE_CODE().getSymbol()); // found by fuzzing: a huge code escaped unlocated
                checkFooter(code, m.footer());
                TraceState state = traceState(m.stateLabel(), m.stateBody());
                String text = (text(m.stateLabel()) + text(m.stateBody())).stripTrailing();
                yield new TlcMessage(code, severity(m.severity), text, m.start.getLine(), Optional.of(state));
            }
            default -> throw new IllegalStateException("unknown message form " + ctx.getClass());
        };
    }

    private TraceState traceState(TlcToolParser.StateLabelContext label, TlcToolParser.StateBodyContext body) {
        return switch (label) {
            case TlcToolParser.InitialLabelContext l ->
                    new TraceState(number(l.NUMBER()), new TraceStep.Initial(), state(l, body));
            case TlcToolParser.ActionLabelContext l ->
                    new TraceState(number(l.NUMBER()), action(l.actionRef()), state(l, body));
            case TlcToolParser.StutteringLabelContext l -> {
                requireBlank(body, "a stuttering step");
                yield new TraceState(number(l.NUMBER()), new TraceStep.Stuttering(), TlaState.EMPTY);
            }
            case TlcToolParser.BackToStateLabelContext l -> {
                requireBlank(body, "a back-to-state step");
                int target = number(l.NUMBER());
                yield new TraceState(target, new TraceStep.BackTo(target, action(l.actionRef())), TlaState.EMPTY);
            }
            default -> throw new IllegalStateException("unknown state label " + label.getClass());
        };
    }

    private TraceStep.Action action(TlcToolParser.ActionRefContext ref) {
        SourceRange range =
                new SourceRange(
                        number(ref.NUMBER(0)), number(ref.NUMBER(1)), number(ref.NUMBER(2)), number(ref.NUMBER(3)));
        return new TraceStep.Action(ref.name(0).getText(), ref.name(1).getText(), range);
    }

    private TlaState state(ParserRuleContext label, TlcToolParser.StateBodyContext body) {
        if (isEmpty(body)) {
            // The body is missing entirely: point at the closing marker that came too early.
            Token next = tokens.get(label.stop.getTokenIndex() + 1);
            throw new ParseException(
                    source,
                    next.getLine(),
                    next.getCharPositionInLine(),
                    "expected the state's \"/\\ var = value\" lines after \"" + text(label).strip() + "\"");
        }
        return TlaValueReader.state(source, text(body), body.start.getLine());
    }

    private void requireBlank(TlcToolParser.StateBodyContext body, String what) {
        if (!isEmpty(body) && !text(body).isBlank()) {
            Token first = body.TEXT(0).getSymbol();
            throw new ParseException(
                    source,
                    first.getLine(),
                    first.getCharPositionInLine(),
                    what + " has no variables, found \"" + first.getText() + "\"");
        }
    }

    private void checkFooter(int code, TlcToolParser.FooterContext footer) {
        int closing = number(footer.CODE());
        if (closing != code) {
            Token at = footer.CODE().getSymbol();
            throw new ParseException(
                    source,
                    at.getLine(),
                    at.getCharPositionInLine(),
                    "frame opened with code " + code + " but closes with " + closing);
        }
    }

    private Severity severity(Token token) {
        int level = number(token);
        return Severity.of(level)
                .orElseThrow(
                        () ->
                                new ParseException(
                                        source,
                                        token.getLine(),
                                        token.getCharPositionInLine(),
                                        "unknown severity " + level + " (expected 0 to 4)"));
    }

    private int number(org.antlr.v4.runtime.tree.TerminalNode node) {
        return number(node.getSymbol());
    }

    private int number(Token t) {
        try {
            return Integer.parseInt(t.getText());
        } catch (NumberFormatException e) {
            throw new ParseException(
                    source, t.getLine(), t.getCharPositionInLine(), "number " + t.getText() + " is out of range");
        }
    }

    private static boolean isEmpty(ParserRuleContext ctx) {
        return ctx.getChildCount() == 0;
    }

    /** The exact input text a rule matched, line breaks included; empty for an empty match. */
    private String text(ParserRuleContext ctx) {
        if (isEmpty(ctx)) {
            return "";
        }
        return ctx.start.getInputStream().getText(Interval.of(ctx.start.getStartIndex(), ctx.stop.getStopIndex()));
    }
}
