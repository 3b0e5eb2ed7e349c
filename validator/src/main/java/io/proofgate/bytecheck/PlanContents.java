package io.proofgate.bytecheck;

import io.proofgate.protocol.Event;
import io.proofgate.protocol.Group;
import io.proofgate.protocol.Topology;
import io.proofgate.words.GroupPolicy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Whether a plan publishes what its prefix is, judged on vLLM's simulated block contents ({@link VllmBlocks}) rather
 * than on bytes: the safety check the conformance kit applies to any connector's plans, whatever its policy. A plan for
 * the prefix {@code digest} of {@code span} tokens is safe when it names, in every group, exactly the blocks that
 * prefix needs (a {@code full} group's blocks up to the span, a {@code sliding} group's covering the last {@code
 * window_tokens} before it, one block of a recurrent group), and each holds, in the step of the plan, what {@link
 * #demanded} says. Call {@link #event} with each event before judging the plans answered to it.
 */
public final class PlanContents {

    private final Topology topology;

    /** vLLM's blocks simulated from the events, or null where the scenario states them. */
    private final VllmBlocks blocks;

    /** The contents a scenario states after each event, or null where the events imply them. */
    private final StatedBlocks stated;

    /** With stated contents: the last step number followed (the simulation keeps its own). */
    private long statedStep;

    /** With stated contents: the pins of the copies under way, each followed event by event. */
    private final List<StatedBlocks.Pin> pins = new ArrayList<>();

    /**
     * The blocks an asynchronous plan pinned until its workers have copied them: judge its copy with {@link
     * #check(long, String, String, long, long[][], Pinned)}, and end it with {@link #unpin}.
     */
    public static final class Pinned {
        private final long[][] blocksByGroup;
        private final StatedBlocks.Pin view;

        private Pinned(long[][] blocksByGroup, StatedBlocks.Pin view) {
            this.blocksByGroup = blocksByGroup;
            this.view = view;
        }
    }

    public PlanContents(Topology topology) {
        this(topology, false);
    }

    private PlanContents(Topology topology, boolean stated) {
        this.topology = topology;
        this.blocks = stated ? null : new VllmBlocks(topology, (group, id, content) -> {});
        this.stated = stated ? new StatedBlocks() : null;
    }

    /**
     * Plans judged on the contents a scenario states after each event ({@link #stated(Map, Set)}), not on a simulation
     * of the events: for scenarios of a model of vLLM whose block contents the events alone do not tell.
     */
    public static PlanContents stated(Topology topology) {
        return new PlanContents(topology, true);
    }

    /** Follows one event (with stated contents, only its step number). */
    public void event(Event event) {
        if (blocks != null) {
            blocks.event(event);
        } else if (event instanceof Event.Step step) {
            statedStep = step.step();
        }
    }

    /**
     * What every block of vLLM's pool holds after the event just followed, and the blocks that event let go; only for
     * {@link #stated(Topology)}.
     */
    public void stated(Map<Long, BlockContent> contents, Set<Long> released) {
        stated.after(statedStep, contents, released);
        pins.forEach(StatedBlocks.Pin::follow);
    }

    /**
     * The connector pins the blocks a plan names until its workers have copied them (an asynchronous save that pins):
     * vLLM does not free them meanwhile. On simulated contents the blocks are kept from vLLM's freeing; on stated ones
     * the copy keeps what each block held when an event let it go. Groups the topology lacks are left out.
     */
    public Pinned pin(long[][] blocksByGroup) {
        Set<Long> ids = new java.util.HashSet<>();
        for (int g = 0; g < Math.min(blocksByGroup.length, topology.groups().size()); g++) {
            for (long id : blocksByGroup[g]) {
                if (stated == null) {
                    blocks.pin(g, id);
                }
                ids.add(id);
            }
        }
        StatedBlocks.Pin view = stated == null ? null : stated.pin(ids);
        if (view != null) {
            pins.add(view);
        }
        return new Pinned(blocksByGroup, view);
    }

    /** The pin of {@link #pin} ends: the workers have copied the blocks. */
    public void unpin(Pinned pinned) {
        if (pinned.view != null) {
            pins.remove(pinned.view);
            return;
        }
        for (int g = 0; g < Math.min(pinned.blocksByGroup.length, topology.groups().size()); g++) {
            for (long id : pinned.blocksByGroup[g]) {
                blocks.unpin(g, id);
            }
        }
    }

    /** The last step followed (0 before the first). */
    public long step() {
        return blocks != null ? blocks.step() : statedStep;
    }

    /**
     * What a plan's {@code i}-th block of {@code group} must hold for the prefix {@code digest} of {@code span} tokens:
     * a {@code full} group's holds attention chunk {@code i}, a {@code sliding} group's chunk {@code floor(max(0, span
     * - window) / block_tokens) + i}, a recurrent group's the state at {@code span}.
     */
    public static BlockContent demanded(Group group, String digest, long span, int i) {
        if (group.isRecurrent()) {
            return new BlockContent.Recurrent(digest, span);
        }
        return new BlockContent.Attention(digest, firstChunk(group, span) + i);
    }

    /** The blocks of {@code group} the prefix of {@code span} tokens needs. */
    static long needed(Group group, long span) {
        if (group.isRecurrent()) {
            return 1;
        }
        return (span + group.blockTokens() - 1) / group.blockTokens() - firstChunk(group, span);
    }

    private static long firstChunk(Group group, long span) {
        return group.policy() == GroupPolicy.SLIDING
                ? Math.max(0, span - group.windowTokens()) / group.blockTokens()
                : 0;
    }

    /**
     * The blocks of a plan of request {@code request} in step {@code step} that do not hold what the prefix {@code
     * digest} of {@code span} tokens demands, with what they hold instead, or how the plan names other blocks than the
     * prefix needs; empty when the plan is safe.
     */
    public List<ByteFinding> check(long step, String request, String digest, long span, long[][] blocksByGroup) {
        return check(step, request, digest, span, blocksByGroup, null);
    }

    /** {@link #check(long, String, String, long, long[][])} for the copy of a pinned plan (or null: none). */
    public List<ByteFinding> check(
            long step, String request, String digest, long span, long[][] blocksByGroup, Pinned pinned) {
        List<ByteFinding> findings = new ArrayList<>();
        if (blocksByGroup.length != topology.groups().size()) {
            findings.add(
                    new ByteFinding(
                            step,
                            request,
                            -1,
                            0,
                            "published",
                            "blocks for each of the topology's " + topology.groups().size() + " groups",
                            "the plan names " + blocksByGroup.length + " groups"));
            return findings;
        }
        for (Group group : topology.groups()) {
            int g = group.index();
            long[] named = blocksByGroup[g];
            long needed = needed(group, span);
            if (named.length != needed) {
                findings.add(
                        new ByteFinding(
                                step,
                                request,
                                g,
                                named.length == 0 ? 0 : named[0],
                                "published",
                                needed
                                        + (needed == 1 ? " block" : " blocks")
                                        + " for the prefix of "
                                        + span
                                        + " tokens",
                                "the plan names " + named.length));
            }
            for (int i = 0; i < Math.min(named.length, needed); i++) {
                BlockContent wanted = demanded(group, digest, span, i);
                StatedBlocks.Pin view = pinned == null ? null : pinned.view;
                BlockContent held =
                        view != null
                                ? view.content(named[i])
                                : stated != null ? stated.content(named[i]) : blocks.content(g, named[i]);
                if (!wanted.equals(held)) {
                    findings.add(
                            new ByteFinding(
                                    step,
                                    request,
                                    g,
                                    named[i],
                                    "published",
                                    wanted.describe(),
                                    held == null
                                            ? "block " + named[i] + " was never written"
                                            : "block "
                                                    + named[i]
                                                    + " holds "
                                                    + held.describe()
                                                    + " (since step "
                                                    + (view != null
                                                            ? view.since(named[i])
                                                            : stated != null
                                                                    ? stated.since(named[i])
                                                                    : blocks.since(g, named[i]))
                                                    + ")"));
                }
            }
        }
        return findings;
    }
}
