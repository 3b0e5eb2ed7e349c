/*
 * TLA+ values as TLC 2.18 prints them in traces, `-dump dot` labels and `-simulate` trace modules.
 *
 * TLC behaviour relied on (docs/tlc-output.md, "Values", and the samples in src/test/resources/tlc/):
 *  - Integers (negative too), strings, TRUE/FALSE, model values as bare names, records
 *    [a |-> 1, b |-> "x"], sequences and tuples <<1, 2>>, sets {1, 2}, functions
 *    (k1 :> v1 @@ k2 :> v2), and any nesting of these.
 *  - Strings are printed with TLA+ escapes: "a\"b\\c", "start\tline\n".
 *  - A function whose domain is 1..n prints as a sequence, one whose domain is a set of strings
 *    prints as a record, and the empty function prints as <<>>; so a function here has at least
 *    one pair and a record at least one field.
 *  - Long values are wrapped over several indented lines, so whitespace (newlines included)
 *    is insignificant between tokens.
 *  - A state is "/\ var = value" lines, or a bare "var = value" when the spec has one variable.
 *  - `-simulate file=PREFIX` writes "---------------- MODULE PREFIX_w_n -----------------", then
 *    "STATE_k == " followed by a state, then a line of "=". PREFIX may be a path, so the header
 *    is one token.
 *
 * No actions: TlaValueBuilder builds the values from the rules' exit events, either while the
 * parser runs (a state graph has millions of values, so StateReader builds no tree) or from a
 * tree walk (the other readers, and the second pass that words an error). Tokens a builder
 * reads are labelled, since a parse without a tree keeps labels but no children.
 */
grammar TlaValue;

/** One value and nothing else, e.g. a label or a test input. */
valueOnly
    : value EOF
    ;

/** One state: a trace state's body or a `-dump dot` label. */
state
    : stateFormula EOF
    ;

stateFormula
    : assignment          # singleVariable
    | conjunct+           # conjunction
    ;

conjunct
    : CONJ assignment
    ;

assignment
    : name=IDENT EQ value
    ;

value
    // An integer, or an interval 1..3 (TLC prints one it has not enumerated that way). One
    // alternative, not two, so that every choice of a value is made on its first token: a
    // state graph has millions of values, and a choice that needs a second token costs a
    // prediction (ANTLR's adaptivePredict) for each.
    : low=INT (DOTDOT high=INT)?                            # intValue
    | STRING                                                # stringValue
    | (TRUE | FALSE)                                        # boolValue
    | IDENT                                                 # modelValue
    | LBRACK field (COMMA field)* RBRACK                    # recordValue
    | LTUPLE (value (COMMA value)*)? RTUPLE                 # seqValue
    | LBRACE (value (COMMA value)*)? RBRACE                 # setValue
    | LPAREN mapping (FN_MERGE mapping)* RPAREN             # fnValue
    ;

field
    : name=IDENT MAPSTO value
    ;

mapping
    : value FN_PAIR value
    ;

TRUE     : 'TRUE' ;
FALSE    : 'FALSE' ;
EQ       : '=' ;
CONJ     : '/\\' ;
MAPSTO   : '|->' ;
FN_PAIR  : ':>' ;
FN_MERGE : '@@' ;
DOTDOT   : '..' ;
LTUPLE   : '<<' ;
RTUPLE   : '>>' ;
LBRACK   : '[' ;
RBRACK   : ']' ;
LBRACE   : '{' ;
RBRACE   : '}' ;
LPAREN   : '(' ;
RPAREN   : ')' ;
COMMA    : ',' ;

// TLC prints negative integers with a leading minus and no space: -1.
INT      : '-'? [0-9]+ ;
STRING   : '"' ( '\\' [\\"ntrf] | ~[\\"\r\n] )* '"' ;
IDENT    : [A-Za-z_] [A-Za-z0-9_]* ;

WS       : [ \t\r\n]+ -> skip ;
