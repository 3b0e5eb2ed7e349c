/*
 * TLA+ values as TLC 2.18 prints them in traces, `-dump dot` labels and `-simulate` trace modules.
 *
 * TLC behaviour relied on (shared/TLC-NOTES.md, and the samples in src/test/resources/tlc/):
 *  - "Values in traces: integers (negative too), strings, TRUE/FALSE, model values (bare names),
 *    records [a |-> 1, b |-> "x"], sequences and tuples <<1, 2>>, sets {1, 2}, functions
 *    (k1 :> v1 @@ k2 :> v2), and nesting of all of these."
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
 * Values are built in two ways. A state graph has millions of values, so StateReader parses
 * without a tree and the actions below hand each value to `values` as it is parsed (a stack
 * machine: `open` marks where a collection's elements start). Other readers, and the second pass
 * that words an error, walk the tree (TlaValueBuilder); then `values` is `Values.NONE`.
 */
grammar TlaValue;

@parser::members {
    /** Receives every value as soon as it is parsed, innermost first; each method ignores it unless overridden. */
    public interface Values {
        default void integer(Token t) { }

        default void interval(Token low, Token high) { }

        default void string(Token t) { }

        default void bool(Token t) { }

        default void modelValue(Token t) { }

        /** A record, sequence, set or function starts; its elements follow. */
        default void open() { }

        default void record() { }

        default void sequence() { }

        default void set() { }

        default void function() { }

        /** The value just built is the field's. */
        default void field(Token name) { }

        /** The two values just built are a function's key and value. */
        default void pair() { }

        /** The value just built is the variable's. */
        default void assignment(Token variable) { }

        /** Takes no notice: for a parse that walks the tree afterwards. */
        Values NONE = new Values() { };
    }

    private Values values = Values.NONE;

    public void setValues(Values values) {
        this.values = values;
    }
}

/** One value and nothing else, e.g. a label or a test input. */
valueOnly
    : value EOF
    ;

/** One state: a trace state's body, a `-dump dot` label, or a `STATE_k ==` definition. */
state
    : stateFormula EOF
    ;

/** A `-simulate` trace module. */
traceModule
    : MODULE_HEADER stateDefinition* MODULE_END EOF
    ;

stateDefinition
    : IDENT DEFINES stateFormula
    ;

stateFormula
    : assignment          # singleVariable
    | conjunct+           # conjunction
    ;

conjunct
    : CONJ assignment
    ;

assignment
    : IDENT EQ value                                       { values.assignment($IDENT); }
    ;

value
    // An integer, or an interval 1..3 (TLC prints one it has not enumerated that way). One
    // alternative, not two, so that every choice of a value is made on its first token: a
    // state graph has millions of values, and a choice that needs a second token costs a
    // prediction (ANTLR's adaptivePredict) for each.
    : low=INT (DOTDOT high=INT)?                           { if ($high == null) values.integer($low); else values.interval($low, $high); } # intValue
    | STRING                                               { values.string($STRING); }              # stringValue
    | (TRUE | FALSE)                                       { values.bool($start); }                 # boolValue
    | IDENT                                                { values.modelValue($IDENT); }           # modelValue
    | LBRACK { values.open(); } field (COMMA field)* RBRACK { values.record(); }                     # recordValue
    | LTUPLE { values.open(); } (value (COMMA value)*)? RTUPLE { values.sequence(); }                # seqValue
    | LBRACE { values.open(); } (value (COMMA value)*)? RBRACE { values.set(); }                     # setValue
    | LPAREN { values.open(); } mapping (FN_MERGE mapping)* RPAREN { values.function(); }            # fnValue
    ;

field
    : IDENT MAPSTO value                                   { values.field($IDENT); }
    ;

mapping
    : value FN_PAIR value                                  { values.pair(); }
    ;

// TLC's module banner: at least four dashes, the word MODULE, a name or a path, dashes.
MODULE_HEADER : '----' '-'* [ \t]+ 'MODULE' [ \t]+ ~[ \t\r\n]+ [ \t]+ '----' '-'* ;
MODULE_END    : '====' '='* ;

TRUE     : 'TRUE' ;
FALSE    : 'FALSE' ;
DEFINES  : '==' ;
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
