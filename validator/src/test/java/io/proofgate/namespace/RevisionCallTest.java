package io.proofgate.namespace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import java.lang.reflect.Executable;
import java.lang.reflect.Modifier;

/**
 * Every call the spec audit makes by name is one this validator has, public, as declared: a rename or a changed
 * signature of one of them fails here, before an audit of an older revision would break on it.
 */
class RevisionCallTest {

    @Test
    void everyCallIsFoundInThisValidator() throws Exception {
        for (RevisionCall call : RevisionCall.values()) {
            Executable found = call.in(name -> Class.forName(name, true, RevisionCallTest.class.getClassLoader()));
            assertTrue(Modifier.isPublic(found.getModifiers()), call + " is public");
            assertEquals(call.toString().replaceFirst("\\(.*", ""), name(found), call.toString());
        }
    }

    @Test
    void theSnapshotAnswerIsComputedThroughTheCalls() {
        String answer =
                SnapshotAnswer.of(
                        name -> Class.forName(name, true, RevisionCallTest.class.getClassLoader()),
                        new long[][] {{1, 2}, {3}, {4}});
        assertTrue(answer.matches("bytes=\\d+ sha256=[0-9a-f]{64}"), answer);
    }

    private static String name(Executable found) {
        String owner = found.getDeclaringClass().getSimpleName();
        return found instanceof java.lang.reflect.Constructor<?> ? owner : owner + "." + found.getName();
    }
}
