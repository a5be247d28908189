package io.tas.ledger;

import io.tas.support.Databases;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * V24 (D216) rebuilds the journal keyed by (tx_id, seq): rows written before it keep every value, each transaction's rows
 * get seq 0, 1, ... in the order of their old IDs, and the new key refuses a second row at the same place. Checked in the
 * schema before V28, which folds the counter rows into their user rows (D224).
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class JournalKeyMigrationTest {
    @Parameter Databases.Kind kind;

    @Test
    void rowsWrittenBeforeKeepTheirValuesAndTheirOrderPerTransaction() throws Exception {
        try (Databases.TestDb db = Databases.create(kind)) {
            db.flyway().target("23").load().migrate();
            try (Connection c = DriverManager.getConnection(db.url(), db.user(), ""); Statement s = c.createStatement()) {
                s.execute("insert into ledger_tx (id, kind, ref, uid, created_time) values (500, 'deposit', 'a', 7, 1), (300, 'adjustment', null, 7, 2)");
                // Transaction 500's rows have IDs on both sides of transaction 300's: the order is per transaction.
                s.execute("insert into journal (id, tx_id, uid, account_type, field, coin, amount) values"
                        + " (510, 500, 7, 'UNIFIED', 'available', 'USDT', 12.5),"
                        + " (530, 500, null, null, 'deposit', 'USDT', -12.5),"
                        + " (520, 300, 7, 'UNIFIED', 'frozen', 'BTC', 0.000000000000000001),"
                        + " (540, 300, null, null, 'adjustment', 'BTC', -0.000000000000000001),"
                        + " (505, 500, 7, 'UNIFIED', 'debt', 'USDT', 3)");
            }
            // Up to V27: V28 folds the counter rows into their user rows (D224, JournalCounterMigrationTest).
            JournalCounterMigrationTest.migrateBeforeCounterColumn(db);
            try (Connection c = DriverManager.getConnection(db.url(), db.user(), ""); Statement s = c.createStatement()) {
                List<String> rows = new ArrayList<>();
                try (ResultSet rs = s.executeQuery("select tx_id, seq, uid, account_type, field, coin, amount from journal order by tx_id, seq")) {
                    while (rs.next()) {
                        rows.add(rs.getLong(1) + " " + rs.getInt(2) + " " + rs.getObject(3) + " " + rs.getString(4) + " " + rs.getString(5)
                                + " " + rs.getString(6) + " " + rs.getBigDecimal(7).stripTrailingZeros().toPlainString());
                    }
                }
                assertThat(rows).containsExactly(
                        "300 0 7 UNIFIED frozen BTC 0.000000000000000001",
                        "300 1 null null adjustment BTC -0.000000000000000001",
                        "500 0 7 UNIFIED debt USDT 3",
                        "500 1 7 UNIFIED available USDT 12.5",
                        "500 2 null null deposit USDT -12.5");
                assertThatThrownBy(() -> s.execute("insert into journal (tx_id, seq, uid, account_type, field, coin, amount)"
                        + " values (500, 2, null, null, 'deposit', 'USDT', 0)")).isInstanceOf(java.sql.SQLException.class);
            }
        }
    }
}
