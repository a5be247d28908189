package io.tas.store;

import org.jooq.DSLContext;

import java.util.ArrayList;
import java.util.List;

/**
 * One database transaction, handed to whatever joins it as a parameter (issue 24: the unit of work is explicit). A
 * service method that takes a Tx writes in it and commits nothing; one that takes none runs in a transaction of its
 * own. Made only by Database.tx and Database.writerTx, valid until that call returns.
 */
public final class Tx {
    private final DSLContext dsl;
    private final List<Runnable> afterCommit = new ArrayList<>();

    Tx(DSLContext dsl) { this.dsl = dsl; }

    /** The transaction's connection: reads here see its own writes. */
    public DSLContext dsl() { return dsl; }

    /**
     * Runs after the commit, on the committing thread, in the order registered: what must follow the data but never
     * precede it (this node's cache drops, matching on a new ticker). Not run after a rollback. One that throws is
     * logged and does not stop the others: the commit has happened.
     */
    public void afterCommit(Runnable r) { afterCommit.add(r); }

    void committed() {
        for (Runnable r : afterCommit) {
            try {
                r.run();
            } catch (RuntimeException e) {
                org.slf4j.LoggerFactory.getLogger(Tx.class).warn("after-commit work failed: {}", e.toString());
            }
        }
    }
}
