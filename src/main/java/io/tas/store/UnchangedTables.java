package io.tas.store;

import org.jooq.DSLContext;
import org.jooq.SQLDialect;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * D205: on H2, which tables of the world still equal a snapshot's copies, so that a restore skips them. H2 counts
 * modifications per table ({@code INFORMATION_SCHEMA.TABLES.LAST_MODIFICATION}): every insert, update, delete, truncate
 * and merge moves it, committed or rolled back, whichever session made it. A table whose count is still the one read
 * when it last equalled snapshot N's copy (in the transaction that saved or restored N, behind the write gate) still
 * equals it. The counts start again each time H2 opens the file (D204 reopens it), so a record holds only for the
 * opening it was read in. PostgreSQL has no such count: every table is compared there.
 */
final class UnchangedTables {
    private record Counts(long opening, Map<String, Long> byTable) {}

    private final Map<String, Counts> bySnapshot = new ConcurrentHashMap<>();

    /** Each table's modification count, by lower-case name; empty on PostgreSQL. */
    static Map<String, Long> counts(DSLContext dsl) {
        if (dsl.dialect() == SQLDialect.POSTGRES) return Map.of();
        Map<String, Long> out = new HashMap<>();
        for (var r : dsl.fetch("select lower(table_name), last_modification from information_schema.tables where lower(table_schema) = 'public'")) {
            out.put(r.get(0, String.class), r.get(1, Long.class));
        }
        return out;
    }

    /** Tables of snapshot that still equal its copies: the counts are the ones recorded, in the same opening. */
    Set<String> unchanged(String snapshot, Map<String, Long> now, long opening) {
        Counts then = bySnapshot.get(snapshot);
        if (then == null || then.opening() != opening || now.isEmpty()) return Set.of();
        Set<String> same = new HashSet<>();
        then.byTable().forEach((table, count) -> { if (count != null && count.equals(now.get(table))) same.add(table); });
        return same;
    }

    /** Every table equals snapshot's copies at these counts (read in the transaction that made it so, which committed). */
    void remember(String snapshot, Map<String, Long> counts, long opening) {
        if (counts.isEmpty()) return;
        bySnapshot.put(snapshot, new Counts(opening, Map.copyOf(counts)));
    }

    void forget(String snapshot) { bySnapshot.remove(snapshot); }
}
