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
 * journal row whose transaction was never written. On H2 and PostgreSQL.
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class LedgerCheckTest {
    @Parameter Databases.Kind kind;

    @Test
    void aJournalRowWithoutItsTransactionFailsTheCheck() throws Exception {
        SeedFile demo = SeedFile.load("demo");
        try (Databases.TestDb db = Databases.create(kind);
             App app = App.start(Config.fromEnv(Map.of()).withPort(0).withAdminPort(0).withDb(db.url(), db.user(), "")
                     .withAdminToken(TestServer.ADMIN_TOKEN).withSandbox(true).withRateLimits(false),
                     new MutableClock(System.currentTimeMillis()), a -> a.seeds().apply(demo))) {
            Ledger ledger = app.services().ledger();
            assertThat(ledger.check().ok()).as(ledger.check().toString()).isTrue();

            // A counter row of 0 USDT: it changes no balance and sums to zero, so only the missing transaction shows.
            app.database().tx(tx -> tx.dsl().execute("insert into journal (tx_id, seq, uid, account_type, field, coin, amount)"
                    + " values (424242, 0, null, null, 'adjustment', 'USDT', 0)"));

            Ledger.Check after = ledger.check();
            assertThat(after.ok()).isFalse();
            assertThat(after.unbalancedTransactions()).containsExactly("tx 424242 has journal rows but no ledger transaction");
            assertThat(after.balanceMismatches()).isEmpty();
        }
    }
}
