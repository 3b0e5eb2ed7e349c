package io.proofgate.mutate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

/** A shard file's names reach a terminal or a report only escaped; a name with a control character is refused. */
class MutationShardTextTest {

    @TempDir Path dir;

    private String refusal(String json) throws Exception {
        Path file = dir.resolve("shard.json");
        Files.writeString(file, json);
        return assertThrows(MutationException.class, () -> MutationShard.read(file))
                .getMessage()
                .substring(file.toString().length());
    }

    @Test
    void aModelNameWithAnEscapeSequenceIsRefusedAndShownEscaped() throws Exception {
        assertEquals(
                ":1:86: a model: \"name\" holds a control or invisible character: \"M\\u001b[31m\"",
                refusal(
                        "{\"schema\":\"proofgate-mutate-shard/v3\",\"shard\":0,\"of\":1,\"inputs\":[],\"models\":[{\"name\":"
                            + "\"M\\u001b[31m\",\"cfg\":\"a\",\"module\":\"b\",\"invariants\":[],\"properties\":[],\"deadlock\":true}]}"));
    }

    @Test
    void anInputPathAndAKeyAreShownEscaped() throws Exception {
        assertEquals(
                ":1:74: an input: \"path\" holds a control or invisible character: \"spec/\\u001b[2JX.tla\"",
                refusal(
                        "{\"schema\":\"proofgate-mutate-shard/v3\",\"shard\":0,\"of\":1,\"inputs\":[{\"path\":\"spec/\\u001b[2JX.tla\","
                            + "\"sha256\":\"zz\"}]}"));
        assertEquals(
                ":1:39: the top level: unknown key \"\\u001bc\" (known: hmac, inputs, mistakes, models, module, of,"
                        + " only, operators, part, results, schema, shard, timeout_seconds)",
                refusal("{\"schema\":\"proofgate-mutate-shard/v3\",\"\\u001bc\":1}"));
    }

    @Test
    void brokenJsonIsSaidInTheProjectsWords() throws Exception {
        assertEquals(
                ":1:40: not valid JSON: expected a field name in double quotes, found \"x\"",
                refusal("{\"schema\":\"proofgate-mutate-shard/v3\", x}"));
    }
}
