package io.tas.store;

import io.tas.config.Config;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * D204: an embedded H2 file is rewritten with its live data while the service runs. Writers and readers go on through
 * it (they wait, none fails), every acknowledged commit is there afterwards and after a reopen, and the file shrinks.
 */
class H2FileUpkeepTest {
    private static Config config(Path dir, int growthMb) {
        return Config.fromEnv(Map.of("TAS_DB_POOL_SIZE", "4")).withDb("jdbc:h2:file:" + dir.resolve("tas").toAbsolutePath(), "sa", "")
                .withH2CompactGrowthMb(growthMb);
    }

    @Test
    void aGrownFileIsRewrittenUnderLoadAndNoAcknowledgedCommitIsLost(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("tas.mv.db");
        Set<Long> acknowledged = ConcurrentHashMap.newKeySet();
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        AtomicLong ids = new AtomicLong();
        int rewrites = 0;
        long largest = 0, last;
        try (Database db = Database.open(config(dir, 0))) {
            db.autoCommit().execute("create table probe (id bigint primary key, pad varchar(200))");
            AtomicBoolean running = new AtomicBoolean(true);
            List<Thread> load = new ArrayList<>();
            for (int w = 0; w < 3; w++) {
                load.add(Thread.ofPlatform().start(() -> {
                    while (running.get()) {
                        long id = ids.incrementAndGet();
                        try {
                            db.tx(tx -> tx.dsl().execute("insert into probe values (?, ?)", id, "x".repeat(200)));
                            acknowledged.add(id);
                            db.read(r -> r.fetchValue("select count(*) from probe"));
                        } catch (Throwable t) {
                            failures.add(t);
                        }
                    }
                }));
            }
            try {
                long deadline = System.nanoTime() + 60_000_000_000L; // bounded: a broken pause must not hang the build
                while (rewrites < 3 && System.nanoTime() < deadline) {
                    largest = Math.max(largest, Files.size(file));
                    H2FileUpkeep.Outcome o = db.compactIfGrownOutcome().orElseThrow();
                    if (o.compacted()) {
                        rewrites++;
                        // Read while the writers were held: they append again as soon as the pools resume.
                        assertThat(o.bytesAfter()).as("rewritten with its live data").isLessThan(o.bytesBefore() / 2);
                    }
                    Thread.sleep(20);
                }
            } finally {
                running.set(false);
                for (Thread t : load) t.join(30_000);
            }
            assertThat(failures).as("callers waited through every rewrite, none failed").isEmpty();
            assertThat(rewrites).as("rewrites while 3 writers committed").isEqualTo(3);
            List<Long> present = db.read(r -> r.fetch("select id from probe").getValues(0, Long.class));
            assertThat(present).containsAll(acknowledged);
            last = Files.size(file);
        }
        System.out.printf("%d commits acknowledged; the file reached %d bytes and was rewritten %d times (%d bytes at the end)%n",
                acknowledged.size(), largest, rewrites, last);
        assertThat(acknowledged).hasSizeGreaterThan(100);
        try (Database reopened = Database.open(config(dir, 0))) {
            List<Long> present = reopened.read(r -> r.fetch("select id from probe").getValues(0, Long.class));
            assertThat(present).as("on disk").containsAll(acknowledged);
        }
    }

    @Test
    void aFileBelowTheGrowthOrSharedInThisJvmIsLeftAlone(@TempDir Path dir) throws Exception {
        try (Database db = Database.open(config(dir, 1024))) {
            db.autoCommit().execute("create table probe (id bigint primary key)");
            for (int i = 0; i < 300; i++) db.autoCommit().execute("insert into probe values (?)", i);
            assertThat(db.compactIfGrown()).as("grown by less than 1024 MB").isFalse();
        }
        try (Database a = Database.open(config(dir, 0))) {
            try (Database b = Database.open(config(dir, 0))) {
                for (int i = 300; i < 2_000; i++) a.autoCommit().execute("insert into probe values (?)", i);
                assertThat(a.compactIfGrown()).as("a shutdown by a would cut off b's connections").isFalse();
                long rows = b.read(r -> ((Number) r.fetchValue("select count(*) from probe")).longValue());
                assertThat(rows).isEqualTo(2_000L);
            }
            assertThat(a.compactIfGrown()).as("alone on the file again").isTrue();
            long rows = a.read(r -> ((Number) r.fetchValue("select count(*) from probe")).longValue());
            assertThat(rows).isEqualTo(2_000L);
        }
    }
}
