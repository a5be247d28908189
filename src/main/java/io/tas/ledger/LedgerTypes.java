package io.tas.ledger;

import java.math.BigDecimal;

/** The ledger's vocabulary. Constants are spelled as on the wire / in the database. */
public final class LedgerTypes {
    private LedgerTypes() {}

    /** Which of a user's accounts a balance sits in (§2.8: spot, unified trading account, OTC). */
    public enum AccountType { spot, unified, otc }

    /** The column of a balance row a movement changes. */
    public enum Field { available, frozen, debt }

    /**
     * The system side of every movement (double entry): where the value came from or went to. insurance covers
     * a loss that an account without borrowing (classic) cannot pay when its position is closed. transfer carries
     * value between two of one user's accounts (the account switch moves unified balances to spot): its rows of one
     * transaction sum to zero per coin. order holds and releases what a working order freezes; trade is the market
     * side of an engine fill (what the account pays and receives).
     */
    public enum Counter { deposit, withdrawal, adjustment, conversion, fee, margin, pnl, funding, loan, insurance, transfer, order, trade }

    /** One balance row's key. Ordered, so locks are always taken in one order (no deadlocks). */
    public record BalanceKey(long uid, AccountType account, String coin) implements Comparable<BalanceKey> {
        @Override
        public int compareTo(BalanceKey o) {
            int c = Long.compare(uid, o.uid);
            if (c != 0) return c;
            c = account.compareTo(o.account);
            return c != 0 ? c : coin.compareTo(o.coin);
        }
    }

    /** A balance row. available and frozen never go negative; debt is what the account owes in this coin. */
    public record Balance(BalanceKey key, BigDecimal available, BigDecimal frozen, BigDecimal debt) {
        public static Balance empty(BalanceKey key) {
            return new Balance(key, BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO);
        }

        public BigDecimal get(Field f) {
            return switch (f) {
                case available -> available;
                case frozen -> frozen;
                case debt -> debt;
            };
        }

        Balance plus(Field f, BigDecimal amount) {
            return switch (f) {
                case available -> new Balance(key, available.add(amount), frozen, debt);
                case frozen -> new Balance(key, available, frozen.add(amount), debt);
                case debt -> new Balance(key, available, frozen, debt.add(amount));
            };
        }
    }

    /** Command: change one field of one balance by a signed amount, against a counter-account. */
    public record Movement(BalanceKey key, Field field, BigDecimal amount, Counter counter) {}
}
