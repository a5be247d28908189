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
 * Also the engine's smaller batches, in plain JDBC (D213, D214): a table's rows as one statement over arrays (Shape,
 * insert), and a group commit's statements of every table sent as one (Part, together).
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
    public record Shape(String table, List<String> columns, List<String> arrayTypes, String unnestInsert, String valuesInsert) {}

    /** The shape of table's columns, in the order each row's values are given. */
    public static Shape shape(Table<?> table, List<? extends Field<?>> columns) {
        List<String> names = columns.stream().map(Field::getName).toList();
        List<String> types = columns.stream().map(PgCopy::arrayType).toList();
        String into = "insert into " + table.getName() + " (" + String.join(", ", names) + ") ";
        return new Shape(table.getName(), names, types,
                into + "select * from unnest(" + String.join(", ", types.stream().map(t -> "?::" + t + "[]").toList()) + ")",
                into + "values (" + String.join(", ", java.util.Collections.nCopies(names.size(), "?")) + ")");
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
        if (pg) {
            run(dsl, arrays(shape.unnestInsert(), shape.arrayTypes(), rows));
            return;
        }
        batch(dsl, shape.valuesInsert(), rows);
    }

    /** One prepared statement executed as a JDBC batch, a row's values as its parameters in order (H2's batches, D213). */
    public static void batch(DSLContext dsl, String sql, List<Object[]> rows) {
        dsl.connection(c -> {
            try (var ps = c.prepareStatement(sql)) {
                for (Object[] r : rows) {
                    for (int i = 0; i < r.length; i++) ps.setObject(i + 1, r[i]);
                    ps.addBatch();
                }
                ps.executeBatch();
            } catch (SQLException e) {
                throw translated(e);
            }
        });
    }

    /** One data-changing statement of a batch (PostgreSQL): its SQL, and what binds its parameters from the first given. */
    public record Part(String sql, Binder binder) {}

    /** Binds a part's parameters from index `first` on; returns the next free index. */
    public interface Binder {
        int bind(java.sql.Connection c, java.sql.PreparedStatement ps, int first) throws SQLException;
    }

    /** A part whose parameters are the rows' columns, each one array of arrayTypes[i]. */
    public static Part arrays(String sql, List<String> arrayTypes, List<Object[]> rows) {
        return new Part(sql, (c, ps, first) -> bindArrays(c, ps, first, arrayTypes, rows));
    }

    /**
     * Column i of every row as parameter first + i, an array literal the statement casts to arrayTypes[i]
     * (`?::numeric[]`); returns the next free index. The literal is written here, not by the driver's createArrayOf,
     * whose per-element escaping was a quarter of a group-commit writer's CPU (D215).
     */
    public static int bindArrays(java.sql.Connection c, java.sql.PreparedStatement ps, int first, List<String> arrayTypes,
                                 List<Object[]> rows) throws SQLException {
        for (int col = 0; col < arrayTypes.size(); col++) ps.setObject(first + col, arrayLiteral(rows, col), java.sql.Types.OTHER);
        return first + arrayTypes.size();
    }

    /** Column col of the rows in PostgreSQL's array input syntax: {1,2.5,"a \"b\"",NULL}. */
    static String arrayLiteral(List<Object[]> rows, int col) {
        StringBuilder s = new StringBuilder(rows.size() * 24 + 2).append('{');
        for (int r = 0; r < rows.size(); r++) {
            if (r > 0) s.append(',');
            switch (rows.get(r)[col]) {
                case null -> s.append("NULL");
                case Long v -> s.append(v.longValue());
                case Integer v -> s.append(v.intValue());
                case BigDecimal v -> s.append(v.toPlainString());
                case Boolean v -> s.append(v ? 't' : 'f');
                // Quoted, so that nothing in it (a comma, a brace, blanks, the word NULL) is read as syntax.
                case Object v -> quoted(s, v.toString());
            }
        }
        return s.append('}').toString();
    }

    private static void quoted(StringBuilder s, String v) {
        s.append('"');
        for (int i = 0; i < v.length(); i++) {
            char ch = v.charAt(i);
            if (ch == '"' || ch == '\\') s.append('\\');
            s.append(ch);
        }
        s.append('"');
    }

    /** The parts made inside together() on this thread, sent when it ends; null outside. */
    private static final ThreadLocal<Parts> TOGETHER = new ThreadLocal<>();

    /** A batch's parts: those sent as one statement, and those on a row every writer shares, sent after it. */
    private record Parts(List<Part> together, List<Part> last) {}

    /**
     * Runs a batch's writes; on PostgreSQL the parts they make (run) are sent at the end as one statement, each but the
     * last a data-modifying WITH query (D214): one round trip and one plan for a group commit's rows of every table. The
     * parts change distinct tables or distinct rows, so the order they run in does not matter. Statements that are not
     * parts (a COPY, a jOOQ query) run at once. The parts made by runLast follow, one statement each, in the order made.
     * With thenCommit (a group commit's own transaction, which nothing follows) COMMIT is the round trip's last statement
     * (D218): the caller's commit() then finds the transaction ended, and the driver sends nothing. A failing statement
     * skips what follows it, COMMIT too, so a batch the database refused is rolled back as before; a COMMIT the answer
     * of which is lost with the connection is a lost connection, whose outcome the group commit treats as unknown.
     */
    public static void together(DSLContext dsl, boolean thenCommit, Runnable writes) {
        if (dsl.dialect() != SQLDialect.POSTGRES || TOGETHER.get() != null) {
            writes.run();
            return;
        }
        Parts parts = new Parts(new java.util.ArrayList<>(), new java.util.ArrayList<>());
        TOGETHER.set(parts);
        try {
            writes.run();
        } finally {
            TOGETHER.remove();
        }
        // One round trip (D218): the parts as one statement, then each last part as a statement of its own, in the order
        // made, in one multi-statement text that the server runs in that order.
        List<List<Part>> statements = new java.util.ArrayList<>();
        if (!parts.together().isEmpty()) statements.add(parts.together());
        parts.last().forEach(p -> statements.add(List.of(p)));
        if (thenCommit && !statements.isEmpty()) statements.add(List.of(COMMIT));
        executeInOrder(dsl, statements);
    }

    private static final Part COMMIT = new Part("commit", (c, ps, first) -> first);

    /** Runs the part now, or with the others at the end of together(). */
    public static void run(DSLContext dsl, Part part) {
        Parts parts = TOGETHER.get();
        if (parts != null) parts.together().add(part);
        else execute(dsl, List.of(part));
    }

    /**
     * As run, for a part that updates a row other writers update too (a symbol's candle): inside together() it is sent
     * after the other parts, the last statement before the commit. Its row lock is then held for the commit alone, not
     * for the batch's other writes, which a second writer would otherwise wait behind (D215). Callers make such parts
     * in one global order (their rows' keys), so that two writers cannot wait for each other.
     */
    public static void runLast(DSLContext dsl, Part part) {
        Parts parts = TOGETHER.get();
        if (parts != null) parts.last().add(part);
        else execute(dsl, List.of(part));
    }

    private static void execute(DSLContext dsl, List<Part> parts) {
        if (!parts.isEmpty()) executeInOrder(dsl, List.of(parts));
    }

    /** The statements in one round trip, in order; each statement's parts as one (data-modifying WITH queries, D214). */
    private static void executeInOrder(DSLContext dsl, List<List<Part>> statements) {
        if (statements.isEmpty()) return;
        StringBuilder sql = new StringBuilder();
        for (List<Part> parts : statements) {
            if (!sql.isEmpty()) sql.append(";\n");
            for (int i = 0; i < parts.size() - 1; i++) sql.append(i == 0 ? "with " : ", ").append("w").append(i).append(" as (").append(parts.get(i).sql()).append(")");
            sql.append(parts.size() > 1 ? " " : "").append(parts.getLast().sql());
        }
        dsl.connection(c -> {
            try (var ps = c.prepareStatement(sql.toString())) {
                int next = 1;
                for (List<Part> parts : statements) for (Part p : parts) next = p.binder().bind(c, ps, next);
                ps.execute();
            } catch (SQLException e) {
                throw translated(e);
            }
        });
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
