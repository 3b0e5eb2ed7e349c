package io.proofgate.tlc;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/** The real TLC outputs in src/test/resources/tlc/ (made by its regenerate.sh). */
public final class Samples {
    private Samples() {}

    public static String text(String name) {
        try (InputStream in = Samples.class.getResourceAsStream("/tlc/" + name)) {
            if (in == null) {
                throw new IllegalArgumentException("no test resource tlc/" + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static Path path(String name) {
        try {
            return Path.of(Samples.class.getResource("/tlc/" + name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    public static TlcOutput output(String name) {
        return TlcOutputReader.read(name, text(name));
    }

    public static TlcRun run(String name) {
        return TlcRun.of(output(name));
    }
}
