package io.proofgate.replay;

import io.proofgate.protocol.Topology;

import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * The events of a log longer than a piece, parsed ahead of the caller on other threads. The log is cut at line ends
 * into pieces ({@link LogPieces}, on a cutting thread), and each piece is parsed on its own by a pool of parsers, a
 * {@linkplain EventReader#fromLine reader from its first line}; the caller parses a piece too rather than wait for one,
 * and takes the pieces' lines in log order.
 *
 * <p>A piece parsed without the lines before it gives the lines one reader from the start would give, when it parses:
 * it begins where a valid line ended, so that reader would be in the same state there (nothing open, no multi-byte
 * character begun, the topology read, the last object on an earlier line). So a piece's own parse is used only when it
 * succeeds and counts its lines as the cut does. Otherwise (invalid JSON, an object running past the piece's end, bytes
 * that are not UTF-8, a lone carriage return, a line longer than {@link EventPipeline.Settings#maxPiece}) the caller
 * reads on alone from that piece's first line with one reader, over that piece and all that follows: every error is the
 * one, at the same place, that one reader from the start reports.
 *
 * <p>Memory stays bounded: at most {@link EventPipeline.Settings#window} pieces wait ahead of the caller, and at most
 * {@link EventPipeline.Settings#budget} bytes of pieces are held, a long line's piece alone.
 */
final class PiecesSideBySide implements EventPipeline {

    /**
     * A piece's lines, numbered from 1 at the piece's first line, and its line ends; no lines when its parse failed.
     */
    private record Parsed(List<ReplayLine> lines, long lineEnds) {
        static final Parsed FAILED = new Parsed(null, 0);
    }

    /**
     * What the cutting thread hands over, in log order: a piece and its parse (null when not parsed), the end, or a
     * failure.
     */
    private record Item(LogPieces.Piece piece, Future<Parsed> parsed, Throwable failure, int cost) {
        static final Item END = new Item(null, null, null, 0);
    }

    /** How often the caller looks whether the cutting thread is still alive while it waits. */
    private static final long WATCH_MILLIS = 50;

    private final String source;
    private final Topology topology;

    /** Whether the log has the restore half, which the readers of later pieces read by. */
    private final boolean restores;

    /** Reading on alone, on the caller's thread, from a piece whose parse failed to the log's end. */
    private EventReader single;

    private final BlockingQueue<Item> items;
    private final ExecutorService parsers;
    private final Thread cutter;
    private final LogPieces pieces;

    /** Bytes of pieces held, from their cutting to the taking of their lines: a piece costs its length, at most all. */
    private final Semaphore held;

    private final int budget;

    /** The piece whose lines the caller is taking, given back to {@link #pieces} once they are taken. */
    private Item current;

    /** Whether the cutting thread still hands pieces to the parsers (not once the caller reads on alone). */
    private volatile boolean parallel = true;

    private volatile boolean closed;
    private List<ReplayLine> lines = List.of();
    private int position;

    /** Added to the line numbers of the current piece's lines; the log's line at which the next piece starts. */
    private long shift;

    private long nextFirstLine = 1;
    private boolean ended;
    private Throwable failed;
    private int piecesParsed;

    PiecesSideBySide(
            String source,
            Topology topology,
            EventReader first,
            LogPieces.Piece firstPiece,
            LogPieces pieces,
            Settings settings) {
        this.source = source;
        this.topology = topology;
        this.restores = first.restores();
        this.pieces = pieces;
        this.budget = settings.budget();
        this.held = new Semaphore(budget);
        this.items = new ArrayBlockingQueue<>(settings.window());
        this.parsers =
                Executors.newFixedThreadPool(
                        settings.parsers(),
                        task -> Thread.ofPlatform().name("proofgate-replay-parser").daemon(true).unstarted(task));
        // the first piece goes on with the reader that read its topology line
        int cost = cost(firstPiece);
        held.acquireUninterruptibly(cost); // all of them are free
        items.add(new Item(firstPiece, parsers.submit(() -> parse(first)), null, cost));
        try {
            this.cutter =
                    Thread.ofPlatform()
                            .name("proofgate-replay-cutter")
                            .daemon(true)
                            // a thread that dies with nothing handed over is reported by take(), in one line;
                            // the JVM's default handler would print a stack trace first
                            .uncaughtExceptionHandler((thread, failure) -> {})
                            .start(() -> cut(pieces));
        } catch (RuntimeException | Error e) {
            parsers.shutdownNow(); // no thread could start: none is left behind
            throw e;
        }
    }

    private int cost(LogPieces.Piece piece) {
        return Math.max(1, Math.min(budget, piece.length()));
    }

    @Override
    public Topology topology() {
        return topology;
    }

    @Override
    public boolean restores() {
        return restores;
    }

    @Override
    public ReplayLine next() throws ReplayException, IOException {
        while (true) {
            if (single != null) {
                return single.next();
            }
            if (position < lines.size()) {
                ReplayLine line = lines.get(position++);
                return shift == 0 ? line : new ReplayLine(line.event(), line.line() + shift, line.column());
            }
            if (ended) {
                return null;
            }
            if (current != null) {
                pieces.done(current.piece()); // parsed, its lines taken, and read no more: this is not reading on alone
                held.release(current.cost());
                current = null;
            }
            if (failed != null) {
                throw failure(failed); // asked again after the failure: the same failure
            }
            Item item = take();
            if (item.failure() != null) {
                failed = item.failure();
                throw failure(failed);
            }
            if (item == Item.END) {
                ended = true;
                return null;
            }
            Parsed parsed = item.parsed() == null ? Parsed.FAILED : await(item.parsed());
            if (parsed.lines() == null) {
                held.release(item.cost()); // its bytes are the lone reader's now, as are the next pieces'
                readOnAlone(item.piece());
                continue;
            }
            piecesParsed++;
            current = item;
            lines = parsed.lines();
            position = 0;
            shift = nextFirstLine - 1;
            nextFirstLine += parsed.lineEnds();
        }
    }

    @Override
    public int piecesParsed() {
        return piecesParsed;
    }

    /** From this piece on, one reader on the caller's thread: from the log's start when it is the first piece. */
    private void readOnAlone(LogPieces.Piece piece) throws ReplayException, IOException {
        parallel = false;
        InputStream rest = new SequenceInputStream(piece.stream(), new Following());
        if (piecesParsed == 0) {
            single = new EventReader(rest, source);
            single.readTopology(); // read without fault before; the same again
        } else {
            single = EventReader.fromLine(rest, source, topology, restores, nextFirstLine);
        }
    }

    private Parsed parse(EventReader reader) {
        try (reader) {
            List<ReplayLine> parsed = new ArrayList<>();
            ReplayLine line;
            while ((line = reader.next()) != null) {
                parsed.add(line);
            }
            long after = reader.lineAfterEnd();
            // the piece's lines are numbered from 1
            return after < 0 ? Parsed.FAILED : new Parsed(parsed, after - 1);
        } catch (ReplayException | IOException | RuntimeException e) {
            return Parsed.FAILED; // the caller reads this piece again with the lines before it
        }
    }

    private void cut(LogPieces pieces) {
        Item last;
        try {
            LogPieces.Piece piece;
            while (!closed && (piece = pieces.next()) != null) {
                LogPieces.Piece p = piece;
                boolean parse = parallel && p.lines();
                if (!p.lines()) {
                    parallel = false; // the next piece starts inside this line: it cannot be parsed alone
                }
                int cost = cost(p);
                hold(cost);
                Future<Parsed> parsed =
                        parse
                                ? parsers.submit(
                                        () -> parse(EventReader.fromLine(p.stream(), source, topology, restores, 1)))
                                : null;
                put(new Item(p, parsed, null, cost));
            }
            last = Item.END;
        } catch (IOException | RuntimeException | Error e) {
            // out of memory too: the caller would otherwise wait for ever on a thread that died
            last = new Item(null, null, e, 0);
        } catch (InterruptedException e) {
            return; // closed by the caller: nobody is waiting for more
        }
        try {
            put(last);
        } catch (InterruptedException e) {
            // closed by the caller
        }
    }

    /** Waits until {@code cost} more bytes of pieces may be held. */
    private void hold(int cost) throws InterruptedException {
        untilClosed(millis -> held.tryAcquire(cost, millis, TimeUnit.MILLISECONDS));
    }

    private void put(Item item) throws InterruptedException {
        untilClosed(millis -> items.offer(item, millis, TimeUnit.MILLISECONDS));
    }

    /** A wait of at most some milliseconds; true when what was waited for happened. */
    @FunctionalInterface
    private interface TimedWait {
        boolean waited(long millis) throws InterruptedException;
    }

    /** Waits in short spells, so that the caller's close() ends the wait. */
    private void untilClosed(TimedWait wait) throws InterruptedException {
        while (!closed) {
            if (wait.waited(WATCH_MILLIS)) {
                return;
            }
        }
        throw new InterruptedException("closed");
    }

    /**
     * The next item. The cutting thread hands over its own failure, an out-of-memory error included; but when even that
     * hand-over cannot be allocated the thread dies with nothing in the queue, and a plain take() would wait for ever.
     * So the caller watches the thread.
     */
    private Item take() throws IOException {
        try {
            while (true) {
                Item item = items.poll(WATCH_MILLIS, TimeUnit.MILLISECONDS);
                if (item != null) {
                    return item;
                }
                if (!cutter.isAlive()) {
                    item = items.poll(); // it may have put its last item just before it ended
                    if (item != null) {
                        return item;
                    }
                    throw new OutOfMemoryError("the log reader stopped without handing over its failure");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while reading the log", e);
        }
    }

    /**
     * The piece's parse, once done. Rather than wait, the caller parses a piece no parser has begun: this one, or one
     * after it (a task run a second time does nothing).
     */
    private Parsed await(Future<Parsed> parsed) throws IOException {
        if (parsed instanceof FutureTask<Parsed> task) {
            task.run();
        }
        for (Item ahead : items) {
            if (parsed.isDone()) {
                break;
            }
            if (ahead.parsed() instanceof FutureTask<Parsed> task) {
                task.run();
            }
        }
        try {
            return parsed.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Error error) {
                throw error; // out of memory on a parser surfaces here, once
            }
            return Parsed.FAILED;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while reading the log", e);
        }
    }

    private static IOException failure(Throwable failure) {
        return switch (failure) {
            case IOException e -> e;
            case RuntimeException e -> throw e;
            case Error e -> throw e;
            default -> throw new IllegalStateException(failure);
        };
    }

    /** The bytes of the pieces still to come, in order, for the reader that reads on alone. */
    private final class Following extends InputStream {
        private InputStream current = InputStream.nullInputStream();
        private boolean done;

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public int read(byte[] buffer, int from, int length) throws IOException {
            while (!done) {
                int n = current.read(buffer, from, length);
                if (n >= 0) {
                    return n;
                }
                Item item = take();
                if (item.failure() != null) {
                    throw failure(item.failure());
                }
                if (item == Item.END) {
                    done = true;
                } else {
                    held.release(item.cost()); // read now by the lone reader, a piece at a time
                    current = item.piece().stream();
                }
            }
            return -1;
        }
    }

    /** Stops the cutting thread and the parsers when the caller gives up early (an invalid event, an error). */
    @Override
    public void close() throws IOException {
        try {
            if (single != null) {
                single.close();
            }
        } finally {
            closed = true;
            parallel = false;
            parsers.shutdownNow();
            items.clear();
            try {
                cutter.join(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
