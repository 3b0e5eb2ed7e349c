package io.proofgate.review;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.proofgate.conform.Adapter;
import io.proofgate.conform.AdapterException;
import io.proofgate.conform.Conform;
import io.proofgate.conform.ConformException;
import io.proofgate.conform.InProcessAdapter;
import io.proofgate.conform.Scenario;
import io.proofgate.conform.ScenarioReader;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The audit sends each scenario ahead of reading the answers to the one before it. An adapter that dies on a scenario
 * takes the answers to the one before with it: the audit must charge the scenario that killed it, and an adapter that
 * died once must never make a clean audit. Both revisions here are proofgate's validator in process, dying where told,
 * so what happens does not depend on timing.
 */
class ConnectorAuditSendAheadTest {

    private static final ConnectorAudit.Settings SETTINGS = new ConnectorAudit.Settings(1, Duration.ofSeconds(120), 10);
    private static List<Scenario> scenarios;

    @BeforeAll
    static void read() throws ConformException {
        scenarios =
                ScenarioReader.read(Path.of("..", "generated-tests", "scenarios", "gen-edges")).stream()
                        .limit(40)
                        .toList();
    }

    /**
     * The validator, which dies (its answers not yet read are lost with it) when sent the messages of {@code fatal}.
     */
    private static final class Dies implements Adapter {
        private final InProcessAdapter inner = new InProcessAdapter();
        private final List<String> fatal;
        private final AtomicBoolean once;
        private boolean dead;

        Dies(Scenario fatal, AtomicBoolean once) {
            List<String> messages = new ArrayList<>();
            messages.add(fatal.topology());
            fatal.events().forEach(e -> messages.add(e.line()));
            messages.add("{\"kind\":\"summary\"}");
            this.fatal = messages;
            this.once = once;
        }

        @Override
        public void send(List<String> messages) {
            if (!dead && messages.equals(fatal) && (once == null || once.compareAndSet(false, true))) {
                dead = true;
            }
            if (!dead) {
                messages.forEach(inner::send);
            }
        }

        @Override
        public void send(String message) {
            send(List.of(message));
        }

        @Override
        public String receive(Duration patience) throws AdapterException {
            if (dead) {
                throw new AdapterException("closed its output (it exited with status 3)");
            }
            return inner.receive(patience);
        }

        @Override
        public String leftover(Duration patience) {
            return dead ? null : inner.leftover(patience);
        }

        @Override
        public long waitedNanos() {
            return 0;
        }

        @Override
        public void close() {}
    }

    private static ConnectorAudit.Run audit(Scenario fatal, AtomicBoolean once) throws ConformException {
        Conform.Adapters dies = () -> new Dies(fatal, once);
        Conform.Adapters fine = InProcessAdapter::new;
        return ConnectorAudit.run(scenarios, fine, dies, SETTINGS, line -> {});
    }

    @Test
    void theScenarioThatKillsTheAdapterIsChargedNotTheOneBeforeIt() throws ConformException {
        Scenario fatal = scenarios.get(7);
        ConnectorAudit.Run run = audit(fatal, null);
        List<Outcome.Errored> errors =
                run.outcomes().stream()
                        .filter(Outcome.Errored.class::isInstance)
                        .map(Outcome.Errored.class::cast)
                        .toList();
        assertEquals(List.of(fatal.id()), errors.stream().map(e -> e.scenario().id()).toList(), errors.toString());
        assertEquals("head", errors.getFirst().side());
        assertEquals(scenarios.size() - 1, run.count(Outcome.Compared.class));
    }

    @Test
    void anAdapterThatDiedOnceAndNotAgainIsStillAnError() throws ConformException {
        ConnectorAudit.Run run = audit(scenarios.get(7), new AtomicBoolean());
        List<Outcome.Errored> errors =
                run.outcomes().stream()
                        .filter(Outcome.Errored.class::isInstance)
                        .map(Outcome.Errored.class::cast)
                        .toList();
        assertEquals(1, errors.size(), errors.toString());
        assertEquals(scenarios.get(6).id(), errors.getFirst().scenario().id(), "the scenario whose answers were lost");
        assertTrue(errors.getFirst().message().contains("the adapter fails now and then"), errors.getFirst().message());
    }
}
