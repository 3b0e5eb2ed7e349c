package io.proofgate.benchmarks;

import io.proofgate.protocol.Event;
import io.proofgate.protocol.Topology;
import io.proofgate.replay.EventReader;
import io.proofgate.replay.ReplayLine;
import io.proofgate.replay.SyntheticLog;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;

/** Benchmark inputs built from {@link SyntheticLog}: the bytes of a log and its parsed events. */
final class SyntheticEvents {

    final byte[] bytes;
    final Topology topology;
    final List<Event> events;
    final long scheduledRequests;

    SyntheticEvents(long seed, int batch, long size) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream((int) size + (1 << 20));
            new SyntheticLog(seed, batch).write(out, size);
            bytes = out.toByteArray();
            try (EventReader reader = new EventReader(new ByteArrayInputStream(bytes), "synthetic")) {
                topology = reader.readTopology();
                List<Event> parsed = new ArrayList<>();
                long requests = 0;
                ReplayLine line;
                while ((line = reader.next()) != null) {
                    parsed.add(line.event());
                    if (line.event() instanceof Event.Step step) {
                        requests += step.newRequests().size() + step.cachedRequests().size();
                    }
                }
                events = List.copyOf(parsed);
                scheduledRequests = requests;
            }
        } catch (Exception e) {
            throw new IllegalStateException("cannot build the synthetic log", e);
        }
    }
}
