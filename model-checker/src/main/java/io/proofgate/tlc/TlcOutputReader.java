package io.proofgate.tlc;

import io.proofgate.parse.ThrowingErrorListener;

import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.CommonTokenStream;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Reads TLC's {@code -tool} output (a file or a string) into a {@link TlcOutput}. */
public final class TlcOutputReader {
    private TlcOutputReader() {}

    public static TlcOutput read(Path file) throws IOException {
        return read(file.toString(), Files.readString(file, StandardCharsets.UTF_8));
    }

    /**
     * @param source the name errors report, usually the file's path
     */
    public static TlcOutput read(String source, String text) {
        TlcToolLexer lexer = new TlcToolLexer(CharStreams.fromString(text, source));
        CommonTokenStream tokens = new CommonTokenStream(lexer);
        TlcToolParser parser = new TlcToolParser(tokens);
        new ThrowingErrorListener(source, 0)
                .naming(TlcToolParser.RULE_footer, "the closing \"@!@!@ENDMSG code @!@!@\"")
                .installOn(lexer, parser);
        TlcToolParser.OutputContext tree = parser.output();

        TlcMessageBuilder builder = new TlcMessageBuilder(source, tokens);
        List<TlcMessage> messages = new ArrayList<>();
        List<String> freeText = new ArrayList<>();
        for (TlcToolParser.ChunkContext chunk : tree.chunk()) {
            switch (chunk) {
                case TlcToolParser.FrameChunkContext frame -> messages.add(builder.message(frame.message()));
                case TlcToolParser.TextChunkContext line -> freeText.add(line.TEXT().getText());
                case TlcToolParser.BlankChunkContext blank -> {
                    /* line breaks between frames */
                }
                default -> throw new IllegalStateException("unknown chunk " + chunk.getClass());
            }
        }
        return new TlcOutput(messages, freeText);
    }
}
