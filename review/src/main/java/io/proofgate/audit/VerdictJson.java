package io.proofgate.audit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A spec verdict's script line ("rejected r1 code=empty", "plan r1 digest=d1 span=6912
 * blocks=[[1001]] recurrent=[[1,1015]]") in replay's JSON shape: kind, step, id, then the line's
 * fields in its order, numbers and lists as JSON.
 */
final class VerdictJson {

    private static final ObjectMapper JSON = new ObjectMapper();

    private VerdictJson() {}

    static ObjectNode of(String line, long step) {
        String[] words = line.split(" ");
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("kind", words[0]);
        node.put("step", step);
        node.put("id", words[1]);
        for (int i = 2; i < words.length; i++) {
            int equals = words[i].indexOf('=');
            String name = words[i].substring(0, Math.max(0, equals));
            String value = words[i].substring(equals + 1);
            String field = name.equals("blocks") ? "blocks_by_group" : name;
            if (value.startsWith("[")) {
                try {
                    node.set(field, JSON.readTree(value));
                } catch (JsonProcessingException e) {
                    throw new IllegalStateException("a list in a verdict line is not JSON: " + line, e);
                }
            } else if (value.matches("-?\\d{1,18}")) {
                node.put(field, Long.parseLong(value));
            } else {
                node.put(field, value);
            }
        }
        return node;
    }
}
