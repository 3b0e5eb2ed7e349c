package io.proofgate.graph;

import io.proofgate.parse.AsciiRanges;
import io.proofgate.parse.AsciiStream;
import io.proofgate.parse.ParseEvents;
import io.proofgate.parse.ParseException;
import io.proofgate.parse.ThrowingErrorListener;
import io.proofgate.parse.WindowTokenStream;
import io.proofgate.value.StateReader;
import io.proofgate.value.TlaState;

import org.antlr.v4.runtime.BailErrorStrategy;
import org.antlr.v4.runtime.CharStream;
import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.CommonToken;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.Token;
import org.antlr.v4.runtime.TokenSource;
import org.antlr.v4.runtime.atn.PredictionMode;
import org.antlr.v4.runtime.misc.Pair;
import org.antlr.v4.runtime.misc.ParseCancellationException;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.SequencedMap;
import java.util.SequencedSet;

/**
 * Reads the dot file of {@code -dump dot[,colorize],actionlabels FILE} into a {@link StateGraph}.
 *
 * <p>Each statement is read from its rule's exit as the parser goes ({@link ParseEvents}); a state graph has millions
 * of tokens, and neither they nor a parse tree are kept. Errors come out as if the whole file were parsed first and the
 * statements read after: a syntax error anywhere wins over an error in a statement (a bad state label, a state defined
 * twice), and of those the first in the file.
 */
public final class StateGraphReader extends TlcDotBaseListener {
    /** TLC's colorize option adds this cluster; its nodes are action names, not states. */
    private static final String LEGEND = "cluster_legend";

    /** Distinct action names to keep one {@code Optional} of each for; a model has a handful. */
    private static final int ACTIONS_KEPT = 64;

    private final String source;

    /**
     * The dot file's bytes when they are all ASCII, so that a byte index is a char index and a code point index (ANTLR
     * counts code points): the lexer reads them as they are, and labels, ids and action names are read straight from
     * them. Null otherwise: then every part is read from its token's text.
     */
    private final byte[] bytes;

    private final StateReader labels;
    private byte[] label = new byte[1024];
    private final List<Optional<String>> actions = new ArrayList<>();

    /** A one-token edge's attribute tokens; {@link #edge} reads them and keeps none. */
    private final List<Token> edgeAttributes = new ArrayList<>(6);

    /** The current statement's attributes, name and value tokens alternating. */
    private final List<Token> attributes = new ArrayList<>();

    /** The reader's events while the parser runs, and the first error found in a statement. */
    private final ParseEvents events = new ParseEvents(this);

    private final SequencedMap<Long, TlaState> states = new LinkedHashMap<>();
    private final SequencedSet<Long> initial = new LinkedHashSet<>();
    private final List<Edge> edges = new ArrayList<>();

    /**
     * Every reference to an id (an edge's ends, a bare id in a rank), in file order, and where it is (line and column
     * in one long), to report the first that names no state once all states are known; definitions are not kept, since
     * a defined id always has its state.
     */
    private long[] mentionIds = new long[1024];

    private long[] mentionPositions = new long[1024];
    private int mentions;

    /** Above zero inside the legend cluster, whose statements are skipped. */
    private int legendDepth;

    private StateGraphReader(String source, byte[] bytes) {
        this.source = source;
        this.bytes = bytes;
        this.labels = new StateReader(source);
    }

    /**
     * @throws CharacterCodingException if the file is not UTF-8
     */
    public static StateGraph read(Path file) throws IOException {
        return read(file.toString(), Files.readAllBytes(file));
    }

