package io.tas.store;

import io.tas.App;
import io.tas.account.AccountEnums.AccountKind;
import io.tas.account.AccountEnums.Category;
import io.tas.account.AccountEnums.MarginMode;
import io.tas.admin.SeedFile;
import io.tas.admin.SeedFile.LedgerOp;
import io.tas.admin.SeedFile.SeedAccount;
import io.tas.config.Config;
import io.tas.position.Position.HoldSide;
import io.tas.position.PositionService;
import io.tas.support.Databases;
import io.tas.support.MutableClock;
import io.tas.support.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.*;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * No thread takes a second pooled connection while its transaction holds one (issue 7, item 2): with a pool of
 * one connection, seeding (accounts, balances, positions in one transaction), concurrent position opens on
 * accounts whose balance rows do not exist yet, and group-commit deposits all finish. Before, each of them took
 * a second connection and waited for the pool's 30 s timeout.
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class OneConnectionPerTransactionTest {
    @Parameter Databases.Kind kind;

    @Test
    void everythingRunsOnAPoolOfOneConnection() {
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            try (Databases.TestDb db = Databases.create(kind)) {
                Config config = Config.fromEnv(Map.of("TAS_DB_POOL_SIZE", "1")).withPort(0).withAdminPort(0)
                        .withDb(db.url(), db.user(), "").withAdminToken(TestServer.ADMIN_TOKEN).withSandbox(true).withRateLimits(false);
                SeedFile demo = SeedFile.load("demo");
                try (App app = App.start(config, new MutableClock(System.currentTimeMillis()), a -> a.seeds().apply(demo))) {
                    var provisioning = app.admin().provisioning();
                    var money = app.admin().money();
                    List<Long> uids = new ArrayList<>();
                    for (int i = 0; i < 8; i++) {
                        uids.add(provisioning.createAccount(new SeedAccount(null, "one-conn-" + i, AccountKind.UNIFIED, null, null, null,
                                null, null, null, null, null, null, null, null, null, null), null).uid());
                    }
                    ExecutorService pool = Executors.newFixedThreadPool(16);
                    List<Future<?>> work = new ArrayList<>();
                    for (long uid : uids) {
                        // A deposit through the group commit creates the row; an open on an account without USDT is refused.
                        work.add(pool.submit(() -> money.deposit(new LedgerOp(uid, "unified", "USDT", new BigDecimal("1000"), "one-conn-" + uid))));
                        work.add(pool.submit(() -> {
                            try {
                                return app.services().positions().open(new PositionService.Open(uid, Category.USDT_FUTURES, "ETHUSDT",
                                        HoldSide.short_, MarginMode.crossed, BigDecimal.TEN, new BigDecimal("0.1"), new BigDecimal("3400"), BigDecimal.ZERO, null));
                            } catch (io.tas.error.ApiException insufficientBeforeTheDeposit) {
                                return null;
                            }
                        }));
                    }
                    for (Future<?> f : work) f.get(15, TimeUnit.SECONDS);
                    pool.shutdown();
                    assertThat(app.services().ledger().check().ok()).isTrue();
                    for (long uid : uids) {
                        assertThat(app.services().ledger().balance(new io.tas.ledger.LedgerTypes.BalanceKey(uid,
                                io.tas.ledger.LedgerTypes.AccountType.unified, "USDT")).available().add(
                                app.services().ledger().balance(new io.tas.ledger.LedgerTypes.BalanceKey(uid,
                                        io.tas.ledger.LedgerTypes.AccountType.unified, "USDT")).frozen())).isEqualByComparingTo("1000");
                    }
                }
            }
        });
    }

    @Test
    void aSecondConnectionInsideATransactionIsRefusedAtOnce() throws Exception {
        try (Databases.TestDb db = Databases.create(kind)) {
            Config config = Config.fromEnv(Map.of()).withDb(db.url(), db.user(), "");
            try (Database database = Database.open(config)) {
                // Issue 24: work inside a transaction is handed its Tx; asking for another connection fails at once.
                assertThatThrownBy(() -> database.tx(tx -> database.autoCommit()))
                        .isInstanceOf(IllegalStateException.class).hasMessageContaining("pass the Tx");
                assertThatThrownBy(() -> database.tx(tx -> database.tx(inner -> 1)))
                        .isInstanceOf(IllegalStateException.class).hasMessageContaining("pass the Tx");
                assertThatThrownBy(() -> database.tx(tx -> database.read(dsl -> 1)))
                        .isInstanceOf(IllegalStateException.class).hasMessageContaining("pass the Tx");
                assertThat(database.autoCommit().fetchOne("select 1").get(0, Integer.class)).isEqualTo(1);
                // A read session is one connection too, and nothing inside it pretends to be atomic.
                assertThatThrownBy(() -> database.read(dsl -> database.autoCommit()))
                        .isInstanceOf(IllegalStateException.class).hasMessageContaining("pass the Tx");
                assertThatThrownBy(() -> database.read(dsl -> database.tx(t -> 1)))
                        .isInstanceOf(IllegalStateException.class).hasMessageContaining("pass the Tx");
                // Cache fills read on the connection the thread holds: a miss inside a transaction sees its writes.
                boolean sameSession = database.read(dsl -> database.cacheRead(c -> c == dsl));
                boolean sameTransaction = database.tx(tx -> database.cacheRead(c -> c == tx.dsl()));
                assertThat(sameSession).isTrue();
                assertThat(sameTransaction).isTrue();
                // After-commit work runs once the commit is done, and not after a rollback.
                java.util.List<String> ran = new java.util.ArrayList<>();
                database.tx(tx -> { tx.afterCommit(() -> ran.add("committed")); return null; });
                assertThatThrownBy(() -> database.tx(tx -> { tx.afterCommit(() -> ran.add("rolled back")); throw new IllegalStateException("no"); }))
                        .hasMessage("no");
                assertThat(ran).containsExactly("committed");
            }
        }
    }
}
