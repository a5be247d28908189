package io.tas.store;

import io.tas.config.Config;
import io.tas.support.Databases;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * D207: the WebSocket pushes read on connections of their own. With every request connection taken, a read on a push
 * thread still answers, while a read on any other thread waits in line for a request connection.
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class PushConnectionsTest {
    @Parameter Databases.Kind kind;

    @Test
    void aPushReadDoesNotWaitBehindTheRequests() throws Exception {
        try (Databases.TestDb testDb = Databases.create(kind);
             Database db = Database.open(Config.fromEnv(Map.of("TAS_DB_POOL_SIZE", "1")).withDb(testDb.url(), testDb.user(), ""));
             var plain = Executors.newSingleThreadExecutor();
             var push = Executors.newSingleThreadExecutor(db.pushReaders(Thread.ofPlatform().name("push-reader").factory()))) {
            CountDownLatch holding = new CountDownLatch(1), release = new CountDownLatch(1);
            Thread holder = Thread.ofPlatform().start(() -> db.read(dsl -> {
                holding.countDown();
                try {
                    return release.await(20, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }));
            assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue(); // the request pool's one connection is taken

            CompletableFuture<Integer> waiting = CompletableFuture.supplyAsync(() -> db.read(dsl -> dsl.select(org.jooq.impl.DSL.inline(2)).fetchOne(0, Integer.class)), plain);
            Integer pushed = push.submit(() -> db.read(dsl -> dsl.select(org.jooq.impl.DSL.inline(1)).fetchOne(0, Integer.class))).get(10, TimeUnit.SECONDS);

            assertThat(pushed).isEqualTo(1);
            assertThat(waiting).isNotDone(); // still in line for the request connection
            release.countDown();
            assertThat(waiting.get(10, TimeUnit.SECONDS)).isEqualTo(2);
            holder.join();
        }
    }
}
