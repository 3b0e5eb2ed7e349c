/*
 * Tokens of TLC 2.18's `-tool` output.
 *
 * TLC behaviour relied on (docs/tlc-output.md, "Tool mode", samples *.out in src/test/resources/tlc/):
 *  - "-tool frames every message as @!@!@STARTMSG code:severity @!@!@ ... @!@!@ENDMSG code @!@!@",
 *    each marker on a line of its own; SANY's "Parsing file ..." lines and its semantic errors
 *    are printed between frames.
 *  - A trace state is one frame per state: 2217 "N: <Action line L, col C to line L2, col C2 of
 *    module M>" or "N: <Initial predicate>", then the state as "/\ var = value" lines (a bare
 *    "var = value" for one variable), wrapped and indented when long, then an empty line.
 *  - A liveness counterexample ends with 2218 "N: Stuttering" (no state lines) or with 2122
 *    "N: Back to state: <Action line ... of module M>" (N is the state the lasso returns to).
 * Modes: between frames (default), the frame header, a message body, the first line of a trace
 * state, the trace state's body, and the closing marker. The lexer picks the trace modes from
 * the code itself (2217, 2218, 2122), so the parser needs no predicates.
 */
lexer grammar TlcToolLexer;

// Between frames: whole lines of free text.
STARTMSG : '@!@!@STARTMSG' [ \t]+ -> pushMode(HEADER) ;
TEXT     : ( ~[@\r\n] | '@' ~[!\r\n] ) ~[\r\n]* ;
NL       : '\r'? '\n' ;

mode HEADER;
// Same length as CODE, but listed first, so these three codes win and open the trace modes.
TRACE_CODE  : ( '2217' | '2218' | '2122' ) -> mode(TRACE_HEADER) ;
CODE        : [0-9]+ ;
COLON       : ':' ;
HEADER_END  : [ \t]* '@!@!@' [ \t]* '\r'? '\n' -> mode(BODY) ;

mode TRACE_HEADER;
TH_COLON      : ':' -> type(COLON) ;
TH_SEVERITY   : [0-9]+ -> type(CODE) ;
TH_HEADER_END : [ \t]* '@!@!@' [ \t]* '\r'? '\n' -> type(HEADER_END), mode(STATE_LABEL) ;

mode BODY;
ENDMSG    : '@!@!@ENDMSG' [ \t]+ -> mode(FOOTER) ;
// A frame can open inside another's body: TLC wraps a config error (5006) in a general error
// (1000) as ": @!@!@STARTMSG 5006:0 @!@!@ ... @!@!@ENDMSG 5006 @!@!@" and then closes 1000.
// Body text therefore stops before "@!"; a nested STARTMSG pushes a frame, its footer pops it.
BODY_STARTMSG : '@!@!@STARTMSG' [ \t]+ -> type(STARTMSG), pushMode(HEADER) ;
BODY_TEXT : ( ~[@\r\n] | '@' ~[!\r\n] )+ -> type(TEXT) ;
BODY_AT   : '@' '!'? -> type(TEXT) ;
BODY_NL   : '\r'? '\n' -> type(NL) ;

mode STATE_LABEL;
INITIAL_PREDICATE : 'Initial predicate' ;
STUTTERING        : 'Stuttering' ;
BACK_TO_STATE     : 'Back to state' ;
LINE              : 'line' ;
COL               : 'col' ;
TO                : 'to' ;
OF_MODULE         : 'of module' ;
LT                : '<' ;
GT                : '>' ;
COMMA             : ',' ;
SL_COLON          : ':' -> type(COLON) ;
NUMBER            : [0-9]+ ;
NAME              : [A-Za-z_] [A-Za-z0-9_]* ;
SL_WS             : [ \t]+ -> skip ;
LABEL_END         : '\r'? '\n' -> mode(STATE_BODY) ;

mode STATE_BODY;
SB_ENDMSG : '@!@!@ENDMSG' [ \t]+ -> type(ENDMSG), mode(FOOTER) ;
SB_TEXT   : ( ~[@\r\n] | '@' ~[!\r\n] ) ~[\r\n]* -> type(TEXT) ;
SB_NL     : '\r'? '\n' -> type(NL) ;

mode FOOTER;
FOOTER_CODE : [0-9]+ -> type(CODE) ;
// The last frame of a file may lack its final newline.
FOOTER_END  : [ \t]* '@!@!@' [ \t]* ( '\r'? '\n' )? -> popMode ;
