package io.tas.store;

import io.tas.store.generated.DefaultSchema;
import org.jooq.Cursor;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.SortField;
import org.jooq.Table;
import org.jooq.impl.DSL;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One SHA-256 over the state of every account: each table's rows in primary-key order, each value rendered
 * canonically (numbers without trailing zeros, so 1.50 and 1.5 hash alike). Proof tests compare it before and
 * after a refused request ("a rejected command leaves state untouched") and across a crash and restart.
 * Node bookkeeping is left out: it changes with time, not with what clients did.
 */
public final class StateHash {
    /** A node's lease, the job scheduler's heartbeats and the sandbox clock move on their own; snapshots are not the world. */
    static final Set<String> NODE_BOOKKEEPING = Set.of("node_lease", "scheduled_tasks", "sandbox_clock", "sandbox_snapshot", "flyway_schema_history");

    /**
     * Tables hashed as the service reads them, not as stored. A minute's candle is one row per ledger writer (D221), and
     * which writer folded which print is not state (a replay may split them otherwise): each minute is hashed merged,
     * as the candle rows answer it.
     */
    static final Map<String, String> HASHED_AS_READ = Map.of("market_candle", """
            select distinct category, symbol, ts,
              first_value(open_price) over (partition by category, symbol, ts order by open_id, writer) as open_price,
              max(high_price) over (partition by category, symbol, ts) as high_price,
              min(low_price) over (partition by category, symbol, ts) as low_price,
              first_value(close_price) over (partition by category, symbol, ts order by close_id desc, writer desc) as close_price,
              sum(base_volume) over (partition by category, symbol, ts) as base_volume,
              sum(quote_turnover) over (partition by category, symbol, ts) as quote_turnover
            from market_candle order by category, symbol, ts""");

    public record TableHash(long rows, String hash) {}

    public record Result(String hash, Map<String, TableHash> tables) {}

    private StateHash() {}

    /** One snapshot (a read-only REPEATABLE READ transaction), rows streamed, so a large table is never held at once. */
    public static Result of(Database db) {
        return db.read(session -> session.connectionResult(c -> {
            boolean autoCommit = c.getAutoCommit();
            int isolation = c.getTransactionIsolation();
            c.setAutoCommit(false);
            c.setTransactionIsolation(java.sql.Connection.TRANSACTION_REPEATABLE_READ);
            try {
                Result r = of(DSL.using(c, session.dialect(), session.settings()));
                c.commit();
                return r;
            } catch (RuntimeException e) {
                c.rollback();
                throw e;
            } finally {
                c.setTransactionIsolation(isolation);
                c.setAutoCommit(autoCommit);
            }
        }));
    }

    static Result of(DSLContext dsl) {
        MessageDigest all = sha256();
        Map<String, TableHash> tables = new LinkedHashMap<>();
        List<Table<?>> sorted = new ArrayList<>(DefaultSchema.DEFAULT_SCHEMA.getTables());
        sorted.sort(Comparator.comparing(t -> t.getName().toLowerCase(java.util.Locale.ROOT)));
        for (Table<?> t : sorted) {
            String name = t.getName().toLowerCase(java.util.Locale.ROOT);
            if (NODE_BOOKKEEPING.contains(name)) continue;
            MessageDigest one = sha256();
            long rows = 0;
            String asRead = HASHED_AS_READ.get(name);
            try (Cursor<? extends Record> cursor = asRead != null ? dsl.resultQuery(asRead).fetchSize(1_000).fetchLazy()
                    : dsl.selectFrom(t).orderBy(order(t)).fetchSize(1_000).fetchLazy()) {
                for (Record r : cursor) {
                    one.update(line(r).getBytes(StandardCharsets.UTF_8));
                    rows++;
                }
            }
            String hash = HexFormat.of().formatHex(one.digest());
            tables.put(name, new TableHash(rows, hash));
            all.update((name + ":" + rows + ":" + hash + "\n").getBytes(StandardCharsets.UTF_8));
        }
        return new Result(HexFormat.of().formatHex(all.digest()), tables);
    }

    private static List<SortField<?>> order(Table<?> t) {
        List<? extends Field<?>> keys = t.getPrimaryKey() != null ? t.getPrimaryKey().getFields() : List.of(t.fields());
        return keys.stream().<SortField<?>>map(Field::asc).toList();
    }

    private static String line(Record r) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < r.size(); i++) b.append(canonical(r.get(i))).append('\u001f');
        return b.append('\n').toString();
    }

    static String canonical(Object v) {
        if (v == null) return "\u2205";
        if (v instanceof BigDecimal d) return d.signum() == 0 ? "0" : d.stripTrailingZeros().toPlainString();
        if (v instanceof byte[] bytes) return HexFormat.of().formatHex(bytes);
        return v.toString();
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
