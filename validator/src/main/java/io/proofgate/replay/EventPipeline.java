package io.proofgate.replay;

import io.proofgate.protocol.Topology;

import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;

/**
 * A log's events in log order, read from its bytes: by {@link OneReader one reader} on the caller's thread for a log of
 * one piece ({@link Settings#piece} bytes), and for a longer one by {@link PiecesSideBySide parsing its pieces side by
 * side}, so that replay costs about as much as parsing the log, and less once parsing is shared between cores. Either
 * way the lines, and any error, are those of one reader from the log's start.
 *
 * <p>A log of one piece starts no thread: the audit replays tens of thousands of logs of a few lines each, and a thread
 * costs more than such a log takes to replay.
 */
sealed interface EventPipeline extends AutoCloseable permits EventPipeline.OneReader, PiecesSideBySide {

    /**
     * How a log is cut and parsed: {@link #defaults()}, or small pieces in tests. At most {@code window} pieces wait,
     * and at most {@code budget} bytes of pieces are held, but one piece larger than that (a long line) is held alone.
     */
    record Settings(int piece, int maxPiece, int parsers, int window, int budget) {

        static final int PIECE = 256 << 10;
        static final int MAX_PIECE = 64 << 20;

        public Settings {
            if (piece < 1 || maxPiece < piece || parsers < 1 || window < 1 || budget < 1) {
                throw new IllegalArgumentException(this.toString());
            }
        }

        /**
         * A parser for each core but the caller's, which parses too whenever it would wait, up to three (the caller
         * validates a piece in about 0.4 of the time a piece takes to parse); as many pieces waiting as keep within a
         * sixteenth of the heap, a piece's events counted at four times its bytes, up to two per parser and the caller.
         * On two cores, one parser and the caller replay faster than two parsers beside the caller
         * (docs/performance.md): three busy threads on two cores cost each other more than the second parser brings.
         */
        static Settings defaults() {
            Runtime runtime = Runtime.getRuntime();
            int parsers = Math.max(1, Math.min(3, runtime.availableProcessors() - 1));
            long ahead = runtime.maxMemory() / 16 / (5L * PIECE);
            int window = (int) Math.max(1, Math.min(2L * (parsers + 1), ahead));
            // a long line's piece can be 64 MiB: counting bytes, not pieces, keeps a log of long
            // lines within about what one reader holds
            return new Settings(PIECE, MAX_PIECE, parsers, window, (window + 2) * PIECE);
        }
    }

    /** The log's topology, read from its first line. */
    Topology topology();

    /** Whether the log is {@code proofgate-events/v2}, with the restore half: read from its first line. */
    boolean restores();

    /** The next line, or null at the end of the log. */
    ReplayLine next() throws ReplayException, IOException;

    /** How many pieces were parsed on their own and used (tests: a long log's pieces were not all read again). */
    int piecesParsed();

    @Override
    void close() throws IOException;

    /** Reads the topology line, and starts the parsers when the log is longer than a piece. */
    static EventPipeline open(InputStream in, String source) throws ReplayException, IOException {
        return open(in, source, Settings.defaults());
    }

    static EventPipeline open(InputStream in, String source, Settings settings) throws ReplayException, IOException {
        LogPieces pieces = new LogPieces(in, settings.piece(), settings.maxPiece());
        LogPieces.Piece piece = pieces.next();
        if (piece == null || piece.last() || !piece.lines()) {
            // all of it in one piece, or a first line longer than a piece may be: one reader
            InputStream all =
                    piece == null
                            ? InputStream.nullInputStream()
                            : piece.last() ? piece.stream() : new SequenceInputStream(piece.stream(), pieces.rest());
            return OneReader.of(new EventReader(all, source));
        }
        EventReader first = new EventReader(piece.stream(), source);
        Topology topology;
        try {
            topology = first.readTopology();
        } catch (ReplayException e) {
            // maybe only the piece's end inside the topology's object: one reader says what is wrong
            return OneReader.of(new EventReader(new SequenceInputStream(piece.stream(), pieces.rest()), source));
        }
        return new PiecesSideBySide(source, topology, first, piece, pieces, settings);
    }

    /** One reader on the caller's thread. */
    record OneReader(EventReader reader, Topology topology) implements EventPipeline {

        static OneReader of(EventReader reader) throws ReplayException, IOException {
            return new OneReader(reader, reader.readTopology());
        }

        @Override
        public ReplayLine next() throws ReplayException, IOException {
            return reader.next();
        }

        @Override
        public boolean restores() {
            return reader.restores();
        }

        @Override
        public int piecesParsed() {
            return 0;
        }

        @Override
        public void close() throws IOException {
            reader.close();
        }
    }
}
