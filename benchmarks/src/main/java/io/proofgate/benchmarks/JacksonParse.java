package io.proofgate.benchmarks;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import io.proofgate.replay.EventReader;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Replay's whole-process baseline (docs/performance.md, "Replay against Jackson's parse"): reads every token and value
 * of a log with Jackson's streaming parser, configured as replay's, on one thread, and prints how many tokens it read,
 * so that {@code proofgate replay FILE} can be timed against it as a whole process, JVM start and disk included on both
 * sides. Usage: {@code java -cp benchmarks/target/benchmarks.jar io.proofgate.benchmarks.JacksonParse FILE}.
 */
public final class JacksonParse {

    private JacksonParse() {}

    public static void main(String[] args) throws IOException {
        long tokens = 0;
        long sink = 0;
        try (InputStream in = Files.newInputStream(Path.of(args[0]));
                JsonParser parser = EventReader.FACTORY.createParser(in)) {
            JsonToken token;
            while ((token = parser.nextToken()) != null) {
                tokens++;
                // Each value is read as replay reads it, so that neither side skips work the other does.
                sink +=
                        switch (token) {
                            case FIELD_NAME -> parser.currentName().length();
                            case VALUE_STRING -> parser.getText().length();
                            case VALUE_NUMBER_INT -> parser.getLongValue();
                            default -> token.ordinal();
                        };
            }
        }
        System.out.println(tokens + " tokens (" + sink + ")");
    }
}