    /**
     * Reads a dot file's UTF-8 bytes. TLC writes ASCII, which is lexed straight from the bytes; other text is decoded
     * first.
     *
     * @throws CharacterCodingException if the bytes are not UTF-8
     */
    public static StateGraph read(String source, byte[] utf8) throws CharacterCodingException {
        if (AsciiRanges.isAscii(utf8, utf8.length)) {
            return read(source, null, utf8);
        }
        return read(source, StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(utf8)).toString(), null);
    }

    public static StateGraph read(String source, String text) {
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) >= 0x80) {
                return read(source, text, null);
            }
        }
        return read(source, null, text.getBytes(StandardCharsets.US_ASCII));
    }

    /**
     * @param ascii the text as bytes if it is all ASCII, else null and {@code text} is the text
     */
    private static StateGraph read(String source, String text, byte[] ascii) {
        StateGraphReader reader;
        try {
            reader = parse(source, text, ascii, true);
        } catch (ParseException | ParseCancellationException e) {
            // SLL may reject what full LL accepts; the second pass also gives the exact error
            reader = parse(source, text, ascii, false);
        }
        return reader.graph();
    }

    /**
     * @param fast ANTLR's first stage of two: SLL prediction, and the first syntax error ends the parse without an
     *     attempt to recover or word it; else full LL and errors as {@link ThrowingErrorListener} words them
     */
    private static StateGraphReader parse(String source, String text, byte[] ascii, boolean fast) {
        CharStream input =
                ascii != null
                        ? new AsciiStream(source).reset(ascii, ascii.length)
                        : CharStreams.fromString(text, source);
        TlcDotLexer lexer = new TlcDotLexer(input);
        StateGraphReader reader = new StateGraphReader(source, ascii);
        TlcDotParser parser = new TlcDotEventParser(new WindowTokenStream(lexer), reader.events);
        parser.setBuildParseTree(false);
        new ThrowingErrorListener(source, 0).installOn(lexer, parser);
        if (fast) {
            parser.getInterpreter().setPredictionMode(PredictionMode.SLL);
            parser.setErrorHandler(new BailErrorStrategy());
            parser.removeErrorListeners();
        } else {
            parser.getInterpreter().setPredictionMode(PredictionMode.LL);
        }
        parser.graph();
        return reader;
    }

    @Override
    public void exitSubgraphOpen(TlcDotParser.SubgraphOpenContext ctx) {
        enterSubgraph(ctx.name == null ? null : ctx.name.start);
    }

    @Override
    public void exitSubgraphStmt(TlcDotParser.SubgraphStmtContext ctx) {
        exitSubgraph();
    }

    @Override
    public void exitAttr(TlcDotParser.AttrContext ctx) {
        attributes.add(ctx.name.start);
        attributes.add(ctx.value.start);
    }

    @Override
    public void exitNodeStmt(TlcDotParser.NodeStmtContext ctx) {
        node(ctx.node.start, attributes);
    }

    @Override
    public void exitEdgeStmt(TlcDotParser.EdgeStmtContext ctx) {
        edge(ctx.from.start, ctx.to.start, attributes);
    }

    @Override
    public void exitTlcEdgeStmt(TlcDotParser.TlcEdgeStmtContext ctx) {
        tlcEdge(ctx.start);
    }

    /** A statement's attributes are its own. */
    @Override
    public void exitEveryRule(ParserRuleContext ctx) {
        if (ctx.getRuleIndex() == TlcDotParser.RULE_stmt) {
            attributes.clear();
        }
    }

    /**
     * @param name null for an anonymous subgraph
     */
    private void enterSubgraph(Token name) {
        if (legendDepth > 0 || (name != null && unquote(name).equals(LEGEND))) {
            legendDepth++;
        }
    }

    private void exitSubgraph() {
        if (legendDepth > 0) {
            legendDepth--;
        }
    }

    private void node(Token idToken, List<Token> attributes) {
        if (legendDepth > 0) {
            return;
        }
        long id = fingerprint(idToken);
        Token labelToken = attr(attributes, "label");
        if (labelToken == null) {
            // A bare id, as in "{rank = same; id;id;}": a reference, not a definition.
            mention(id, idToken);
            return;
        }
        TlaState state = state(labelToken);
        if (states.putIfAbsent(id, state) != null) {
            throw error(idToken, "state " + id + " is defined twice");
        }
        // TLC marks initial states with style = filled.
        Token style = attr(attributes, "style");
        if (style != null && unquote(style).equals("filled")) {
            initial.add(id);
        }
    }

    private void edge(Token fromToken, Token toToken, List<Token> attributes) {
        if (legendDepth > 0) {
            return;
        }
        long from = fingerprint(fromToken);
        long to = fingerprint(toToken);
        mention(from, fromToken);
        mention(to, toToken);
        Token label = attr(attributes, "label");
        edges.add(new Edge(from, to, label == null ? Optional.empty() : action(label)));
    }

    /**
     * Slices a {@code TLC_EDGE} token at the separators the lexer has checked and hands the parts on as the tokens the
     * general edge rule would have made, positions included.
     */
    private void tlcEdge(Token edge) {
        if (legendDepth > 0 || (bytes != null && tlcEdgeFromBytes(edge))) {
            return;
        }
        String text = edge.getText();
        Pair<TokenSource, CharStream> origin = new Pair<>(edge.getTokenSource(), edge.getInputStream());
        int arrow = text.indexOf(" -> ");
        int open = text.indexOf(" [", arrow + 4);
        Token from = part(edge, origin, text, TlcDotLexer.NUMERAL, 0, arrow);
        Token to = part(edge, origin, text, TlcDotLexer.NUMERAL, arrow + 4, open);
        List<Token> attributes = edgeAttributes;
        attributes.clear();
        int at = open + 2;
        while (text.charAt(at) != ']') {
            int equals = text.indexOf('=', at);
            int end = equals + 2;
            while (text.charAt(end) != '"') {
                end += text.charAt(end) == '\\' ? 2 : 1;
            }
            end++;
            attributes.add(part(edge, origin, text, TlcDotLexer.IDENT, at, equals));
            attributes.add(part(edge, origin, text, TlcDotLexer.STRING, equals + 1, end));
            at = text.charAt(end) == ',' ? end + 1 : end;
        }
        edge(from, to, attributes);
    }

    /**
     * {@link #tlcEdge} read straight from the dot file's bytes, without a token or string per part: a dump has 300,000
     * edges, and slicing each into eight tokens cost a tenth of the reading time. False, having read nothing, for an
     * end that is not a plain long, which then takes the token path to its error.
     */
    private boolean tlcEdgeFromBytes(Token edge) {
        int start = edge.getStartIndex();
        // the lexer has checked the shape: END " -> " END " [" ATTR ("," ATTR)* "];" and a line break
        int arrow = start;
        while (bytes[arrow] != ' ') {
            arrow++;
        }
        int toStart = arrow + 4;
        int open = toStart;
        while (bytes[open] != ' ') {
            open++;
        }
        long from = AsciiRanges.parseLong(bytes, start, arrow);
        long to = AsciiRanges.parseLong(bytes, toStart, open);
        if (from == AsciiRanges.NOT_A_LONG || to == AsciiRanges.NOT_A_LONG) {
            return false;
        }
        Optional<String> action = null;
        int at = open + 2;
        while (bytes[at] != ']') {
            int equals = at;
            while (bytes[equals] != '=') {
                equals++;
            }
            int end = equals + 2;
            while (bytes[end] != '"') {
                end += bytes[end] == '\\' ? 2 : 1;
            }
            end++;
            if (equals - at == 5 && AsciiRanges.regionEquals(bytes, at, "label")) {
                // the first label is the action; the lexer has checked the rest of the line
                action = action(equals + 1, end);
                break;
            }
            at = bytes[end] == ',' ? end + 1 : end;
        }
        int line = edge.getLine();
        int column = edge.getCharPositionInLine();
        mention(from, line, column);
        mention(to, line, column + toStart - start);
        edges.add(new Edge(from, to, action == null ? Optional.empty() : action));
        return true;
    }

    /** The action named by the quoted string {@code bytes[start..end)}. */
    private Optional<String> action(int start, int end) {
        for (int i = start + 1; i < end - 1; i++) {
            if (bytes[i] == '\\') {
                return action(DotLabel.unescape(new String(bytes, start, end - start, StandardCharsets.US_ASCII)));
            }
        }
        for (Optional<String> known : actions) {
            String name = known.get();
            if (name.length() == end - start - 2 && AsciiRanges.regionEquals(bytes, start + 1, name)) {
                return known;
            }
        }
        return action(new String(bytes, start + 1, end - start - 2, StandardCharsets.US_ASCII));
    }

    /** Characters [from, to) of a token's text as a token of its own (indexes count code points, as ANTLR's do). */
    private Token part(Token whole, Pair<TokenSource, CharStream> origin, String text, int type, int from, int to) {
        int skip = bytes != null ? from : text.codePointCount(0, from);
        int length = bytes != null ? to - from : text.codePointCount(from, to);
        CommonToken token =
                new CommonToken(
                        origin,
                        type,
                        Token.DEFAULT_CHANNEL,
                        whole.getStartIndex() + skip,
                        whole.getStartIndex() + skip + length - 1);
        token.setLine(whole.getLine());
        token.setCharPositionInLine(whole.getCharPositionInLine() + skip);
        return token;
    }

    /** The label is the state printed by TLC, escaped for DOT; errors point at the label. */
    private TlaState state(Token labelToken) {
        if (labelToken.getType() != TlcDotLexer.STRING) {
            throw error(labelToken, "expected a quoted state label, found " + labelToken.getText());
        }
        try {
            if (bytes == null) {
                return labels.state(DotLabel.unescape(labelToken.getText()));
            }
            int start = labelToken.getStartIndex();
            int end = labelToken.getStopIndex() + 1;
            if (label.length < end - start) {
                label = new byte[Math.max(end - start, 2 * label.length)];
            }
            return labels.state(label, DotLabel.unescape(bytes, start, end, label));
        } catch (ParseException inner) {
            throw error(
                    labelToken,
                    "in state label (its line " + inner.line() + ", column " + inner.column() + "): " + inner.detail());
        }
    }

    /** An edge's action name; the few distinct names are kept, not built again for each edge. */
    private Optional<String> action(Token label) {
        return bytes != null && label.getType() == TlcDotLexer.STRING
                ? action(label.getStartIndex(), label.getStopIndex() + 1)
                : action(unquote(label));
    }

    private Optional<String> action(String name) {
        for (Optional<String> known : actions) {
            if (known.get().equals(name)) {
                return known;
            }
        }
        Optional<String> action = Optional.of(name);
        if (actions.size() < ACTIONS_KEPT) {
            actions.add(action);
        }
        return action;
    }

    private void mention(long id, Token at) {
        mention(id, at.getLine(), at.getCharPositionInLine());
    }

    private void mention(long id, int line, int column) {
        if (mentions == mentionIds.length) {
            mentionIds = Arrays.copyOf(mentionIds, 2 * mentions);
            mentionPositions = Arrays.copyOf(mentionPositions, 2 * mentions);
        }
        mentionIds[mentions] = id;
        mentionPositions[mentions] = ((long) line << 32) | column;
        mentions++;
    }

    private StateGraph graph() {
        events.throwFailure();
        FingerprintSet defined = new FingerprintSet(states.size());
        for (long id : states.keySet()) {
            defined.add(id);
        }
        // the first mention of an id without a state is that id's first mention
        for (int i = 0; i < mentions; i++) {
            if (!defined.contains(mentionIds[i])) {
                long at = mentionPositions[i];
                throw new ParseException(
                        source,
                        (int) (at >>> 32),
                        (int) at,
                        "state " + mentionIds[i] + " has no label anywhere in the file");
            }
        }
        return StateGraph.ofChecked(states, initial, edges);
    }

    private long fingerprint(Token t) {
        if (bytes != null && t.getType() == TlcDotLexer.NUMERAL) {
            long id = AsciiRanges.parseLong(bytes, t.getStartIndex(), t.getStopIndex() + 1);
            if (id != AsciiRanges.NOT_A_LONG) {
                return id;
            }
        }
        try {
            return Long.parseLong(unquote(t));
        } catch (NumberFormatException e) {
            throw error(t, "expected a state fingerprint (a 64-bit integer), found " + t.getText());
        }
    }

    /** The value of the first attribute named {@code name}, or null. */
    private Token attr(List<Token> attributes, String name) {
        for (int i = 0; i < attributes.size(); i += 2) {
            if (textEquals(attributes.get(i), name)) {
                return attributes.get(i + 1);
            }
        }
        return null;
    }

    /** Whether the id {@code t} reads {@code text}, without making a string of it where it can. */
    private boolean textEquals(Token t, String text) {
        if (bytes == null) {
            return unquote(t).equals(text);
        }
        int start = t.getStartIndex();
        int stop = t.getStopIndex();
        if (t.getType() == TlcDotLexer.STRING) {
            start++;
            stop--;
            for (int i = start; i <= stop; i++) {
                if (bytes[i] == '\\') {
                    return unquote(t).equals(text);
                }
            }
        }
        return stop - start + 1 == text.length() && AsciiRanges.regionEquals(bytes, start, text);
    }

    private static String unquote(Token id) {
        return id.getType() == TlcDotLexer.STRING ? DotLabel.unescape(id.getText()) : id.getText();
    }

    private ParseException error(Token at, String detail) {
        return new ParseException(source, at.getLine(), at.getCharPositionInLine(), detail);
    }
}
