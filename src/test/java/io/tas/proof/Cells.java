package io.tas.proof;

import io.tas.api.Admin;
import io.tas.support.ApiClient.Reply;

import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs matrix cells against their expected answers and proves that every denied cell changed nothing: the state hash
 * (every table of every account) is the same before and after it. Hashes are chained: the hash after one denied cell
 * is the one before the next, and an allowed cell (which may change state) makes the next denied cell hash afresh.
 */
final class Cells {
    /** The expected answer: code, and the message when it matters; denied cells must change nothing. */
    record Expect(String code, String msg, boolean denied) {
        static Expect allowed(String code) { return new Expect(code, null, false); }
        static Expect denied(String code, String msg) { return new Expect(code, msg, true); }
    }

    /** One cell: what it is, what it must answer, and the call. */
    record Cell(String label, Expect expect, Supplier<Reply> call) {}

    private final Admin admin;
    private String hash;
    int cells;
    int denied;
    int unchanged;

    Cells(Admin admin) { this.admin = admin; }

    Reply run(String label, Expect expect, Supplier<Reply> call) {
        if (expect.denied() && hash == null) hash = admin.stateHash();
        Reply r = call.get();
        cells++;
        assertThat(r.code()).as(label + ": " + r.raw()).isEqualTo(expect.code());
        assertThat(r.status()).as(label + ": " + r.raw()).isEqualTo(expect.code().equals("00000") ? 200 : 400);
        if (expect.msg() != null) assertThat(r.msg()).as(label).isEqualTo(expect.msg());
        if (expect.denied()) {
            denied++;
            String after = admin.stateHash();
            assertThat(after).as(label + ": a denied cell changed the state").isEqualTo(hash);
            unchanged++;
            hash = after;
        } else {
            hash = null;
        }
        return r;
    }

    /**
     * Runs the denied cells first, one after another, so that each hash after one is the hash before the next (one
     * hash per denied cell, plus one), then the allowed cells in their given order (some build on earlier ones, such
     * as the cancel of an order the place cell made).
     */
    void runAll(java.util.List<Cell> all) {
        for (Cell c : all) if (c.expect().denied()) run(c.label(), c.expect(), c.call());
        for (Cell c : all) if (!c.expect().denied()) run(c.label(), c.expect(), c.call());
    }

    /** Forgets the last hash: something outside the cells (setup) may have changed the state. */
    void stateMoved() { hash = null; }
}
