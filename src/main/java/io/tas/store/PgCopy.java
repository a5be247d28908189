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
                // Class 23 (integrity constraint violation), as jOOQ maps it for an INSERT: answered 40017, never a 5xx.
                if (e.getSQLState() != null && e.getSQLState().startsWith("23")) throw new IntegrityConstraintViolationException(e.getMessage(), e);
                throw e;
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
        return v instanceof BigDecimal d ? value(d) : value(v.toString());
    }

    /**
     * Rows of one table's columns, as the engine's batches write them: a COPY on PostgreSQL from {@link #FROM_ROWS} rows
     * (a sweep page, D177), else one prepared statement executed as a JDBC batch (a group commit's few rows).
     */
    public static void insert(DSLContext dsl, Table<?> table, List<? extends Field<?>> columns, List<Object[]> rows) {
        if (rows.isEmpty()) return;
        if (dsl.dialect() == SQLDialect.POSTGRES && rows.size() >= FROM_ROWS) {
            copyIn(dsl, table.getName(), columns.stream().map(Field::getName).toList(), rows, (c, r) -> {
                for (Object v : r) c.valueOrNull(v);
            });
            return;
        }
        var batch = dsl.batch(dsl.insertInto(table).columns(columns).values(new Object[columns.size()]));
        rows.forEach(batch::bind);
        batch.execute();
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
