package io.tas.store;

import io.tas.config.Config;
import io.tas.support.Databases;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * D229: on PostgreSQL the pushes' reads are planned each time. A statement prepared on a nearly empty table and run a
 * few times keeps its generic plan however large the table then grows (nothing re-plans it without an ANALYZE); for
 * the engine's order reads that plan was a sequential scan of trade_order. On a push thread's connection the same
 * statement is planned for its values and the table as it is; a request connection keeps the generic plan. A
 * temporary table, so that no ANALYZE (autovacuum's or another test's) can interfere.
 */
class PushReadPlansTest {
    @Test
    void aPushReadIsPlannedForTheTableAsItIsNow() throws Exception {
        try (Databases.TestDb testDb = Databases.create(Databases.Kind.POSTGRES);
             Database db = Database.open(Config.fromEnv(Map.of()).withDb(testDb.url(), testDb.user(), ""));
             var push = Executors.newSingleThreadExecutor(db.pushReaders(Thread.ofPlatform().name("push-reader").factory()))) {
            String pushPlan = push.submit(() -> planAfterGrowth(db)).get(60, TimeUnit.SECONDS);
            String requestPlan = planAfterGrowth(db);

            // Planned for this run's values, and for the 20,000 rows: the primary key's index, no scan of the table.
            assertThat(pushPlan).contains("'{7,8}'").doesNotContain("$1").contains("growing_pkey").doesNotContain("Seq Scan");
            // The generic plan (its parameters unbound) made while the table was one page, kept after it grew.
            assertThat(requestPlan).contains("$1").contains("$2");
        }
    }

    /** A two-key IN read prepared and run on a table of one page, then grown to 20,000 rows: the plan its next run takes. */
    private static String planAfterGrowth(Database db) {
        return db.read(dsl -> dsl.connectionResult(c -> {
            try (var s = c.createStatement()) {
                s.execute("create temporary table growing (id bigint primary key, pad text not null)");
                s.execute("insert into growing select g, repeat('x', 200) from generate_series(1, 10) g"); // one page
                s.execute("prepare by_ids(bigint, bigint) as select id, pad from growing where id in ($1, $2) order by id");
                for (int i = 0; i < 8; i++) s.execute("execute by_ids(" + i + ", " + (i + 1) + ")");
                s.execute("insert into growing select g, repeat('x', 200) from generate_series(11, 20000) g");
                StringBuilder plan = new StringBuilder();
                try (var rs = s.executeQuery("explain execute by_ids(7, 8)")) {
                    while (rs.next()) plan.append(rs.getString(1)).append('\n');
                }
                s.execute("deallocate by_ids");
                s.execute("drop table growing");
                return plan.toString();
            }
        }));
    }
}
