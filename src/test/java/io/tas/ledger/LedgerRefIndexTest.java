package io.tas.ledger;

import io.tas.admin.Provisioning;
import io.tas.admin.SeedFile.SeedAccount;
import io.tas.ledger.LedgerTypes.*;
import io.tas.support.Databases;
import io.tas.support.ServerPool;
import io.tas.support.TestServer;
import org.jooq.exception.IntegrityConstraintViolationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.math.BigDecimal;
import java.util.List;

import static io.tas.ledger.Ledger.move;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * D227: the unique (kind, ref) index of ledger transactions holds, on PostgreSQL, only those a repeat is found by: a
 * posting's repeat is still found and a second one refused by the index, an engine order's placement is not in it, and
 * the repeat lookup's generic plan reads the index. On H2 (full index) the repeat rules are the same.
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class LedgerRefIndexTest {
    @Parameter Databases.Kind kind;

    private long account(TestServer server) {
        Provisioning provisioning = server.app.admin().provisioning();
        return provisioning.createAccount(new SeedAccount(null, "ref-" + System.nanoTime(), null, null, null, null, null, null, null,
                null, null, null, null, null, null, null), null).uid();
    }

    @Test
    void aRepeatIsFoundByItsRefAndAnOrderPlacementIsNotPostedOnce() {
        TestServer server = ServerPool.next(kind);
        Ledger ledger = server.app.services().ledger();
        long uid = account(server);
        BalanceKey usdt = new BalanceKey(uid, AccountType.unified, "USDT");
        String ref = "d227-" + uid;
        List<LedgerTypes.Movement> ten = List.of(move(usdt, Field.available, new BigDecimal("10"), Counter.deposit));
        long first = ledger.postOnce("deposit", ref, uid, ten).txId();
        assertThat(ledger.postOnce("deposit", ref, uid, ten).txId()).as("the same posting again is its repeat").isEqualTo(first);
        BigDecimal available = server.app.database().read(dsl -> dsl.fetchOne("select available from balance where uid = ? and coin = 'USDT'", uid)
                .get(0, BigDecimal.class));
        assertThat(available).as("posted once").isEqualByComparingTo("10");
        assertThatThrownBy(() -> ledger.postOnce(Ledger.ORDER_PLACE, ref, uid, ten)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void onPostgresqlTheIndexHoldsRepeatableTransactionsOnlyAndTheLookupUsesIt() {
        assumeTrue(kind == Databases.Kind.POSTGRES);
        TestServer server = ServerPool.next(kind);
        long uid = account(server);
        String ref = "d227-pg-" + uid;
        String insert = "insert into ledger_tx (id, kind, ref, uid, created_time) values (?, ?, ?, ?, 0)";
        try {
            rowsOfOneRef(server, insert, ref, uid);
        } finally { // the pooled server's ledger keeps no transaction without movements
            server.app.database().tx(tx -> tx.dsl().execute("delete from ledger_tx where ref = ?", ref));
        }
    }

    private static void rowsOfOneRef(TestServer server, String insert, String ref, long uid) {
        server.app.database().tx(tx -> tx.dsl().execute(insert, 9_000_000_000_001L + uid, "deposit", ref, uid));
        // A second deposit under the ref: the index refuses it.
        assertThatThrownBy(() -> server.app.database().tx(tx -> tx.dsl().execute(insert, 9_000_000_000_002L + uid, "deposit", ref, uid)))
                .isInstanceOf(IntegrityConstraintViolationException.class);
        // Two placements with one ref are not in the index: nothing refuses them.
        server.app.database().tx(tx -> tx.dsl().execute(insert, 9_000_000_000_003L + uid, Ledger.ORDER_PLACE, ref, uid)
                + tx.dsl().execute(insert, 9_000_000_000_004L + uid, Ledger.ORDER_PLACE, ref, uid));
        // The lookup's predicate repeats the index's, so even a generic plan (no parameter values known) may read the
        // index; without it the partial index could not serve a lookup of unknown kind and ref.
        String plan = server.app.database().tx(tx -> {
            tx.dsl().execute("set local plan_cache_mode = force_generic_plan");
            tx.dsl().execute("set local enable_seqscan = off"); // a small table: the index is taken whenever it may be
            // The service's own lookup, its two parameters as $1 and $2.
            String lookup = tx.dsl().render(LedgerStore.txByRefQuery(tx.dsl(), "deposit", "x")).replaceFirst("\\?", "\\$1").replaceFirst("\\?", "\\$2");
            tx.dsl().execute("prepare d227_lookup(text, text) as " + lookup);
            String p = String.join("\n", tx.dsl().fetch("explain execute d227_lookup('deposit', 'x')").map(r -> r.get(0, String.class)));
            tx.dsl().execute("deallocate d227_lookup");
            return p;
        });
        assertThat(plan).contains("ledger_tx_ref");
    }
}
