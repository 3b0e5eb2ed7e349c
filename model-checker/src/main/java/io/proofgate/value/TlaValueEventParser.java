package io.proofgate.value;

import io.proofgate.parse.ParseEvents;

import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.TokenStream;

/** The TLA+ value parser, handing each rule's start and end to {@link ParseEvents} (which says why) as it parses. */
final class TlaValueEventParser extends TlaValueParser {
    private final ParseEvents events;

    TlaValueEventParser(TokenStream input, ParseEvents events) {
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
