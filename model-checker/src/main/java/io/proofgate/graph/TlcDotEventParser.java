package io.proofgate.graph;

import io.proofgate.parse.ParseEvents;

import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.TokenStream;

/** The dot parser, handing each rule's start and end to {@link ParseEvents} (which says why) as it parses. */
final class TlcDotEventParser extends TlcDotParser {
    private final ParseEvents events;

    TlcDotEventParser(TokenStream input, ParseEvents events) {
        super(input);
        this.events = events;
    }

    @Override
    public void enterRule(ParserRuleContext ctx, int state, int ruleIndex) {
        super.enterRule(ctx, state, ruleIndex);
        events.enterEveryRule(ctx);
    }

    @Override
    public void exitRule() {
        ParserRuleContext ended = _ctx;
        super.exitRule();
        events.exitEveryRule(ended);
    }
}
