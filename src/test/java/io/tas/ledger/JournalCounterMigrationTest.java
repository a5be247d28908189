package io.tas.ledger;

import io.tas.ledger.LedgerTypes.*;
import io.tas.support.Databases;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static io.tas.ledger.Ledger.move;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * V28 (D224) folds each counter row into its user row's counter column: rows written before it (pairs, user row at seq k,
 * counter row at k + 1) become one row per movement with the counter's name, and the counter rows go. A user row that
 * finds no counter row keeps counter null, a counter row that is not its user row's exact negation stays, and the
 * ledger check reports both; the migration never fails on them. A migrated transaction and a retry of its movements
 * compare equal (the repeat check of Ledger.postOnce). On H2 and PostgreSQL.
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class JournalCounterMigrationTest {
    @Parameter Databases.Kind kind;

    /** The schema just before V28: every migration up to V27. */
    static void migrateBeforeCounterColumn(Databases.TestDb db) { db.flyway().target("27").load().migrate(); }

    @Test
    void eachUserRowTakesItsCounterRowsNameAndTheCounterRowsGo() throws Exception {
        try (Databases.TestDb db = Databases.create(kind)) {
            migrateBeforeCounterColumn(db);
            try (Connection c = DriverManager.getConnection(db.url(), db.user(), ""); Statement s = c.createStatement()) {
                assertThat(columns(s)).doesNotContain("counter");
                s.execute("insert into ledger_tx (id, kind, ref, uid, created_time) values (100, 'spot_fill', 'f1', 7, 1),"
                        + " (200, 'adjustment', 'lone', 7, 2), (300, 'adjustment', 'odd', 8, 3)");
                s.execute("insert into journal (tx_id, seq, uid, account_type, field, coin, amount) values"
                        // A taker fill as Ledger.post wrote it before V28: three movements, each followed by its counter row.
                        + " (100, 0, 7, 'unified', 'frozen', 'USDT', -95.5),"
                        + " (100, 1, null, null, 'trade', 'USDT', 95.5),"
                        + " (100, 2, 7, 'unified', 'available', 'BTC', 0.001),"
                        + " (100, 3, null, null, 'trade', 'BTC', -0.001),"
                        + " (100, 4, 7, 'unified', 'available', 'BTC', -0.000000000000000001),"
                        + " (100, 5, null, null, 'fee', 'BTC', 0.000000000000000001),"
                        // A user row whose counter row is missing.
                        + " (200, 0, 7, 'unified', 'available', 'USDT', 5),"
                        // A counter row that is not the negation of the user row before it: neither is folded.
                        + " (300, 0, 8, 'spot', 'available', 'ETH', 2),"
                        + " (300, 1, null, null, 'adjustment', 'ETH', -3)");
            }

            db.flyway().load().migrate();

            try (Connection c = DriverManager.getConnection(db.url(), db.user(), ""); Statement s = c.createStatement()) {
                assertThat(rows(s)).containsExactly(
                        "100 0 7 unified frozen USDT -95.5 trade",
                        "100 2 7 unified available BTC 0.001 trade",
                        "100 4 7 unified available BTC -0.000000000000000001 fee",
                        "200 0 7 unified available USDT 5 null",
                        "300 0 8 spot available ETH 2 null",
                        "300 1 null null adjustment ETH -3 null");

                // As Database renders them: unquoted names, which H2 folds to upper case and PostgreSQL to lower.
                DSLContext dsl = DSL.using(c, kind == Databases.Kind.H2 ? SQLDialect.H2 : SQLDialect.POSTGRES,
                        new org.jooq.conf.Settings().withRenderQuotedNames(org.jooq.conf.RenderQuotedNames.NEVER));
                LedgerStore store = new LedgerStore();
                assertThat(store.unbalancedTransactions(dsl)).containsExactly("tx 200 seq 0 has no counter", "tx 300 seq 0 has no counter",
                        "tx 300 seq 1 is a counter row without its user row");
                // The user rows kept their amounts: no balance rows here, so each shows as the journal's sum alone.
                assertThat(store.balanceMismatches(dsl)).containsExactlyInAnyOrder(
                        "7/unified/USDT frozen: balance - journal = 95.500000000000000000",
                        "7/unified/BTC available: balance - journal = -0.000999999999999999",
                        "7/unified/USDT available: balance - journal = -5.000000000000000000",
                        "8/spot/ETH available: balance - journal = -2.000000000000000000");

                // The repeat check: the migrated fill equals a retry of its movements, and differs from other movements.
                BalanceKey usdt = new BalanceKey(7, AccountType.unified, "USDT"), btc = new BalanceKey(7, AccountType.unified, "BTC");
                List<Movement> fill = List.of(move(usdt, Field.frozen, new BigDecimal("-95.50"), Counter.trade),
                        move(btc, Field.available, new BigDecimal("0.001"), Counter.trade),
                        move(btc, Field.available, new BigDecimal("-0.000000000000000001"), Counter.fee));
                assertThat(store.journalOf(dsl, 100)).isEqualTo(LedgerStore.fingerprint(7, fill));
                assertThat(store.journalOf(dsl, 100)).isNotEqualTo(LedgerStore.fingerprint(7, List.of(fill.get(0), fill.get(1),
                        move(btc, Field.available, new BigDecimal("-0.000000000000000001"), Counter.trade))));
                // A row without its counter never equals a retry (the check reports it instead).
                assertThat(store.journalOf(dsl, 200)).isNotEqualTo(LedgerStore.fingerprint(7,
                        List.of(move(usdt, Field.available, new BigDecimal("5"), Counter.adjustment))));
            }
        }
    }

    private static List<String> columns(Statement s) throws java.sql.SQLException {
        List<String> out = new ArrayList<>();
        try (ResultSet rs = s.executeQuery("select * from journal where 1 = 0")) {
            for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) out.add(rs.getMetaData().getColumnName(i).toLowerCase(java.util.Locale.ROOT));
        }
        return out;
    }

    private static List<String> rows(Statement s) throws java.sql.SQLException {
        List<String> rows = new ArrayList<>();
        try (ResultSet rs = s.executeQuery("select tx_id, seq, uid, account_type, field, coin, amount, counter from journal order by tx_id, seq")) {
            while (rs.next()) {
                rows.add(rs.getLong(1) + " " + rs.getInt(2) + " " + rs.getObject(3) + " " + rs.getString(4) + " " + rs.getString(5)
                        + " " + rs.getString(6) + " " + rs.getBigDecimal(7).stripTrailingZeros().toPlainString() + " " + rs.getString(8));
            }
        }
        return rows;
    }
}
