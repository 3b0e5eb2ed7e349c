package io.proofgate.mutate;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;

import io.proofgate.json.JsonWords;
import io.proofgate.words.Outside;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Fuzzing of the mutation shard reader, which {@code proofgate merge-mutate} runs on files from other machines
 * (Jazzer): any bytes are a shard whose names, paths and ids hold nothing a terminal would act on, or a refusal that
 * names the file and is fit for a terminal (no control character, none of the JSON parser's words); nothing else
 * escapes.
 */
@org.junit.jupiter.api.parallel.Isolated("Jazzer instruments the whole JVM")
class MutationShardFuzzTest {

    private static final Path FILE;

    static {
        try {
            FILE = Files.createTempFile("mutate-shard-fuzz", ".json");
            FILE.toFile().deleteOnExit();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @FuzzTest(maxDuration = "10s")
    void anyShardFileReadsOrIsRefusedInWords(byte[] bytes) throws IOException {
        Files.write(FILE, bytes);
        try {
            MutationShard shard = MutationShard.read(FILE);
            for (String name : shard.models()) {
                assertTrue(Outside.isPlain(name), Outside.quoted(name));
            }
            shard.outcomes().keySet().forEach(id -> assertTrue(Outside.isPlain(id), Outside.quoted(id)));
            shard.inputs().files().keySet().forEach(path -> assertTrue(Outside.isPlain(path), Outside.quoted(path)));
            for (Outcome outcome : shard.outcomes().values()) {
                String described = MutationRun.describe(outcome); // as the report shows it
                assertTrue(Outside.isPlain(described), Outside.quoted(described));
            }
        } catch (MutationException e) {
            assertTrue(e.getMessage().startsWith(FILE.toString()), e.getMessage());
            assertTrue(JsonWords.fitForATerminal(e.getMessage()), Outside.quoted(e.getMessage()));
        }
    }
}
