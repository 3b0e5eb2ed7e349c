/*
 * The subset of Graphviz DOT that TLC 2.18 writes with `-dump dot[,colorize][,actionlabels] FILE`.
 *
 * TLC behaviour relied on (shared/TLC-NOTES.md, samples graph.dot and graph_colorize.dot):
 *  - "strict digraph DiskGraph {", graph attributes ("nodesep=0.35;", "edge [colorscheme=...]"),
 *    one "subgraph cluster_graph { ... }" holding every state, then with `colorize` a
 *    "subgraph cluster_legend { ... }" whose nodes are action names, not states.
 *  - Node ids are 64-bit state fingerprints, negative too: "-510541576968651682 [label=...]".
 *  - "node ids are 64-bit state fingerprints (they change with -fp/seed), node labels are the
 *    state as /\ var = value lines with \\ and \n escapes"; initial states carry "style = filled".
 *  - Edges "a -> b [label="Take",color="black",fontcolor="black"];": "edge labels carry the
 *    action name only, no parameters".
 *  - "{rank = same; id;id;}" groups states by BFS level; attributes are separated by ",", ";"
 *    or nothing ("label = "Next State Actions" style="solid"").
 * Labels stay escaped here; `DotLabel` unescapes them and `TlaValue`'s `state` rule parses them.
 *
 * A dump has hundreds of thousands of statements, so the parser hands each node and edge to
 * `statements` as soon as it is parsed (StateGraphReader parses without building a tree): a tree
 * and token list of a whole 55 MB dump hold about 1 GB, which the garbage collector copies over
 * and over. The actions run only for a statement parsed without error; the first syntax error
 * ends the parse.
 */
grammar TlcDot;

@parser::members {
    /** Receives the statements in file order; attributes are name and value tokens, alternating. */
    public interface Statements {
        void node(Token id, java.util.List<Token> attributes);

        void edge(Token from, Token to, java.util.List<Token> attributes);

        /** An edge in TLC's own one-line form, lexed as one {@code TLC_EDGE} token. */
        void tlcEdge(Token edge);

        /** @param name null for an anonymous subgraph ({@code { ... }}) */
        void enterSubgraph(Token name);

        void exitSubgraph();
    }

    private Statements statements;
    private final java.util.List<Token> attributes = new java.util.ArrayList<>();

    public void setStatements(Statements statements) {
        this.statements = statements;
    }
}

graph
    : STRICT? DIGRAPH id? LBRACE stmt* RBRACE EOF
    ;

stmt
@init { attributes.clear(); }
    : TLC_EDGE                                              { statements.tlcEdge($TLC_EDGE); }                        # tlcEdgeStmt
    | from=nodeId ARROW to=nodeId attrList? SEMI?           { statements.edge($from.start, $to.start, attributes); }    # edgeStmt
    | id EQ id SEMI?                                        # graphAttrStmt
    | (GRAPH | NODE | EDGE) attrList SEMI?                  # defaultAttrStmt
    | SUBGRAPH name=id? LBRACE                              { statements.enterSubgraph($name.start); }
      stmt* RBRACE SEMI?                                    { statements.exitSubgraph(); }                          # subgraphStmt
    | LBRACE                                                { statements.enterSubgraph(null); }
      stmt* RBRACE SEMI?                                    { statements.exitSubgraph(); }                          # anonymousSubgraphStmt
    | nodeId attrList? SEMI?                                { statements.node($nodeId.start, attributes); }             # nodeStmt
    ;

attrList
    : LBRACK (attr (COMMA | SEMI)?)* RBRACK
    ;

attr
    : name=id EQ value=id                                   { attributes.add($name.start); attributes.add($value.start); }
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
