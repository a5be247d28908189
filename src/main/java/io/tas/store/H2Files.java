package io.tas.store;

import org.h2.mvstore.MVStore;
import org.h2.mvstore.MVStoreTool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * An H2 file database's settings and upkeep (D114). H2 2.5.252 can lose acknowledged commits after a kill when it
 * writes a chunk into reused space: the store header it then writes names the chunk before, and recovery stops
 * there. With REUSE_SPACE=FALSE every chunk is appended, and recovery finds the newest at the end of the file. The
 * file then only grows while it is open, so a start rewrites it with its live data when most of it is dead.
 */
final class H2Files {
    private static final Logger log = LoggerFactory.getLogger(H2Files.class);
    /** Below this a file is left as it is, however sparse: rewriting it would gain little. */
    static final long COMPACT_FROM_BYTES = 64L << 20;
    /** A file whose live share (percent of its bytes that live chunks' live pages take) is below this is rewritten at start. */
    static final int COMPACT_BELOW_FILL_PERCENT = 50;

    private H2Files() {}

    /**
     * The settings the service relies on. DESIGN: a success is returned only after a commit that is on disk, so H2
     * files get WRITE_DELAY=0, and REUSE_SPACE=FALSE (above). Row locks wait up to 10 s (H2's default of 1 s would
     * fail requests queued behind a busy account instead of serialising them, as PostgreSQL does). H2 would close the
     * database from its own JVM shutdown hook, under requests still draining after SIGTERM (answered 40015, found by
     * ShutdownIT): DB_CLOSE_ON_EXIT=FALSE leaves the close to App.close, after the drain. A URL that names a setting
     * keeps its own value.
     */
    static String settings(String url) {
        if (!url.startsWith("jdbc:h2:")) return url;
        String upper = url.toUpperCase();
        boolean persistent = !inMemoryOrRemote(url.substring("jdbc:h2:".length()));
        if (persistent && !upper.contains("WRITE_DELAY")) url += ";WRITE_DELAY=0";
        if (persistent && !upper.contains("REUSE_SPACE")) url += ";REUSE_SPACE=FALSE";
        if (!upper.contains("LOCK_TIMEOUT")) url += ";LOCK_TIMEOUT=10000";
        if (!upper.contains("DB_CLOSE_ON_EXIT")) url += ";DB_CLOSE_ON_EXIT=FALSE";
        return url;
    }

    /** The .mv.db file an H2 URL opens: jdbc:h2:file:./data/tas and jdbc:h2:./data/tas name ./data/tas.mv.db; mem, tcp and other file systems none. */
    static Optional<Path> file(String url) {
        if (!url.startsWith("jdbc:h2:")) return Optional.empty();
        String name = url.substring("jdbc:h2:".length());
        int semi = name.indexOf(';');
        if (semi >= 0) name = name.substring(0, semi);
        if (name.startsWith("file:")) name = name.substring("file:".length());
        else if (inMemoryOrRemote(name)) return Optional.empty();
        if (name.startsWith("~")) name = System.getProperty("user.home") + name.substring(1);
        // Another file system (nio:, split:, zip:, ...): left to H2.
        if (name.indexOf(':') > 1) return Optional.empty();
        return Optional.of(Path.of(name + ".mv.db"));
    }

    /**
     * Whether only this process can open the database: an H2 file opened embedded, which H2 locks for the process that
     * has it open, unless the URL lets others in (AUTO_SERVER=TRUE) or turns the lock off (FILE_LOCK=NO). In-memory,
     * remote and other file systems: false.
     */
    static boolean exclusive(String url) {
        if (file(url).isEmpty()) return false;
        String upper = url.toUpperCase().replace(" ", "");
        return !upper.contains(";AUTO_SERVER=TRUE") && !upper.contains(";FILE_LOCK=NO");
    }

    /** Whether what follows "jdbc:h2:" names an in-memory database or one on a server: no file of this process. */
    private static boolean inMemoryOrRemote(String name) {
        return name.startsWith("mem:") || name.startsWith("tcp:") || name.startsWith("ssl:");
    }

    /** Whether the file a URL opens appends every chunk (D114): only such a file grows, and is rewritten here or by D204. */
    static boolean appendsChunks(String url) {
        return file(url).isPresent() && settings(url).toUpperCase().contains("REUSE_SPACE=FALSE");
    }

    /** Rewrites the file with its live data when it is at least minBytes and less than half live; whether it did. */
    static boolean compactIfSparse(String url, long minBytes) {
        Optional<Path> file = file(url);
        if (!appendsChunks(url)) return false;
        try {
            Path f = file.get();
            if (!Files.isRegularFile(f)) return false;
            long before = Files.size(f);
            if (before < minBytes) return false;
            int fill;
            try (MVStore store = new MVStore.Builder().fileName(f.toString()).readOnly().open()) {
                // Live share of the file: the blocks its listed chunks take, times the live share inside them. Dropped
                // chunks count in neither, listed dead ones in the second.
                fill = store.getFileStore().getFillRate() * store.getFileStore().getChunksFillRate() / 100;
            }
            if (fill >= COMPACT_BELOW_FILL_PERCENT) return false;
            long started = System.nanoTime();
            MVStoreTool.compact(f.toString(), false);
            log.info("H2 file {} rewritten with its live data: {} MB, {} % live, to {} MB in {} ms", f, before >> 20, fill,
                    Files.size(f) >> 20, (System.nanoTime() - started) / 1_000_000);
            return true;
        } catch (IOException | RuntimeException e) {
            // In use by another process, or unreadable: opening it next says so in H2's own words.
            log.warn("H2 file {} not compacted: {}", file.get(), e.toString());
            return false;
        }
    }
}
