package db.migration;

import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * D225: on PostgreSQL the unique (uid, client_oid) index of orders holds only the orders that carry a clientOid. A
 * unique index keeps an entry for every NULL too, so each order placed without one (a bot's plain market order) paid for
 * an entry no lookup reads: every lookup names a clientOid, which the partial index's predicate covers. H2 has no
 * partial indexes and keeps V16's.
 */
public class V30__client_oid_index_of_orders_with_one extends BaseJavaMigration {
    @Override
    public void migrate(Context context) throws SQLException {
        Connection c = context.getConnection();
        if (!c.getMetaData().getDatabaseProductName().toLowerCase().contains("postgres")) return;
        try (Statement s = c.createStatement()) {
            s.execute("drop index trade_order_client_oid");
            s.execute("create unique index trade_order_client_oid on trade_order (uid, client_oid) where client_oid is not null");
        }
    }
}
