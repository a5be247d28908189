package io.tas.store;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * D204: an embedded H2 file rewritten with its live data while the service runs. Every chunk is appended (D114), so a
 * sandbox that restores snapshots over and over grows its file by every restore's writes, until the next start
 * compacts it. After a restore or a reset, once the file has doubled and grown by the configured amount since it was
 * last compacted, the node does what a start does, with the database closed in between: every pool is paused and
 * drained (callers wait, none fails), H2 is shut down, the file is rewritten beside itself and renamed into place
 * (H2Files.compactIfSparse, crash safe), and the pools resume, which reopens it.
 */
final class H2FileUpkeep implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(H2FileUpkeep.class);
    /** How long the pools may take to hand back every connection; past it nothing is closed, and the next call tries again. */
    static final long DRAIN_MS = 2_000;
    /** Databases of this JVM open on each file: a shutdown would cut off another one's connections, so only a lone one compacts. */
    private static final java.util.concurrent.ConcurrentMap<Path, Integer> OPEN = new java.util.concurrent.ConcurrentHashMap<>();

    private final String url, user, password;
    private final Path file;
    private final long growthBytes;
    private final List<FairConnections> pools;
    /** The file's size after its last compaction (or at open): what it has grown from. Guarded by this. */
    private long compactedSize;
    /** How many times this node closed the database to rewrite it: H2's per-table counts start again at each opening (D205). */
    private volatile long reopenings;

    /** The outcome of one call: whether the file was rewritten, and its size before and after (read with the pools paused). */
    record Outcome(boolean compacted, long bytesBefore, long bytesAfter) {}

    /** Whether a URL's database gets this upkeep: an embedded file only this process opens, appending every chunk. */
    static boolean appliesTo(String url) { return H2Files.exclusive(url) && H2Files.appendsChunks(url); }

    H2FileUpkeep(String url, String user, String password, Path file, long growthBytes, List<FairConnections> pools) {
        this.url = url;
        this.user = user;
        this.password = password;
        this.file = file;
        this.growthBytes = growthBytes;
        this.pools = List.copyOf(pools);
        this.compactedSize = size();
        OPEN.merge(key(), 1, Integer::sum);
    }

    private Path key() { return file.toAbsolutePath().normalize(); }

    @Override
    public void close() { OPEN.computeIfPresent(key(), (k, n) -> n == 1 ? null : n - 1); }

    /** Rewrites the file when it has grown enough; callers wait meanwhile. Never throws: a failed try leaves the file as it was. */
    synchronized Outcome compactIfGrown() {
        long before = size();
        if (before < 2 * compactedSize || before - compactedSize < growthBytes || OPEN.getOrDefault(key(), 0) != 1) {
            return new Outcome(false, before, before);
        }
        long started = System.nanoTime();
        List<FairConnections> paused = new ArrayList<>();
        boolean shut = false, compacted = false;
        try {
            // In this order: a request may wait for a group commit (the writers), never the other way round.
            long deadline = System.nanoTime() + DRAIN_MS * 1_000_000;
            for (FairConnections pool : pools) {
                paused.add(pool);
                if (!pool.pauseAndDrain(deadline)) {
                    log.warn("H2 file {} not compacted: connections still in use after {} ms", file, DRAIN_MS);
                    return new Outcome(false, before, before);
                }
            }
            reopenings++; // before: nobody holds a connection now, so no reader of the counts sees the old opening after this
            shut = true; // from here the pools' connections may be dead: they are closed before anyone gets one (finally)
            shutdown();
            compacted = H2Files.compactIfSparse(url, 0);
            compactedSize = size(); // also when it was mostly live: then it grows from here before the next try
            return new Outcome(compacted, before, compactedSize);
        } catch (SQLException | RuntimeException e) {
            log.warn("H2 file {} not compacted: {}", file, e.toString());
            return new Outcome(false, before, size());
        } finally {
            if (shut) paused.forEach(FairConnections::closeIdle); // sessions of the closed database: new ones open on resume
            paused.reversed().forEach(FairConnections::resume);
            if (shut) reopen();
            if (compacted) compactedSize = Math.max(compactedSize, size()); // opening writes a chunk too: grow from there
            if (compacted) log.info("H2 file {} rewritten with its live data while running: {} to {} bytes, pools paused {} ms", file,
                    before, compactedSize, (System.nanoTime() - started) / 1_000_000);
        }
    }

    /** Closes the database for every session: no pool connection is in use (they are paused), so none is cut off. */
    private void shutdown() throws SQLException {
        try (Connection c = DriverManager.getConnection(url, user, password); Statement s = c.createStatement()) {
            s.execute("SHUTDOWN");
        }
    }

    long reopenings() { return reopenings; }

    /** Opens the database again now, so that the next request does not pay for it (in line with the callers, D204). */
    private void reopen() {
        FairConnections requests = pools.getFirst();
        try {
            requests.release(requests.acquire());
        } catch (RuntimeException e) {
            log.warn("H2 file {} not reopened at once: {}", file, e.toString()); // the next caller opens it
        }
    }

    private long size() {
        try {
            return Files.size(file);
        } catch (IOException e) {
            return 0;
        }
    }
}
