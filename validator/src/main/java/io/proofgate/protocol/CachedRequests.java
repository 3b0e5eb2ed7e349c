package io.proofgate.protocol;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;
import java.util.RandomAccess;

/**
 * The cached requests of one scheduler step, stored flat: one array per field and one pool of block ids for the whole
 * step, instead of a record, a table and an array per group for every request. A busy step schedules hundreds of
 * requests, and the connector reads each once, in order; flat arrays make that a walk through memory rather than a
 * chase through objects, and the reader allocates a few arrays per step rather than five objects per request.
 * Immutable.
 *
 * <p>As a {@code List} it gives {@link Event.CachedRequest} records, made on each {@link #get}; the connector reads the
 * arrays through the accessors instead.
 */
public final class CachedRequests extends AbstractList<Event.CachedRequest> implements RandomAccess {

    private static final CachedRequests EMPTY = new Builder().build();

    private final String[] ids;
    private final long[] computed;
    private final long[] scheduled;
    private final boolean[] resumed;

    /** Request i's block lists are lists firstList[i] to firstList[i + 1] - 1, one per group. */
    private final int[] firstList;

    /** List l's block ids are blocks[listStart[l]] to blocks[listStart[l + 1] - 1]. */
    private final int[] listStart;

    private final long[] blocks;

    private CachedRequests(Builder builder) {
        int n = builder.size;
        int lists = builder.firstList[n];
        this.ids = Arrays.copyOf(builder.ids, n);
        this.computed = Arrays.copyOf(builder.computed, n);
        this.scheduled = Arrays.copyOf(builder.scheduled, n);
        this.resumed = Arrays.copyOf(builder.resumed, n);
        this.firstList = Arrays.copyOf(builder.firstList, n + 1);
        this.listStart = Arrays.copyOf(builder.listStart, lists + 1);
        this.blocks = Arrays.copyOf(builder.blocks, builder.listStart[lists]);
    }

    /** {@code requests} as flat arrays; the same object when it already is. */
    public static CachedRequests of(List<Event.CachedRequest> requests) {
        if (requests instanceof CachedRequests flat) {
            return flat;
        }
        if (requests.isEmpty()) {
            return EMPTY;
        }
        Builder builder = new Builder();
        for (Event.CachedRequest request : requests) {
            BlockIds table = request.newBlockIds();
            for (int g = 0; g < table.groupCount(); g++) {
                builder.startList();
                for (long block : table.groupView(g)) {
                    builder.addBlock(block);
                }
            }
            builder.endRequest(request.id(), request.computed(), request.scheduled(), request.resumed());
        }
        return builder.build();
    }

    @Override
    public int size() {
        return ids.length;
    }

    @Override
    public Event.CachedRequest get(int index) {
        return new Event.CachedRequest(
                ids[index], computed[index], scheduled[index], newBlockIds(index), resumed[index]);
    }

    public String id(int request) {
        return ids[request];
    }

    public long computed(int request) {
        return computed[request];
    }

    public long scheduled(int request) {
        return scheduled[request];
    }

    public boolean resumed(int request) {
        return resumed[request];
    }

    /** The number of block lists of a request's {@code new_block_ids}: one per group in a valid event. */
    public int groupCount(int request) {
        return firstList[request + 1] - firstList[request];
    }

    public int blockCount(int request, int group) {
        int list = firstList[request] + group;
        return listStart[list + 1] - listStart[list];
    }

    /** Copies a request's new block ids of {@code group} into {@code target} from {@code at}. */
    void copyBlocks(int request, int group, long[] target, int at) {
        int list = firstList[request] + group;
        System.arraycopy(blocks, listStart[list], target, at, listStart[list + 1] - listStart[list]);
    }

    public BlockIds newBlockIds(int request) {
        long[][] byGroup = new long[groupCount(request)][];
        for (int g = 0; g < byGroup.length; g++) {
            byGroup[g] = new long[blockCount(request, g)];
            copyBlocks(request, g, byGroup[g], 0);
        }
        return BlockIds.adopt(byGroup);
    }

    /**
     * Builds a step's cached requests one at a time, in the order a reader meets their fields: a request's block lists
     * first ({@link #startList}, {@link #addBlock}), then the request itself ({@link #endRequest}) once its object is
     * closed. Reusable: {@link #build} starts it afresh.
     */
    public static final class Builder {
        private int size;
        private String[] ids = new String[16];
        private long[] computed = new long[16];
        private long[] scheduled = new long[16];
        private boolean[] resumed = new boolean[16];
        private int[] firstList = new int[17];

        /** listStart[lists] is where the next list begins: the end of the last one. */
        private int lists;

        private int[] listStart = new int[33];
        private long[] blocks = new long[64];

        /** The requests ended so far. */
        public int size() {
            return size;
        }

        /** Begins the next block list of the request being read. */
        public void startList() {
            if (lists + 1 == listStart.length) {
                listStart = Arrays.copyOf(listStart, listStart.length * 2);
            }
            lists++;
            listStart[lists] = listStart[lists - 1];
        }

        /** Appends a block id to the list begun last. */
        public void addBlock(long block) {
            int end = listStart[lists];
            if (end == blocks.length) {
                blocks = Arrays.copyOf(blocks, blocks.length * 2);
            }
            blocks[end] = block;
            listStart[lists] = end + 1;
        }

        /** The request whose lists were begun since the last request ended. */
        public void endRequest(String id, long computedTokens, long scheduledTokens, boolean resumedNow) {
            if (size == ids.length) {
                int grown = size * 2;
                ids = Arrays.copyOf(ids, grown);
                computed = Arrays.copyOf(computed, grown);
                scheduled = Arrays.copyOf(scheduled, grown);
                resumed = Arrays.copyOf(resumed, grown);
                firstList = Arrays.copyOf(firstList, grown + 1);
            }
            ids[size] = id;
            computed[size] = computedTokens;
            scheduled[size] = scheduledTokens;
            resumed[size] = resumedNow;
            size++;
            firstList[size] = lists;
        }

        /** Drops the lists begun since the last request ended. */
        public void dropOpenLists() {
            lists = firstList[size];
        }

        /** The lists begun since the last request ended, as a table of their own; they are dropped here. */
        public BlockIds takeOpenLists() {
            int from = firstList[size];
            long[][] byGroup = new long[lists - from][];
            for (int l = from; l < lists; l++) {
                byGroup[l - from] = Arrays.copyOfRange(blocks, listStart[l], listStart[l + 1]);
            }
            lists = from;
            return BlockIds.adopt(byGroup);
        }

        /** The requests ended so far; the builder starts afresh. */
        public CachedRequests build() {
            CachedRequests built = new CachedRequests(this);
            reset();
            return built;
        }

        /** Forgets everything, as after {@link #build}. */
        public void reset() {
            Arrays.fill(ids, 0, size, null); // the builder outlives the step: it must not keep its ids alive
            size = 0;
            lists = 0;
        }
    }
}
