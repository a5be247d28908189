package io.tas.spot;

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
 * Fills stored before V12 have no wire JSON; the V13 Java migration renders it, identical to what the insert path
 * writes, so the fills row can serve every page from the stored JSON.
 */
@ParameterizedClass
@EnumSource(Databases.Kind.class)
class FillWireBackfillTest {
    @Parameter Databases.Kind kind;

    /**
     * D143: a migration never changes once it has shipped, so no Java migration may call the service's own classes
     * (they change with the service): its compiled classes name nothing under io/tas/. Failed when V13 called FillWire.
     */
    @Test
    void javaMigrationsUseNoneOfTheServicesClasses() throws Exception {
        java.nio.file.Path dir = java.nio.file.Path.of("target", "classes", "db", "migration");
        List<java.nio.file.Path> classes;
        try (var files = java.nio.file.Files.list(dir)) {
            classes = files.filter(f -> f.toString().endsWith(".class")).toList();
        }
        assertThat(classes).isNotEmpty();
        for (java.nio.file.Path c : classes) {
            String bytes = new String(java.nio.file.Files.readAllBytes(c), java.nio.charset.StandardCharsets.ISO_8859_1);
            assertThat(bytes).as(c.getFileName() + " refers to a class of the service").doesNotContain("io/tas/");
        }
    }

    @Test
    void rowsStoredBeforeTheColumnGetTheirJson() throws Exception {
        try (Databases.TestDb db = Databases.create(kind)) {
            db.flyway().target("12").load().migrate(); // the column exists, the backfill has not run
            try (Connection c = DriverManager.getConnection(db.url(), db.user(), ""); Statement s = c.createStatement()) {
                // Two rows as an older version stored them (scale 18, no wire_json), a third uid in between.
                for (String values : List.of(
                        "(7, 900, 901, 'BTCUSDT', 'limit', 'buy', 27000.500000000000000000, 0.010000000000000000, 270.005000000000000000,"
                                + " 'maker', 'no', 'USDT', 0, 0.270005000000000000, 1700000000000, 1700000000001)",
                        "(7, 5, 5, 'ETHUSDT', 'market', 'sell', 2000, 1.5, 3000, 'taker', 'yes', 'BGB', 0.12, 0, 1700000000100, 1700000000100)",
                        "(8, 1, 2, 'BTCUSDT', 'limit', 'sell', 100, 1, 100, 'taker', 'no', 'USDT', 0, 0.1, 1, 1)")) {
                    s.execute("insert into spot_fill (uid, trade_id, order_id, symbol, order_type, side, price_avg, size, amount, trade_scope,"
                            + " deduction, fee_coin, total_deduction_fee, total_fee, c_time, u_time) values " + values);
                }
            }
            db.flyway().load().migrate();
            try (Connection c = DriverManager.getConnection(db.url(), db.user(), ""); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("select wire_json from spot_fill order by uid, trade_id")) {
                List<String> json = new ArrayList<>();
                while (rs.next()) json.add(rs.getString(1));
                assertThat(json).containsExactly(
                        "{\"userId\":\"7\",\"symbol\":\"ETHUSDT\",\"orderId\":\"5\",\"tradeId\":\"5\",\"orderType\":\"market\",\"side\":\"sell\","
                                + "\"priceAvg\":\"2000\",\"size\":\"1.5\",\"amount\":\"3000\",\"tradeScope\":\"taker\",\"feeDetail\":{\"deduction\":\"yes\","
                                + "\"feeCoin\":\"BGB\",\"totalDeductionFee\":\"0.12\",\"totalFee\":\"0\"},\"cTime\":\"1700000000100\",\"uTime\":\"1700000000100\"}",
                        "{\"userId\":\"7\",\"symbol\":\"BTCUSDT\",\"orderId\":\"901\",\"tradeId\":\"900\",\"orderType\":\"limit\",\"side\":\"buy\","
                                + "\"priceAvg\":\"27000.5\",\"size\":\"0.01\",\"amount\":\"270.005\",\"tradeScope\":\"maker\",\"feeDetail\":{\"deduction\":\"no\","
                                + "\"feeCoin\":\"USDT\",\"totalDeductionFee\":\"0\",\"totalFee\":\"0.270005\"},\"cTime\":\"1700000000000\",\"uTime\":\"1700000000001\"}",
                        "{\"userId\":\"8\",\"symbol\":\"BTCUSDT\",\"orderId\":\"2\",\"tradeId\":\"1\",\"orderType\":\"limit\",\"side\":\"sell\","
                                + "\"priceAvg\":\"100\",\"size\":\"1\",\"amount\":\"100\",\"tradeScope\":\"taker\",\"feeDetail\":{\"deduction\":\"no\","
                                + "\"feeCoin\":\"USDT\",\"totalDeductionFee\":\"0\",\"totalFee\":\"0.1\"},\"cTime\":\"1\",\"uTime\":\"1\"}");
                // V14: no default any more, so a fill stored without its JSON is refused rather than served as ''.
                assertThatThrownBy(() -> s.execute("insert into spot_fill (uid, trade_id, order_id, symbol, order_type, side, price_avg, size,"
                        + " amount, trade_scope, deduction, fee_coin, total_deduction_fee, total_fee, c_time, u_time) values"
                        + " (9, 1, 1, 'BTCUSDT', 'limit', 'buy', 1, 1, 1, 'maker', 'no', 'USDT', 0, 0, 1, 1)"))
                        .isInstanceOf(java.sql.SQLException.class);
            }
        }
    }

}
