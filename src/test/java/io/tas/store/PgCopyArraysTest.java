package io.tas.store;

import io.tas.support.Databases;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The engine's batches bind each column as an array literal PgCopy writes itself (D215): every value must come back from
 * PostgreSQL exactly as it went in, the awkward ones too (quotes, backslashes, braces, commas, blanks, the word NULL,
 * SQL null, the extremes of bigint and numeric(38, 18)).
 */
class PgCopyArraysTest {
    private static Databases.TestDb db;

    @BeforeAll
    static void createDatabase() { db = Databases.create(Databases.Kind.POSTGRES); }

    @AfterAll
    static void dropDatabase() { db.close(); }

    @Test
    void everyValueComesBackAsItWasBound() throws SQLException {
        List<Object[]> rows = new ArrayList<>();
        String[] texts = {"plain", "a \"quoted\" word", "back\\slash\\", "{braces},commas", "NULL", "", "  blanks  ",
                "new\nline\ttab", "ünïcødé €", "\\\"", null};
        BigDecimal[] amounts = {new BigDecimal("12345678901234567890.123456789012345678"), new BigDecimal("-0.000000000000000001"),
                BigDecimal.ZERO, new BigDecimal("1E+3"), new BigDecimal("100.010000000000000000"), null};
        for (int i = 0; i < texts.length; i++) {
            long id = i == 0 ? Long.MAX_VALUE : i == 1 ? Long.MIN_VALUE : i;
            rows.add(new Object[]{id, amounts[i % amounts.length], texts[i], i % 3 == 0 ? null : i % 3 == 1, i});
        }
        try (Connection c = DriverManager.getConnection(db.url(), db.user(), "")) {
            try (var s = c.createStatement()) {
                s.execute("create table t (id bigint, amount numeric(38, 18), label text, flag boolean, n integer)");
            }
            try (var ps = c.prepareStatement("insert into t select * from unnest(?::bigint[], ?::numeric[], ?::text[], ?::boolean[], ?::integer[])")) {
                assertThat(PgCopy.bindArrays(c, ps, 1, List.of("bigint", "numeric", "text", "boolean", "integer"), rows)).isEqualTo(6);
                assertThat(ps.executeUpdate()).isEqualTo(texts.length);
            }
            List<Object[]> back = new ArrayList<>();
            try (var s = c.createStatement(); var rs = s.executeQuery("select id, amount, label, flag, n from t order by n")) {
                while (rs.next()) {
                    back.add(new Object[]{rs.getLong(1), rs.getBigDecimal(2), rs.getString(3), (Boolean) rs.getObject(4), rs.getInt(5)});
                }
            }
            assertThat(back).hasSameSizeAs(rows);
            for (int i = 0; i < rows.size(); i++) {
                Object[] in = rows.get(i), out = back.get(i);
                assertThat(out[0]).isEqualTo(in[0]);
                // numeric(38, 18) keeps 18 decimals: compare the amounts, not their scales.
                if (in[1] == null) assertThat(out[1]).isNull();
                else assertThat(((BigDecimal) out[1]).compareTo((BigDecimal) in[1])).as("amount %s", in[1]).isZero();
                assertThat(out[2]).as("row %d", i).isEqualTo(in[2]);
                assertThat(out[3]).isEqualTo(in[3]);
                assertThat(out[4]).isEqualTo(in[4]);
            }
        }
    }
}
