package db.migration;

import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The matching engine's write path (D177, D178).
 * - Both databases drop V2's journal_by_balance: no query reads the journal by balance (the conservation check scans it
 *   whole), and every fill paid for it on each journal row. They drop the journal's foreign key to ledger_tx too: its
 *   per-row check made a journal row cost 2.6 times as much, and the ledger check (GET /admin/v1/ledger/check) now
 *   reports a journal row without its transaction instead (D178).
 * - On PostgreSQL the book index holds only resting orders (working limit orders), a partial index, and the full one
 *   goes: it kept every filled market order under its symbol, and the prepared "does a resting order cross this
 *   taker?" test (its generic plan filters status after the index) read thousands of finished orders per call. A second
 *   partial index keeps them oldest first, the order a ticker sweep fills them in. The predicates' literals must match
 *   OrderStore.RESTING's exactly, or PostgreSQL cannot use them. H2 has no partial indexes and keeps V16's.
 */
public class V21__book_and_journal_indexes extends BaseJavaMigration {
    @Override
    public void migrate(Context context) throws SQLException {
        Connection c = context.getConnection();
        boolean postgres = c.getMetaData().getDatabaseProductName().toLowerCase().contains("postgres");
        try (Statement s = c.createStatement()) {
            s.execute("drop index journal_by_balance");
            for (String fk : journalForeignKeys(s)) s.execute("alter table journal drop constraint " + fk);
            if (!postgres) return;
            String resting = " where status in ('live', 'partially_filled') and order_type = 'limit'";
            s.execute("create index trade_order_resting on trade_order (category, symbol, side, price, order_id)" + resting);
            s.execute("create index trade_order_resting_age on trade_order (category, symbol, order_id)" + resting);
            s.execute("drop index trade_order_book");
        }
    }

    private static List<String> journalForeignKeys(Statement s) throws SQLException {
        List<String> names = new ArrayList<>();
        try (ResultSet rs = s.executeQuery("select constraint_name from information_schema.table_constraints"
                + " where upper(table_name) = 'JOURNAL' and constraint_type = 'FOREIGN KEY'")) {
            while (rs.next()) names.add(rs.getString(1));
        }
        return names;
    }
}
