package io.proofgate.replay;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;

import io.proofgate.protocol.BlockIds;
import io.proofgate.protocol.Connector;
import io.proofgate.protocol.Counters;
import io.proofgate.protocol.GroupBlock;
import io.proofgate.protocol.PendingSnapshot;
import io.proofgate.protocol.Verdict;
import io.proofgate.words.Counter;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.SequencedMap;
import java.util.SortedMap;

/** Writes verdicts and the summary as JSON Lines in protocol §5's field order. */
public final class VerdictWriter implements Closeable {

    private static final JsonFactory FACTORY = new JsonFactory();
    private final JsonGenerator out;

    public VerdictWriter(OutputStream stream) throws IOException {
        this.out = FACTORY.createGenerator(stream);
        out.configure(JsonGenerator.Feature.AUTO_CLOSE_TARGET, false);
        out.setRootValueSeparator(null); // lines end with '\n' instead of Jackson's default " " between values
    }

    public void write(Verdict verdict) throws IOException {
        out.writeStartObject();
        switch (verdict) {
            case Verdict.Plan plan -> {
                out.writeStringField("kind", "plan");
                out.writeNumberField("step", plan.step());
                out.writeStringField("id", plan.id());
                out.writeStringField("digest", plan.digest());
                out.writeNumberField("span", plan.target()); // the wire calls a plan's target its span
                out.writeFieldName("blocks_by_group");
                writeBlocks(plan.blocksByGroup());
                out.writeFieldName("recurrent");
                writeGroupBlocks(plan.recurrent());
            }
            case Verdict.Rejected rejected -> {
                out.writeStringField("kind", "rejected");
                out.writeNumberField("step", rejected.step());
                out.writeStringField("id", rejected.id());
                out.writeStringField("code", rejected.code().wireName());
                if (rejected.observed() != null) {
                    out.writeNumberField("observed", rejected.observed());
                }
                out.writeNumberField("target", rejected.target());
                if (rejected.group() != null) {
                    out.writeNumberField("group", rejected.group());
                }
                if (rejected.block() != null) {
                    out.writeNumberField("block", rejected.block());
                }
                out.writeStringField("reason", rejected.reason());
            }
            case Verdict.Retired retired -> {
                out.writeStringField("kind", "retired");
                out.writeNumberField("step", retired.step());
                out.writeStringField("id", retired.id());
                out.writeStringField("cause", retired.cause().wireName());
            }
            case Verdict.Hit hit -> {
                out.writeStringField("kind", "hit");
                out.writeNumberField("step", hit.step());
                out.writeStringField("id", hit.id());
                out.writeNumberField("tokens", hit.tokens());
            }
            case Verdict.Load load -> {
                out.writeStringField("kind", "load");
                out.writeNumberField("step", load.step());
                out.writeStringField("id", load.id());
                out.writeStringField("digest", load.digest());
                out.writeNumberField("span", load.restored());
                out.writeFieldName("blocks_by_group");
                writeBlocks(load.blocksByGroup());
            }
        }
        out.writeEndObject();
        out.writeRaw('\n');
    }

    /** The summary of what {@code connector} holds at the end of a log. */
    public void writeSummary(Connector connector) throws IOException {
        SortedMap<String, PendingSnapshot> pending = connector.pendingState();
        SequencedMap<String, List<GroupBlock>> latched = new LinkedHashMap<>();
        for (PendingSnapshot store : pending.values()) {
            if (!store.latch().isEmpty()) {
                latched.put(store.id(), store.latch());
            }
        }
        writeSummary(new OutputLine.Summary(connector.counters(), List.copyOf(pending.keySet()), latched));
    }

    public void writeSummary(OutputLine.Summary summary) throws IOException {
        Counters counters = summary.counters();
        out.writeStartObject();
        out.writeStringField("kind", "summary");
        out.writeNumberField(Counter.PLANS.wireName(), counters.plans());
        out.writeNumberField(Counter.REJECTED.wireName(), counters.rejected());
        out.writeNumberField(Counter.STORE_SKIPPED_QUORUM.wireName(), counters.storeSkippedQuorum());
        out.writeNumberField(Counter.RETIRED_FINISHED.wireName(), counters.retiredFinished());
        if (counters.ignoredHeld() > 0) {
            // only when it happened, so that the summaries of well-formed logs keep their v1 shape
            out.writeNumberField(Counter.IGNORED_HELD.wireName(), counters.ignoredHeld());
        }
        out.writeArrayFieldStart("pending");
        for (String id : summary.pending()) {
            out.writeString(id);
        }
        out.writeEndArray();
        out.writeObjectFieldStart("latched");
        for (var latch : summary.latched().entrySet()) {
            out.writeFieldName(latch.getKey());
            writeGroupBlocks(latch.getValue());
        }
        out.writeEndObject();
        out.writeEndObject();
        out.writeRaw('\n');
    }

    public void flush() throws IOException {
        out.flush();
    }

    @Override
    public void close() throws IOException {
        out.close();
    }

    private void writeBlocks(BlockIds blocks) throws IOException {
        out.writeStartArray();
        for (long[] group : blocks.byGroup()) {
            out.writeStartArray();
            for (long block : group) {
                out.writeNumber(block);
            }
            out.writeEndArray();
        }
        out.writeEndArray();
    }

    private void writeGroupBlocks(List<GroupBlock> blocks) throws IOException {
        out.writeStartArray();
        for (GroupBlock block : blocks) {
            out.writeStartArray();
            out.writeNumber(block.group());
            out.writeNumber(block.block());
            out.writeEndArray();
        }
        out.writeEndArray();
    }
}
