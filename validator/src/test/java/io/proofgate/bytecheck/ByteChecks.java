package io.proofgate.bytecheck;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.proofgate.replay.Replay;
import io.proofgate.replay.SyntheticLog;
import io.proofgate.store.StoreKind;

import org.junit.jupiter.api.Assumptions;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/** Shared by the byte-check tests: the store that {@code -Dproofgate.store} chooses, and the inputs. */
final class ByteChecks {

    private static boolean reasonPrinted;

    private ByteChecks() {}

    /** The store under test; the test is skipped with the reason where it cannot run. */
    static StoreKind store() {
        StoreKind kind = StoreKind.fromSystemProperty();
        Optional<String> reason = kind.unavailableReason();
        if (reason.isPresent() && !reasonPrinted) {
            reasonPrinted = true;
            System.out.println("conformance on the " + kind.wireName() + " store skipped: " + reason.get());
        }
        Assumptions.assumeTrue(reason.isEmpty(), () -> kind.wireName() + " store skipped: " + reason.orElse(""));
        return kind;
    }

    static List<Path> seedScenarios() throws Exception {
        Path root = Path.of(ByteChecks.class.getResource("/scenarios/seed").toURI());
        try (Stream<Path> files = Files.list(root)) {
            return files.filter(path -> path.toString().endsWith(".jsonl")).sorted().toList();
        }
    }

    /** A deterministic synthetic log of about {@code bytes} bytes. */
    static byte[] synthetic(long seed, int batch, long bytes) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new SyntheticLog(seed, batch).write(out, bytes);
        return out.toByteArray();
    }

    /** Byte-checked replay that also insists stdout is exactly plain replay's. */
    static ByteCheckedReplay.Result replay(byte[] log, String source, CopiedBlocks copies) throws Exception {
        ByteArrayOutputStream plain = new ByteArrayOutputStream();
        Replay.run(new ByteArrayInputStream(log), source, plain);
        ByteArrayOutputStream checked = new ByteArrayOutputStream();
        ByteCheckedReplay.Result result =
                ByteCheckedReplay.run(new ByteArrayInputStream(log), source, checked, store(), copies);
        assertEquals(
                plain.toString(StandardCharsets.UTF_8),
                checked.toString(StandardCharsets.UTF_8),
                "byte-checked replay must write exactly what replay writes");
        return result;
    }

    static String messages(ByteCheckedReplay.Result result) {
        StringBuilder text = new StringBuilder();
        result.findings().forEach(finding -> text.append(finding.message()).append('\n'));
        return text.toString();
    }
}
