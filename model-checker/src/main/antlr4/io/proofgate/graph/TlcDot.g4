/*
 * The subset of Graphviz DOT that TLC 2.18 writes with `-dump dot[,colorize][,actionlabels] FILE`.
 *
 * TLC behaviour relied on (docs/tlc-output.md, "State graphs", samples graph.dot and graph_colorize.dot):
 *  - "strict digraph DiskGraph {", graph attributes ("nodesep=0.35;", "edge [colorscheme=...]"),
 *    one "subgraph cluster_graph { ... }" holding every state, then with `colorize` a
 *    "subgraph cluster_legend { ... }" whose nodes are action names, not states.
 *  - Node ids are 64-bit state fingerprints, negative too ("-510541576968651682 [label=...]"),
 *    which change with TLC's fingerprint seed; node labels are the state as "/\ var = value"
 *    lines with \\ and \n escapes; initial states carry "style = filled".
 *  - Edges "a -> b [label="Take",color="black",fontcolor="black"];": edge labels carry the
 *    action name only, no parameters.
 *  - "{rank = same; id;id;}" groups states by BFS level; attributes are separated by ",", ";"
 *    or nothing ("label = "Next State Actions" style="solid"").
 * Labels stay escaped here; `DotLabel` unescapes them and `TlaValue`'s `state` rule parses them.
 *
 * A dump has hundreds of thousands of statements, so StateGraphReader reads each node and edge
 * from its rule's exit as the parser goes, without a tree: a tree and token list of a whole
 * 55 MB dump hold about 1 GB, which the garbage collector copies over and over. No actions: the
 * tokens the reader needs are labelled, since a parse without a tree keeps labels but no
 * children, and a subgraph's opening is a rule of its own, so that its exit says that the
 * subgraph's statements follow.
 */
grammar TlcDot;

graph
    : STRICT? DIGRAPH id? LBRACE stmt* RBRACE EOF
    ;

stmt
    : TLC_EDGE                                              # tlcEdgeStmt
    | from=nodeId ARROW to=nodeId attrList? SEMI?           # edgeStmt
    | id EQ id SEMI?                                        # graphAttrStmt
    | (GRAPH | NODE | EDGE) attrList SEMI?                  # defaultAttrStmt
    | subgraphOpen stmt* RBRACE SEMI?                       # subgraphStmt
    | node=nodeId attrList? SEMI?                           # nodeStmt
    ;

/** A named subgraph's start, or an anonymous one's ({@code { ... }}). */
subgraphOpen
    : SUBGRAPH name=id? LBRACE
    | LBRACE
    ;

attrList
    : LBRACK (attr (COMMA | SEMI)?)* RBRACK
    ;

attr
    : name=id EQ value=id
    ;

nodeId
    : id
    ;

id
    : IDENT
    | NUMERAL
    | STRING
    ;

// DOT keywords are case-insensitive; TLC writes them in lower case.
STRICT   : 'strict' ;
DIGRAPH  : 'digraph' ;
SUBGRAPH : 'subgraph' ;
GRAPH    : 'graph' ;
NODE     : 'node' ;
EDGE     : 'edge' ;

ARROW    : '->' ;
LBRACE   : '{' ;
RBRACE   : '}' ;
LBRACK   : '[' ;
RBRACK   : ']' ;
EQ       : '=' ;
SEMI     : ';' ;
COMMA    : ',' ;

// TLC writes each edge on one line, "A -> B [label="Next",color="black",fontcolor="black"];".
// Lexed as one token, an edge costs the parser one step instead of seventeen (a dump of the
// interleaved model has 300,000 edges, 45% of the reading time as separate tokens). Any other
// spelling of an edge (other attributes, other spacing, a line break in a label) does not match
// here and is lexed by the rules below, as before. The line break after it is part of the token:
// one skipped WS token (a whole lexer cycle and its skip action) fewer per edge.
TLC_EDGE : EDGE_END ' -> ' EDGE_END ' [' EDGE_ATTR ( ',' EDGE_ATTR )* '];' '\r'? '\n'? ;
fragment EDGE_END  : '-'? [0-9]+ ;
fragment EDGE_ATTR : ( 'label' | 'color' | 'fontcolor' ) '=' '"' ( '\\' ~[\r\n] | ~[\\"\r\n] )* '"' ;

NUMERAL  : '-'? ( [0-9]+ ( '.' [0-9]* )? | '.' [0-9]+ ) ;
// In DOT only \" is an escape of the language; TLC also writes \\ and \n, which pass through.
STRING   : '"' ( '\\' . | ~[\\"] )* '"' ;
IDENT    : [A-Za-z_\u0080-\uFFFF] [A-Za-z0-9_\u0080-\uFFFF]* ;

LINE_COMMENT  : '//' ~[\r\n]* -> skip ;
BLOCK_COMMENT : '/*' .*? '*/' -> skip ;
WS            : [ \t\r\n]+ -> skip ;
