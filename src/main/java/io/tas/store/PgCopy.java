package io.tas.store;

import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.SQLDialect;
import org.jooq.Table;
import org.jooq.exception.IntegrityConstraintViolationException;
import org.postgresql.PGConnection;

import java.io.StringReader;
import java.math.BigDecimal;
import java.sql.SQLException;
import java.util.List;

/**
 * Bulk insert through PostgreSQL's COPY (the driver's CopyManager), inside the caller's transaction. For large record
 * batches (1M fills, issue 9): a multi-row INSERT made jOOQ build a data type and the driver encode a parameter per
 * value, a third of the ingest's server CPU; COPY sends one text stream. A duplicate key still surfaces as jOOQ's
 * IntegrityConstraintViolationException, so {@link Database#insertUnique} answers it as before.
 */
public final class PgCopy {
    /** D170: below this many rows a batched INSERT is cheaper on PostgreSQL than a COPY (its fixed cost is about 1 ms). */
    public static final int FROM_ROWS = 256;

    private final StringBuilder text;
    private boolean rowStarted;

    private PgCopy(int rows) { this.text = new StringBuilder(rows * 512); }

    /** COPY table (columns) FROM STDIN with each element of rows written by writer (one {@link #row()} per element). */
    public static <T> void copyIn(DSLContext dsl, String table, List<String> columns, List<T> rows, RowWriter<T> writer) {
        PgCopy copy = new PgCopy(rows.size());
        for (T r : rows) {
            writer.write(copy, r);
            copy.end();
        }
        String sql = "copy " + table + " (" + String.join(", ", columns) + ") from stdin";
        dsl.connection(c -> {
            try {
                c.unwrap(PGConnection.class).getCopyAPI().copyIn(sql, new StringReader(copy.text.toString()));
            } catch (SQLException e) {
                throw translated(e);
            }
        });
    }

    public interface RowWriter<T> {
        void write(PgCopy copy, T row);
    }

    public PgCopy value(long v) { sep(); text.append(v); return this; }

    public PgCopy value(BigDecimal v) { sep(); text.append(v.toPlainString()); return this; }

    /** A value that may be SQL null (COPY's text format spells it \\N). */
    public PgCopy valueOrNull(Object v) {
        if (v == null) { sep(); text.append("\\N"); return this; }
        if (v instanceof Long l) return value(l.longValue());
        return v instanceof BigDecimal d ? value(d) : value(v.toString());
    }

    /**
     * A table's columns as the engine's batches write them, resolved once (a static constant of the caller): the plain
     * SQL and the PostgreSQL array types, so a batch renders nothing and converts no value through jOOQ (D213).
     */
    public record Shape(String table, List<String> columns, List<String> arrayTypes) {
        String unnestInsert() {
            StringBuilder sql = new StringBuilder("insert into ").append(table).append(" (").append(String.join(", ", columns))
                    .append(") select * from unnest(");
            for (int i = 0; i < arrayTypes.size(); i++) sql.append(i == 0 ? "" : ", ").append("?::").append(arrayTypes.get(i)).append("[]");
            return sql.append(")").toString();
        }

        String valuesInsert() {
            return "insert into " + table + " (" + String.join(", ", columns) + ") values ("
                    + String.join(", ", java.util.Collections.nCopies(columns.size(), "?")) + ")";
        }
    }

    /** The shape of table's columns, in the order each row's values are given. */
    public static Shape shape(Table<?> table, List<? extends Field<?>> columns) {
        return new Shape(table.getName(), columns.stream().map(Field::getName).toList(), columns.stream().map(PgCopy::arrayType).toList());
    }

    private static String arrayType(Field<?> f) {
        return switch (f.getDataType().getSQLType()) {
            case java.sql.Types.BIGINT -> "bigint";
            case java.sql.Types.INTEGER -> "integer";
            case java.sql.Types.NUMERIC, java.sql.Types.DECIMAL -> "numeric";
            case java.sql.Types.BOOLEAN, java.sql.Types.BIT -> "boolean";
            case java.sql.Types.VARCHAR, java.sql.Types.CHAR, java.sql.Types.LONGVARCHAR, java.sql.Types.CLOB -> "text";
            default -> throw new IllegalArgumentException("no array type for " + f.getName() + " " + f.getDataType());
        };
    }

    /**
     * Rows of one table's columns, as the engine's batches write them (D213): on PostgreSQL a COPY from
     * {@link #FROM_ROWS} rows (a sweep page, D177), else one INSERT … SELECT FROM unnest(arrays), whose text and plan
     * are the same whatever the row count; on H2 one prepared INSERT executed as a JDBC batch. Plain JDBC either way.
     */
    public static void insert(DSLContext dsl, Shape shape, List<Object[]> rows) {
        if (rows.isEmpty()) return;
        boolean pg = dsl.dialect() == SQLDialect.POSTGRES;
        if (pg && rows.size() >= FROM_ROWS) {
            copyIn(dsl, shape.table(), shape.columns(), rows, (c, r) -> {
                for (Object v : r) c.valueOrNull(v);
            });
            return;
        }
        dsl.connection(c -> {
            try {
                if (pg) {
                    try (var ps = c.prepareStatement(shape.unnestInsert())) {
                        bindArrays(c, ps, shape.arrayTypes(), rows);
                        ps.executeUpdate();
                    }
                    return;
                }
                try (var ps = c.prepareStatement(shape.valuesInsert())) {
                    for (Object[] r : rows) {
                        for (int i = 0; i < r.length; i++) ps.setObject(i + 1, r[i]);
                        ps.addBatch();
                    }
                    ps.executeBatch();
                }
            } catch (SQLException e) {
                throw translated(e);
            }
        });
    }

    /** Column i of every row as the i-th parameter, an array of arrayTypes[i] (PostgreSQL). */
    public static void bindArrays(java.sql.Connection c, java.sql.PreparedStatement ps, List<String> arrayTypes, List<Object[]> rows)
            throws SQLException {
        for (int col = 0; col < arrayTypes.size(); col++) {
            Object[] values = new Object[rows.size()];
            for (int r = 0; r < values.length; r++) values[r] = rows.get(r)[col];
            ps.setArray(col + 1, c.createArrayOf(arrayTypes.get(col), values));
        }
    }

    /**
     * A failed statement as jOOQ would have reported it: a constraint violation (SQL state class 23, also as the cause of
     * a batch's failure) as IntegrityConstraintViolationException, answered 40017 (never a 5xx); anything else as is.
     */
    public static SQLException translated(SQLException e) {
        for (SQLException x = e; x != null; x = x.getNextException()) {
            if (x.getSQLState() != null && x.getSQLState().startsWith("23")) throw new IntegrityConstraintViolationException(x.getMessage(), x);
            if (x.getNextException() == x) break;
        }
        return e;
    }

    /** COPY's text format: backslash, tab, newline and carriage return are escaped; never null here. */
    public PgCopy value(String v) {
        sep();
        for (int i = 0; i < v.length(); i++) {
            char ch = v.charAt(i);
            switch (ch) {
                case '\\' -> text.append("\\\\");
                case '\t' -> text.append("\\t");
                case '\n' -> text.append("\\n");
                case '\r' -> text.append("\\r");
                default -> text.append(ch);
            }
        }
        return this;
    }

    private void sep() {
        if (rowStarted) text.append('\t');
        rowStarted = true;
    }

    private void end() {
        text.append('\n');
        rowStarted = false;
    }
}
