package db.migration;

import io.tas.spot.FillWire;
import io.tas.spot.SpotFill;
import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Renders the wire JSON (V12) of the fills stored before it existed, in keyset chunks, with the same renderer the
 * insert path uses, so the fills row has one read path.
 */
public class V13__render_spot_fill_wire_json extends BaseJavaMigration {
    private static final int CHUNK = 5_000;

    @Override
    public void migrate(Context context) throws SQLException {
        Connection c = context.getConnection();
        String select = "select uid, trade_id, order_id, symbol, order_type, side, price_avg, size, amount, trade_scope, deduction, fee_coin,"
                + " total_deduction_fee, total_fee, c_time, u_time from spot_fill where wire_json = '' and (uid > ? or (uid = ? and trade_id > ?))"
                + " order by uid, trade_id limit " + CHUNK;
        try (PreparedStatement read = c.prepareStatement(select);
             PreparedStatement write = c.prepareStatement("update spot_fill set wire_json = ? where uid = ? and trade_id = ?")) {
            long uid = Long.MIN_VALUE;
            long tradeId = Long.MIN_VALUE;
            while (true) {
                read.setLong(1, uid);
                read.setLong(2, uid);
                read.setLong(3, tradeId);
                List<SpotFill> chunk = new ArrayList<>(CHUNK);
                try (ResultSet rs = read.executeQuery()) {
                    while (rs.next()) {
                        chunk.add(new SpotFill(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getString(4), rs.getString(5), rs.getString(6),
                                rs.getBigDecimal(7), rs.getBigDecimal(8), rs.getBigDecimal(9), rs.getString(10), rs.getString(11),
                                rs.getString(12), rs.getBigDecimal(13), rs.getBigDecimal(14), rs.getLong(15), rs.getLong(16)));
                    }
                }
                if (chunk.isEmpty()) return;
                for (SpotFill f : chunk) {
                    write.setString(1, FillWire.json(f));
                    write.setLong(2, f.uid());
                    write.setLong(3, f.tradeId());
                    write.addBatch();
                }
                write.executeBatch();
                SpotFill last = chunk.getLast();
                uid = last.uid();
                tradeId = last.tradeId();
            }
        }
    }
}
