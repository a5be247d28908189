package io.tas.reality;

import io.tas.support.Databases;
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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * V27 (D223) moves every reality_order row into trade_order as a SPOT Reality order: its figures as they were, its fee
 * summed from its fills (the last fill's coin), a MARGIN one as SPOT, and a clientOid an engine order of the account
 * already holds dropped from the Reality order. reality_order is gone.
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class RealityOrderMigrationTest {
    @Parameter Databases.Kind kind;

    @Test
    void realityOrdersBecomeSpotOrdersOfTheEngine() throws Exception {
        try (Databases.TestDb db = Databases.create(kind)) {
            db.flyway().target("25").load().migrate();
            try (Connection c = DriverManager.getConnection(db.url(), db.user(), ""); Statement s = c.createStatement()) {
                String cols = "(uid, order_id, client_oid, category, symbol, base_coin, quote_coin, side, order_type, price, qty, frozen_coin,"
                        + " frozen, filled_qty, filled_amount, status, c_time, u_time)";
                // A partially filled limit buy (two fills), a filled MARGIN market sell whose clientOid an engine order
                // holds (one fill, its fee in BGB), and another account's live order without a clientOid.
                s.execute("insert into reality_order " + cols + " values"
                        + " (7, 1001, 'r-1', 'SPOT', 'AAPLXUSDT', 'AAPLX', 'USDT', 'buy', 'limit', 100, 3, 'USDT', 150, 1.5, 150, 'partially_filled', 10, 20),"
                        + " (7, 1002, 'dup', 'MARGIN', 'AAPLXUSDT', 'AAPLX', 'USDT', 'sell', 'market', null, 2, 'AAPLX', 0, 2, 400, 'filled', 30, 31),"
                        + " (8, 1003, null, 'SPOT', 'AAPLXUSDT', 'AAPLX', 'USDT', 'sell', 'limit', 250, 1, 'AAPLX', 1, 0, 0, 'live', 40, 40)");
                s.execute("insert into trade_order (order_id, uid, client_oid, category, symbol, side, order_type, time_in_force, price, qty,"
                        + " hold_mode, reduce_only, frozen_coin, frozen, cum_exec_qty, cum_exec_value, fee, status, c_time, u_time)"
                        + " values (2001, 7, 'dup', 'SPOT', 'ETHUSDT', 'buy', 'limit', 'gtc', 10, 1, 'one_way_mode', false, 'USDT', 10, 0, 0, 0, 'live', 5, 5)");
                String fill = "insert into spot_fill (uid, trade_id, order_id, symbol, order_type, side, price_avg, size, amount, trade_scope,"
                        + " deduction, fee_coin, total_deduction_fee, total_fee, c_time, u_time, category, wire_json) values ";
                s.execute(fill + "(7, 1, 1001, 'AAPLXUSDT', 'limit', 'buy', 100, 1, 100, 'taker', 'no', 'AAPLX', 0, -0.001, 11, 11, 'SPOT', '{}'),"
                        + " (7, 2, 1001, 'AAPLXUSDT', 'limit', 'buy', 100, 0.5, 50, 'maker', 'no', 'AAPLX', 0, -0.0005, 12, 12, 'SPOT', '{}'),"
                        + " (7, 3, 1002, 'AAPLXUSDT', 'market', 'sell', 200, 2, 400, 'taker', 'yes', 'BGB', -0.05, -0.05, 31, 31, 'MARGIN', '{}')");
            }
            db.flyway().load().migrate();
            try (Connection c = DriverManager.getConnection(db.url(), db.user(), ""); Statement s = c.createStatement()) {
                List<String> rows = new ArrayList<>();
                try (ResultSet rs = s.executeQuery("select order_id, uid, client_oid, category, side, order_type, time_in_force, price, qty,"
                        + " frozen_coin, frozen, cum_exec_qty, cum_exec_value, fee, fee_coin, status, hold_mode, reduce_only, classic, reality,"
                        + " c_time, u_time from trade_order order by order_id")) {
                    while (rs.next()) {
                        StringBuilder b = new StringBuilder();
                        for (int i = 1; i <= 22; i++) b.append(i == 1 ? "" : " ").append(plain(rs.getObject(i)));
                        rows.add(b.toString());
                    }
                }
                // fee: 0.001 + 0.0005 = 0.0015 AAPLX; 0.05 BGB.
                assertThat(rows).containsExactly(
                        "1001 7 r-1 SPOT buy limit gtc 100 3 USDT 150 1.5 150 0.0015 AAPLX partially_filled one_way_mode false false true 10 20",
                        "1002 7 null SPOT sell market gtc null 2 AAPLX 0 2 400 0.05 BGB filled one_way_mode false false true 30 31",
                        "1003 8 null SPOT sell limit gtc 250 1 AAPLX 1 0 0 0 null live one_way_mode false false true 40 40",
                        "2001 7 dup SPOT buy limit gtc 10 1 USDT 10 0 0 0 null live one_way_mode false false false 5 5");
                assertThatThrownBy(() -> s.executeQuery("select count(*) from reality_order")).isInstanceOf(java.sql.SQLException.class);
            }
        }
    }

    private static String plain(Object v) {
        return v instanceof BigDecimal d ? (d.signum() == 0 ? "0" : d.stripTrailingZeros().toPlainString()) : String.valueOf(v);
    }

}
