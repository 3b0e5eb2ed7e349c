/*
 * TLC 2.18's `-tool` output: frames, free text between them, and trace states.
 *
 * TLC behaviour relied on: see TlcToolLexer. A frame's code is repeated in its closing marker
 * ("@!@!@ENDMSG 2217 @!@!@"); the builder checks that the two agree. Trace-state bodies are
 * kept as text here and parsed by TlaValue's `state` rule, so values have one grammar.
 */
parser grammar TlcToolParser;

options {
    tokenVocab = TlcToolLexer;
}

output
    : chunk* EOF
    ;

chunk
    : message      # frameChunk
    | TEXT         # textChunk
    | NL           # blankChunk
    ;

message
    : STARTMSG TRACE_CODE COLON severity=CODE HEADER_END stateLabel stateBody footer   # traceMessage
    | STARTMSG code=CODE COLON severity=CODE HEADER_END messageBody footer                 # textMessage
    ;

footer
    : ENDMSG CODE FOOTER_END
    ;

/** The first line of a trace state: its number, then what led to it. */
stateLabel
    : NUMBER COLON LT INITIAL_PREDICATE GT LABEL_END             # initialLabel
    | NUMBER COLON actionRef LABEL_END                            # actionLabel
    | NUMBER COLON STUTTERING LABEL_END                           # stutteringLabel
    | NUMBER COLON BACK_TO_STATE COLON actionRef LABEL_END        # backToStateLabel
    ;

/** "<Inc line 18, col 8 to line 23, col 23 of module Tiny>" */
actionRef
    : LT name LINE NUMBER COMMA COL NUMBER TO LINE NUMBER COMMA COL NUMBER OF_MODULE name GT
    ;

// An action or module may be called like a keyword of the label line.
name
    : NAME
    | LINE
    | COL
    | TO
    | STUTTERING
    ;

stateBody
    : (TEXT | NL)*
    ;

messageBody
    : (TEXT | NL | message)*
    ;
