package io.tas.ledger;

import io.tas.App;
import io.tas.admin.SeedFile;
import io.tas.config.Config;
import io.tas.support.Databases;
import io.tas.support.MutableClock;
import io.tas.support.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * D178: the journal has no foreign key to ledger_tx any more, so the ledger check reports what the key refused: a
 * journal row whose transaction was never written. D224: a row names its counter account, and the check reports a row
 * that names none. On H2 and PostgreSQL.
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class LedgerCheckTest {
    @Parameter Databases.Kind kind;

    /** A node on its own database with the demo seed, whose ledger check starts clean. */
    private static App demo(Databases.TestDb db) throws Exception {
        SeedFile demo = SeedFile.load("demo");
        return App.start(Config.fromEnv(Map.of()).withPort(0).withAdminPort(0).withDb(db.url(), db.user(), "")
                        .withAdminToken(TestServer.ADMIN_TOKEN).withSandbox(true).withRateLimits(false),
                new MutableClock(System.currentTimeMillis()), a -> a.seeds().apply(demo));
    }

    @Test
    void aJournalRowWithoutItsTransactionFailsTheCheck() throws Exception {
        try (Databases.TestDb db = Databases.create(kind); App app = demo(db)) {
            Ledger ledger = app.services().ledger();
            assertThat(ledger.check().ok()).as(ledger.check().toString()).isTrue();

            // A row of 0 USDT against a counter: it changes no balance, so only the missing transaction shows.
            app.database().tx(tx -> tx.dsl().execute("insert into journal (tx_id, seq, uid, account_type, field, coin, amount, counter)"
                    + " values (424242, 0, 1000000001, 'unified', 'available', 'USDT', 0, 'adjustment')"));

            Ledger.Check after = ledger.check();
            assertThat(after.ok()).isFalse();
            assertThat(after.unbalancedTransactions()).containsExactly("tx 424242 has journal rows but no ledger transaction");
            assertThat(after.balanceMismatches()).isEmpty();
        }
    }

    @Test
    void aJournalRowWithoutItsCounterFailsTheCheck() throws Exception {
        try (Databases.TestDb db = Databases.create(kind); App app = demo(db)) {
            Ledger ledger = app.services().ledger();
            assertThat(ledger.check().ok()).as(ledger.check().toString()).isTrue();

            // D224: a written transaction whose second row names no counter (what V28 leaves of a row without its pair), and a
            // counter row V28 left unfolded. Both 0 USDT: no balance moves, only the missing counters show.
            app.database().tx(tx -> {
                tx.dsl().execute("insert into ledger_tx (id, kind, ref, uid, created_time) values (434343, 'adjustment', null, 1000000001, 1)");
                tx.dsl().execute("insert into journal (tx_id, seq, uid, account_type, field, coin, amount, counter) values"
                        + " (434343, 0, 1000000001, 'unified', 'available', 'USDT', 0, 'adjustment'),"
                        + " (434343, 1, 1000000001, 'unified', 'frozen', 'USDT', 0, null),"
                        + " (434343, 2, null, null, 'deposit', 'USDT', 0, null)");
                return null;
            });

            Ledger.Check after = ledger.check();
            assertThat(after.ok()).isFalse();
            assertThat(after.unbalancedTransactions()).containsExactly("tx 434343 seq 1 has no counter",
                    "tx 434343 seq 2 is a counter row without its user row");
            assertThat(after.balanceMismatches()).isEmpty();
            assertThat(after.negativeBalances()).isEmpty();
        }
    }
}
