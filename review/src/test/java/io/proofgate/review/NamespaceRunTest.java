package io.proofgate.review;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.proofgate.conform.Conform;
import io.proofgate.conform.ConformException;
import io.proofgate.conform.InProcessAdapter;
import io.proofgate.conform.Line;
import io.proofgate.words.Capability;
import io.proofgate.words.Formats;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/** The probes beside an audit start adapters of their own only where both revisions' hellos declare namespace. */
class NamespaceRunTest {

    private static final ConnectorAudit.Settings SETTINGS = new ConnectorAudit.Settings(1, Duration.ofSeconds(120), 10);

    private static Line.Hello hello(Set<Capability> capabilities) {
        return new Line.Hello(Formats.ADAPTER, "test", capabilities);
    }

    /** proofgate's validator in process, each start counted. */
    private static Conform.Adapters counting(AtomicInteger started) {
        return () -> {
            started.incrementAndGet();
            return new InProcessAdapter();
        };
    }

    private static final Set<Capability> WITH = EnumSet.of(Capability.STATE, Capability.NAMESPACE);
    private static final Set<Capability> WITHOUT = EnumSet.of(Capability.STATE);

    @Test
    void whereARevisionLacksNamespaceNoAdapterIsStartedAndTheReportSaysWhich() throws ConformException {
        AtomicInteger started = new AtomicInteger();
        Conform.Adapters counted = counting(started);
        String[][] cases = {
            {"without", "without", "neither revision's adapter declares namespace"},
            {"without", "with", "the base revision's adapter does not declare namespace"},
            {"with", "without", "the head revision's adapter does not declare namespace"}
        };
        for (String[] c : cases) {
            NamespaceRun.Beside probes = new NamespaceRun.Beside(counted, counted, SETTINGS, line -> {});
            probes.accept(hello(c[0].equals("with") ? WITH : WITHOUT), hello(c[1].equals("with") ? WITH : WITHOUT));
            NamespaceRun.Result result = probes.result();
            assertFalse(result.computed());
            assertEquals(c[2], result.why());
        }
        assertEquals(0, started.get());
    }

    @Test
    void whereBothDeclareNamespaceEveryProbeGoesToAnAdapterOfEachRevision() throws ConformException {
        AtomicInteger started = new AtomicInteger();
        Conform.Adapters counted = counting(started);
        NamespaceRun.Beside probes = new NamespaceRun.Beside(counted, counted, SETTINGS, line -> {});
        probes.accept(hello(WITH), hello(WITH));
        NamespaceRun.Result result = probes.result();
        assertTrue(result.computed(), result.why());
        assertTrue(result.probes() > 0);
        assertTrue(result.changed().isEmpty());
        assertEquals(2, started.get());
    }
}
