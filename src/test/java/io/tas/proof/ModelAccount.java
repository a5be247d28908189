package io.tas.proof;

import io.tas.proof.SimWorld.Acct;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * One account as the reference model (RefModel) believes it is: its kind, balance rows per (account type, coin), open
 * positions, contract settings, fee deduction and Reality allow-list. Mutated only by RefModel, after the service
 * accepted an operation the model agrees with.
 */
final class ModelAccount {
    /** One balance row (formulas.md, Ledger): available, frozen (margin and order holds), debt. */
    static final class Bal {
        BigDecimal available = BigDecimal.ZERO, frozen = BigDecimal.ZERO, debt = BigDecimal.ZERO;

        boolean isZero() { return available.signum() == 0 && frozen.signum() == 0 && debt.signum() == 0; }
    }

    /** One open position (§2.15 figures), as stored: every amount at the ledger's 18 decimals. Fees are negative when paid. */
    static final class Position {
        final String id;
        final RefModel.Contract contract;
        final String side;
        final String marginMode;
        BigDecimal leverage, size, entry, margin;
        BigDecimal achieved = BigDecimal.ZERO, openFee = BigDecimal.ZERO, closeFee = BigDecimal.ZERO;
        /** §2.14 / §2.16: sizes opened and closed in all, and the value closed (Σ size x price), for the close average. */
        BigDecimal openTotal, closeTotal = BigDecimal.ZERO, closeValue = BigDecimal.ZERO;

        Position(String id, RefModel.Contract contract, String side, String marginMode, BigDecimal leverage) {
            this.id = id;
            this.contract = contract;
            this.side = side;
            this.marginMode = marginMode;
            this.leverage = leverage;
        }

        int dir() { return side.equals("long") ? 1 : -1; }

        boolean inverse() { return contract.inverse(); }

        String marginCoin() { return contract.marginCoin(); }

        /** §2.15 deductedFee: the fees paid so far, positive. */
        BigDecimal deductedFee() { return openFee.add(closeFee).negate(); }

        @Override
        public String toString() {
            return id + " " + contract.symbol() + " " + side + " " + marginMode + " " + leverage.toPlainString() + "x size " + size.toPlainString()
                    + " entry " + entry.toPlainString() + " margin " + margin.toPlainString();
        }
    }

    /** A contract's configuration (§2.3 symbolConfigList): margin mode and each side's leverage. */
    record Config(String marginMode, BigDecimal longLeverage, BigDecimal shortLeverage) {
        BigDecimal leverage(String side) { return side.equals("long") ? longLeverage : shortLeverage; }
    }

    final Acct acct;
    boolean unified;
    boolean realityAllowed;
    boolean deduct;
    /** The hold mode (§2.3): hedge_mode when true; engine orders then name their position (issue 25). */
    boolean hedge;
    /** When a requested switch to classic is due (test clock, ms), or 0 when none is in process. */
    long switchDue;
    /** Rows by "account/coin" (account: spot, unified, otc). */
    final Map<String, Bal> balances = new TreeMap<>();
    /** Open positions by ID, in the order they were opened; closed ones (history positions, §2.14 / §2.16) by ID. */
    final Map<String, Position> positions = new LinkedHashMap<>();
    final Map<String, Position> closed = new LinkedHashMap<>();
    /** Contract settings by symbol (contracts never configured are crossed at 10x or their maximum when lower). */
    final Map<String, Config> configs = new TreeMap<>();

    ModelAccount(Acct acct, boolean unified) {
        this.acct = acct;
        this.unified = unified;
    }

    Bal bal(String account, String coin) { return balances.computeIfAbsent(account + "/" + coin, k -> new Bal()); }

    Bal unified(String coin) { return bal("unified", coin); }

    Config config(RefModel.Contract c) {
        BigDecimal fallback = BigDecimal.TEN.min(BigDecimal.valueOf(c.maxLeverage()));
        return configs.getOrDefault(c.symbol(), new Config("crossed", fallback, fallback));
    }

    /** The open position of a contract's side, or null (one per side, D44). */
    Position open(String symbol, String side) {
        for (Position p : positions.values()) if (p.contract.symbol().equals(symbol) && p.side.equals(side)) return p;
        return null;
    }
}
