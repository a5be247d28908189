package io.tas.store;

import io.tas.store.generated.DefaultSchema;
import io.tas.store.generated.Tables;
import io.tas.store.generated.tables.records.SandboxSnapshotRecord;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.ForeignKey;
import org.jooq.SQLDialect;
import org.jooq.Table;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Issue 28 item 4 (D189): the whole state saved under a name and put back in one transaction. A snapshot's rows are
 * copies of the tables in a schema of their own ({@code tas_snap_N}), so saving and restoring are set operations inside
 * the database (INSERT ... SELECT), on H2 and PostgreSQL alike, and every node sees a snapshot another node saved.
 * Node leases, the sandbox clock's row and the catalog itself are not part of the world and are left alone; the clock's
 * state and the saver's ID generator travel in the catalog row instead (the caller puts them back).
 */
public final class Snapshots {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]{1,64}");
    private static final io.tas.store.generated.tables.SandboxSnapshot CATALOG = Tables.SANDBOX_SNAPSHOT;
    /** Not the world: who runs, the clock's own row, and the snapshots. */
    private static final Set<Table<?>> OUTSIDE = Set.of(Tables.NODE_LEASE, Tables.SANDBOX_CLOCK, Tables.SANDBOX_SNAPSHOT);
    /** The world's tables, each after every table it references: inserts go in this order, deletes in reverse. */
    static final List<Table<?>> WORLD = dependencyOrder();

    private final Database db;
    /** H2: tables still equal to a snapshot's copies, which its restore skips (D205). */
    private final UnchangedTables unchanged = new UnchangedTables();

    public Snapshots(Database db) { this.db = db; }

    /** What travels with a snapshot besides its rows. */
    public record Extras(long clockOffsetMillis, Long clockFrozenAt, long clockAdvanced, int idNode, long idLastMillis, long idSequence) {}

    public record Saved(String name, long createdTime, long rows, String schemaVersion, Extras extras) {}

    /** A restore's outcome: the snapshot, and whether only the differences were written (else every table anew). */
    public record Restored(Saved saved, boolean onlyChanges) {}

    public static boolean validName(String name) { return name != null && NAME.matcher(name).matches(); }

    /** Saves the world under name, replacing a snapshot of that name. */
    public Saved save(String name, long createdTime, Extras extras) {
        return db.tx(tx -> {
            DSLContext dsl = tx.dsl();
            repeatableRead(dsl);
            lockWrites(dsl); // H2: no other session writes until commit, so every copy sees the same state
            Optional<SandboxSnapshotRecord> old = dsl.selectFrom(CATALOG).where(CATALOG.NAME.eq(name)).forUpdate().fetchOptional();
            String schema = "tas_snap_" + Long.toHexString(System.nanoTime()) + Long.toHexString(Thread.currentThread().threadId());
            dsl.execute("create schema " + schema);
            long rows = 0;
            for (Table<?> t : WORLD) {
                dsl.execute("create table " + copy(schema, t) + " as select * from " + t.getName());
                // The copy's key is what a restore finds rows by (below): without it every lookup is a scan.
                // (A unique constraint: H2's copy drops NOT NULL, which a primary key needs.)
                if (t.getPrimaryKey() != null) {
                    dsl.execute("alter table " + copy(schema, t) + " add constraint " + t.getName() + "_k unique (" + names(key(t), "") + ")");
                }
                rows += ((Number) dsl.fetchValue("select count(*) from " + copy(schema, t))).longValue();
            }
            String version = schemaVersion(dsl);
            if (old.isPresent()) {
                dropSchema(dsl, old.get().getSchemaName());
                dsl.deleteFrom(CATALOG).where(CATALOG.NAME.eq(name)).execute();
            }
            dsl.insertInto(CATALOG).set(new SandboxSnapshotRecord(name, schema, version, createdTime, extras.clockOffsetMillis(),
                    extras.clockFrozenAt(), extras.clockAdvanced(), extras.idNode(), extras.idLastMillis(), extras.idSequence(), rows)).execute();
            rememberUnchanged(tx, name);
            return new Saved(name, createdTime, rows, version, extras);
        });
    }

    /**
     * Puts the world back as it was saved, in one transaction with alsoInTx (the clock's row): only what differs is
     * written. Rows whose key the snapshot lacks are deleted (children first), then every table is merged from its copy
     * (parents first): a changed row updated, a missing one inserted. Identity columns then continue after their
     * largest value. Should the constraints refuse that order (a row moved to another parent, a unique value handed from
     * one row to another), the transaction rolls back and every table is emptied and refilled instead. Empty when there
     * is no snapshot of that name.
     */
    public Optional<Restored> restore(String name, java.util.function.BiConsumer<Tx, Saved> alsoInTx) {
        try {
            return db.tx(tx -> restore(tx, name, true, alsoInTx));
        } catch (org.jooq.exception.DataAccessException refused) {
            return db.tx(tx -> restore(tx, name, false, alsoInTx));
        }
    }

    private Optional<Restored> restore(Tx tx, String name, boolean onlyDifferences, java.util.function.BiConsumer<Tx, Saved> alsoInTx) {
        DSLContext dsl = tx.dsl();
        lockWrites(dsl);
        Optional<SandboxSnapshotRecord> found = dsl.selectFrom(CATALOG).where(CATALOG.NAME.eq(name)).fetchOptional();
        if (found.isEmpty()) return Optional.empty();
        SandboxSnapshotRecord s = found.get();
        if (!s.getSchemaVersion().equals(schemaVersion(dsl))) throw new Stale();
        String schema = s.getSchemaName();
        // PostgreSQL: no other transaction writes the world until this one ends (readers go on; H2 has its gate).
        if (dsl.dialect() == SQLDialect.POSTGRES) {
            dsl.execute("lock table " + String.join(", ", WORLD.stream().map(Table::getName).toList()) + " in exclusive mode");
        }
        if (onlyDifferences) {
            // D205: on H2 the tables no one has touched since they last equalled this snapshot are left as they are.
            Set<String> same = unchanged.unchanged(name, UnchangedTables.counts(dsl), db.openings());
            List<Table<?>> changed = WORLD.stream().filter(t -> !same.contains(t.getName())).toList();
            for (Table<?> t : changed.reversed()) {
                if (t.getPrimaryKey() == null) dsl.deleteFrom(t).execute();
                else dsl.execute("delete from " + t.getName() + " t where not exists (select 1 from " + copy(schema, t) + " s where "
                        + same(key(t), " and ") + ")");
            }
            for (Table<?> t : changed) dsl.execute(merge(schema, t));
        } else if (dsl.dialect() == SQLDialect.POSTGRES) {
            dsl.truncate(WORLD).execute();
            for (Table<?> t : WORLD) dsl.execute("insert into " + t.getName() + " select * from " + copy(schema, t));
        } else {
            for (Table<?> t : WORLD.reversed()) dsl.deleteFrom(t).execute();
            for (Table<?> t : WORLD) dsl.execute("insert into " + t.getName() + " select * from " + copy(schema, t));
        }
        Saved saved = saved(s);
        alsoInTx.accept(tx, saved);
        // H2 moves a table's modification count at commit (SessionLocal.markUsedTablesAsUpdated): commit what was
        // written here, so the counts remembered below are final (D205). An identity restart's DDL commits there too;
        // the write gate stays held until our own commit either way, and a failure after it leaves the fallback to
        // rewrite everything.
        if (dsl.dialect() != SQLDialect.POSTGRES) dsl.execute("commit");
        restartIdentities(dsl); // last: on H2 a restart is DDL, which commits (the write gate stays held until our commit)
        rememberUnchanged(tx, name);
        return Optional.of(new Restored(saved, onlyDifferences));
    }

    /** The statement that makes t equal its copy for every key the copy holds. */
    private static String merge(String schema, Table<?> t) {
        List<String> all = t.fieldStream().map(Field::getName).toList();
        if (t.getPrimaryKey() == null) return "insert into " + t.getName() + " select * from " + copy(schema, t);
        List<String> key = key(t);
        List<String> rest = all.stream().filter(c -> !key.contains(c)).toList();
        StringBuilder m = new StringBuilder("merge into " + t.getName() + " t using " + copy(schema, t) + " s on (" + same(key, " and ") + ")");
        if (!rest.isEmpty()) {
            m.append(" when matched and not (").append(rest.stream().map(c -> "t." + c + " is not distinct from s." + c).reduce((a, b) -> a + " and " + b).orElseThrow())
                    .append(") then update set ").append(rest.stream().map(c -> c + " = s." + c).reduce((a, b) -> a + ", " + b).orElseThrow());
        }
        return m.append(" when not matched then insert (").append(String.join(", ", all)).append(") values (").append(names(all, "s.")).append(")").toString();
    }

    private static List<String> key(Table<?> t) { return t.getPrimaryKey().getFields().stream().map(Field::getName).toList(); }

    private static String names(List<String> columns, String prefix) {
        return columns.stream().map(c -> prefix + c).reduce((a, b) -> a + ", " + b).orElseThrow();
    }

    private static String same(List<String> columns, String joiner) {
        return columns.stream().map(c -> "t." + c + " = s." + c).reduce((a, b) -> a + joiner + b).orElseThrow();
    }

    /** A snapshot saved under another schema version than the database's: its copies may not fit the tables. */
    public static final class Stale extends RuntimeException {
        Stale() { super("the snapshot was saved under another schema version: save it again", null, false, false); }
    }

    public List<Saved> list() {
        return db.read(dsl -> dsl.selectFrom(CATALOG).orderBy(CATALOG.NAME).fetch(Snapshots::saved));
    }

    /** Drops a snapshot; false when there is none of that name. */
    public boolean delete(String name) {
        return db.tx(tx -> {
            DSLContext dsl = tx.dsl();
            lockWrites(dsl);
            Optional<SandboxSnapshotRecord> found = dsl.selectFrom(CATALOG).where(CATALOG.NAME.eq(name)).forUpdate().fetchOptional();
            if (found.isEmpty()) return false;
            dsl.deleteFrom(CATALOG).where(CATALOG.NAME.eq(name)).execute();
            dropSchema(dsl, found.get().getSchemaName());
            tx.afterCommit(() -> unchanged.forget(name));
            return true;
        });
    }

    /** Every table of the world now equals name's copies: their modification counts say so until one moves (H2, D205). */
    private void rememberUnchanged(Tx tx, String name) {
        Map<String, Long> counts = UnchangedTables.counts(tx.dsl());
        long opening = db.openings(); // read holding a connection: the file cannot be reopened meanwhile (D204)
        tx.afterCommit(() -> unchanged.remember(name, counts, opening));
    }

    private static Saved saved(SandboxSnapshotRecord r) {
        return new Saved(r.getName(), r.getCreatedTime(), r.getRowCount(), r.getSchemaVersion(),
                new Extras(r.getClockOffsetMillis(), r.getClockFrozenAt(), r.getClockAdvanced(), r.getIdNode(), r.getIdLastMillis(), r.getIdSequence()));
    }

    private static String copy(String schema, Table<?> t) {
        return schema + "." + t.getName(); // both are plain lower-case identifiers (names render unquoted, Database)
    }

    private static void dropSchema(DSLContext dsl, String schema) {
        dsl.execute("drop schema " + schema + " cascade");
    }

    /** PostgreSQL: every copy reads the same committed state. (H2 gets there through its write gate.) */
    private static void repeatableRead(DSLContext dsl) {
        if (dsl.dialect() == SQLDialect.POSTGRES) dsl.execute("set transaction isolation level repeatable read");
    }

    /**
     * H2: takes the write gate (H2WriteGate) with a statement that changes nothing, before any DDL: H2 commits at each
     * DDL statement, but the gate is held until this transaction's own commit, so no other session writes in between.
     */
    private static void lockWrites(DSLContext dsl) {
        if (dsl.dialect() != SQLDialect.POSTGRES) dsl.execute("delete from sandbox_snapshot where 1 = 0");
    }

    private static String schemaVersion(DSLContext dsl) {
        return dsl.fetchValue("select max(\"version\") from \"flyway_schema_history\" where \"success\"" + (dsl.dialect() == SQLDialect.POSTGRES ? "" : " = true"))
                .toString();
    }

    /**
     * An identity column continues after the largest value restored (a replay then numbers rows as the first run did).
     * H2 restarts one by DDL, slow and a commit of its own, so only when its next value is not that already.
     */
    private static void restartIdentities(DSLContext dsl) {
        List<Table<?>> tables = WORLD.stream().filter(t -> t.getIdentity() != null).toList();
        if (tables.isEmpty()) return;
        // One statement for every table's largest value, one (H2) for every identity's next value: not two a table.
        Map<String, Long> next = new HashMap<>();
        dsl.fetch(tables.stream().map(t -> "select '" + t.getName() + "', max(" + t.getIdentity().getField().getName() + ") from " + t.getName())
                .reduce((a, b) -> a + " union all " + b).orElseThrow())
                .forEach(r -> next.put(r.get(0, String.class), r.get(1) == null ? 1 : ((Number) r.get(1)).longValue() + 1));
        Map<String, Long> base = new HashMap<>();
        if (dsl.dialect() != SQLDialect.POSTGRES) {
            dsl.fetch("select lower(table_name), identity_base from information_schema.columns where lower(table_schema) = 'public' and is_identity = 'YES'")
                    .forEach(r -> base.put(r.get(0, String.class), r.get(1) == null ? null : ((Number) r.get(1)).longValue()));
        }
        for (Table<?> t : tables) {
            String column = t.getIdentity().getField().getName();
            long n = next.get(t.getName());
            if (dsl.dialect() == SQLDialect.POSTGRES) {
                dsl.fetch("select setval(pg_get_serial_sequence(?, ?), ?, false)", t.getName(), column, n);
            } else if (!Long.valueOf(n).equals(base.get(t.getName()))) {
                dsl.execute("alter table " + t.getName() + " alter column " + column + " restart with " + n);
            }
        }
    }

    private static List<Table<?>> dependencyOrder() {
        List<Table<?>> tables = new ArrayList<>(DefaultSchema.DEFAULT_SCHEMA.getTables());
        tables.removeIf(OUTSIDE::contains);
        tables.removeIf(t -> t.getName().equalsIgnoreCase("flyway_schema_history"));
        LinkedHashSet<Table<?>> ordered = new LinkedHashSet<>();
        while (ordered.size() < tables.size()) {
            int before = ordered.size();
            for (Table<?> t : tables) {
                if (ordered.contains(t)) continue;
                boolean ready = true;
                for (ForeignKey<?, ?> fk : t.getReferences()) {
                    Table<?> parent = fk.getKey().getTable();
                    if (!parent.equals(t) && tables.contains(parent) && !ordered.contains(parent)) ready = false;
                }
                if (ready) ordered.add(t);
            }
            if (ordered.size() == before) throw new IllegalStateException("foreign keys form a cycle");
        }
        return List.copyOf(ordered);
    }

}
