package io.proofgate.graph;

import io.proofgate.tlc.ParseException;
import io.proofgate.tlc.ThrowingErrorListener;
import io.proofgate.tlc.TlcDotLexer;
import io.proofgate.tlc.TlcDotParser;
import io.proofgate.value.TlaState;
import io.proofgate.value.TlaValueReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.SequencedMap;
import java.util.SequencedSet;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.CommonTokenStream;
import org.antlr.v4.runtime.Token;

/** Reads the dot file of {@code -dump dot[,colorize],actionlabels FILE} into a {@link StateGraph}. */
public final class StateGraphReader {
    /** TLC's colorize option adds this cluster; its nodes are action names, not states. */
    private static final String LEGEND = "cluster_legend";

    private final String source;
    private final SequencedMap<Long, TlaState> states = new LinkedHashMap<>();
    private final SequencedSet<Long> initial = new LinkedHashSet<>();
    private final List<Edge> edges = new ArrayList<>();
    /** Where each id was first mentioned, to report an edge or rank entry that names no state. */
    private final SequencedMap<Long, Token> mentions = new LinkedHashMap<>();

    private StateGraphReader(String source) {
        this.source = source;
    }

    public static StateGraph read(Path file) throws IOException {
        return read(file.toString(), Files.readString(file, StandardCharsets.UTF_8));
    }

    public static StateGraph read(String source, String text) {
        try {
            return read(source, text, org.antlr.v4.runtime.atn.PredictionMode.SLL);
        } catch (ParseException e) {
            // SLL may reject what full LL accepts; the second pass also gives the exact error
            return read(source, text, org.antlr.v4.runtime.atn.PredictionMode.LL);
        }
    }

    private static StateGraph read(String source, String text, org.antlr.v4.runtime.atn.PredictionMode mode) {
        TlcDotLexer lexer = new TlcDotLexer(CharStreams.fromString(text, source));
        TlcDotParser parser = new TlcDotParser(new CommonTokenStream(lexer));
        parser.getInterpreter().setPredictionMode(mode);
        new ThrowingErrorListener(source, 0).installOn(lexer, parser);
        StateGraphReader reader = new StateGraphReader(source);
        reader.statements(parser.graph().stmt());
        return reader.graph();
    }

    private void statements(List<TlcDotParser.StmtContext> statements) {
        for (TlcDotParser.StmtContext stmt : statements) {
            switch (stmt) {
                case TlcDotParser.NodeStmtContext n -> node(n);
                case TlcDotParser.EdgeStmtContext e -> edge(e);
                case TlcDotParser.SubgraphStmtContext s -> {
                    boolean legend = s.id() != null && unquote(s.id()).equals(LEGEND);
                    if (!legend) {
                        statements(s.stmt());
                    }
                }
                case TlcDotParser.AnonymousSubgraphStmtContext s -> statements(s.stmt());
                case TlcDotParser.GraphAttrStmtContext a -> { /* layout only */ }
                case TlcDotParser.DefaultAttrStmtContext a -> { /* layout only */ }
                default -> throw new IllegalStateException("unknown statement " + stmt.getClass());
            }
        }
    }

    private void node(TlcDotParser.NodeStmtContext n) {
        long id = fingerprint(n.nodeId());
        Optional<TlcDotParser.AttrContext> label = attr(n.attrList(), "label");
        if (label.isEmpty()) {
            // A bare id, as in "{rank = same; id;id;}": a reference, not a definition.
            mentions.putIfAbsent(id, n.start);
            return;
        }
        Token labelToken = label.get().id(1).start;
        TlaState state = state(labelToken);
        if (states.putIfAbsent(id, state) != null) {
            throw error(n.start, "state " + id + " is defined twice");
        }
        mentions.putIfAbsent(id, n.start);
        // TLC marks initial states with style = filled.
        if (attr(n.attrList(), "style").map(a -> unquote(a.id(1))).filter("filled"::equals).isPresent()) {
            initial.add(id);
        }
    }

    private void edge(TlcDotParser.EdgeStmtContext e) {
        long from = fingerprint(e.nodeId(0));
        long to = fingerprint(e.nodeId(1));
        mentions.putIfAbsent(from, e.nodeId(0).start);
        mentions.putIfAbsent(to, e.nodeId(1).start);
        edges.add(new Edge(from, to, attr(e.attrList(), "label").map(a -> unquote(a.id(1)))));
    }

    /** The label is the state printed by TLC, escaped for DOT; errors point at the label. */
    private TlaState state(Token label) {
        if (label.getType() != TlcDotLexer.STRING) {
            throw error(label, "expected a quoted state label, found " + label.getText());
        }
        try {
            return TlaValueReader.state(source, DotLabel.unescape(label.getText()));
        } catch (ParseException inner) {
            throw error(label, "in state label (its line " + inner.line() + ", column " + inner.column() + "): "
                    + inner.detail());
        }
    }

    private StateGraph graph() {
        for (var mention : mentions.entrySet()) {
            if (!states.containsKey(mention.getKey())) {
                throw error(mention.getValue(), "state " + mention.getKey() + " has no label anywhere in the file");
            }
        }
        return new StateGraph(states, initial, edges);
    }

    private long fingerprint(TlcDotParser.NodeIdContext node) {
        Token t = node.start;
        try {
            return Long.parseLong(unquote(node.id()));
        } catch (NumberFormatException e) {
            throw error(t, "expected a state fingerprint (a 64-bit integer), found " + t.getText());
        }
    }

    private static Optional<TlcDotParser.AttrContext> attr(TlcDotParser.AttrListContext list, String name) {
        if (list == null) {
            return Optional.empty();
        }
        return list.attr().stream().filter(a -> unquote(a.id(0)).equals(name)).findFirst();
    }

    private static String unquote(TlcDotParser.IdContext id) {
        return id.STRING() != null ? DotLabel.unescape(id.getText()) : id.getText();
    }

    private ParseException error(Token at, String detail) {
        return new ParseException(source, at.getLine(), at.getCharPositionInLine(), detail);
    }
}
