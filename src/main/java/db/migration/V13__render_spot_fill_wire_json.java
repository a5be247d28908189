package db.migration;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Renders the wire JSON (V12) of the fills stored before it existed, in keyset chunks, so the fills row has one read
 * path. A migration never changes once it has shipped (D143): it carries its own copy of the §2.17 renderer as it was
 * when it shipped (io.tas.spot.FillWire at 8466a50) and uses none of the service's classes, whatever they become.
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
                List<Fill> chunk = new ArrayList<>(CHUNK);
                try (ResultSet rs = read.executeQuery()) {
                    while (rs.next()) {
                        chunk.add(new Fill(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getString(4), rs.getString(5), rs.getString(6),
                                rs.getBigDecimal(7), rs.getBigDecimal(8), rs.getBigDecimal(9), rs.getString(10), rs.getString(11),
                                rs.getString(12), rs.getBigDecimal(13), rs.getBigDecimal(14), rs.getLong(15), rs.getLong(16)));
                    }
                }
                if (chunk.isEmpty()) return;
                for (Fill f : chunk) {
                    write.setString(1, json(f));
                    write.setLong(2, f.uid());
                    write.setLong(3, f.tradeId());
                    write.addBatch();
                }
                write.executeBatch();
                Fill last = chunk.getLast();
                uid = last.uid();
                tradeId = last.tradeId();
            }
        }
    }

    /** A stored fill's columns, as V12 left them. */
    private record Fill(long uid, long tradeId, long orderId, String symbol, String orderType, String side, BigDecimal priceAvg,
                        BigDecimal size, BigDecimal amount, String tradeScope, String deduction, String feeCoin,
                        BigDecimal totalDeductionFee, BigDecimal totalFee, long cTime, long uTime) {}

    private static final JsonFactory JSON = new JsonFactory();

    /** §2.17 as rendered when this migration shipped: every field a string in this order, feeDetail an object. */
    static String json(Fill f) {
        StringWriter out = new StringWriter(256);
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.writeStartObject();
            g.writeStringField("userId", Long.toString(f.uid()));
            g.writeStringField("symbol", f.symbol());
            g.writeStringField("orderId", Long.toString(f.orderId()));
            g.writeStringField("tradeId", Long.toString(f.tradeId()));
            g.writeStringField("orderType", f.orderType());
            g.writeStringField("side", f.side());
            g.writeStringField("priceAvg", plain(f.priceAvg()));
            g.writeStringField("size", plain(f.size()));
            g.writeStringField("amount", plain(f.amount()));
            g.writeStringField("tradeScope", f.tradeScope());
            g.writeObjectFieldStart("feeDetail");
            g.writeStringField("deduction", f.deduction());
            g.writeStringField("feeCoin", f.feeCoin());
            g.writeStringField("totalDeductionFee", plain(f.totalDeductionFee()));
            g.writeStringField("totalFee", plain(f.totalFee()));
            g.writeEndObject();
            g.writeStringField("cTime", Long.toString(f.cTime()));
            g.writeStringField("uTime", Long.toString(f.uTime()));
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    /** Money as the wire wrote it then: plain, no exponent, no trailing zeros, "0" for zero, "" for none. */
    private static String plain(BigDecimal v) {
        if (v == null) return "";
        if (v.signum() == 0) return "0";
        return v.stripTrailingZeros().toPlainString();
    }
}
