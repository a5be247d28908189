package io.tas.account;

import io.tas.account.AccountEnums.AccountLevel;
import io.tas.account.AccountEnums.Deduct;
import io.tas.account.AccountEnums.DeltaSwitch;
import io.tas.account.AccountEnums.HoldMode;
import io.tas.account.AccountSettings.CoinConfig;
import io.tas.account.AccountSettings.SymbolConfig;
import io.tas.error.ApiException;
import io.tas.error.ErrorCode;

/**
 * Commands that change an account's settings (§4.1). Each is decided by a pure function of the settings and the
 * account's exposure, both read under the account's lock, so a refusal changes nothing and an acceptance is
 * still true at the commit.
 */
public sealed interface SettingsChange {
    long uid();

    /** The settings after the change, or an ApiException when it is refused. */
    AccountSettings apply(AccountSettings now, Exposure exposure);

    /** Whether apply reads the exposure (a batch without such a change does not read it). */
    default boolean needsExposure() { return false; }

    /** What an account holds that constrains its settings: open contracts, and orders still pending. */
    record Exposure(java.util.Set<String> openContracts, int pendingOrders) {
        public static final Exposure NONE = new Exposure(java.util.Set.of(), 0);

        public static String contract(AccountEnums.Category category, String symbol) { return category.wire() + "/" + symbol; }

        public boolean holds(AccountEnums.Category category, String symbol) { return openContracts.contains(contract(category, symbol)); }
    }

    /** Reads the exposure of accounts under their locks (the position store; later the order stores too). */
    interface ExposureProbe {
        java.util.Map<Long, Exposure> of(org.jooq.DSLContext dsl, java.util.Collection<Long> uids);
    }

    /**
     * §4.1.2 a contract's margin mode and leverage. A contract with open positions needs their margin moved with
     * the leverage in the same transaction: unless positionsMoved says the caller did, it is refused with
     * ContractHasPositions (the caller's cue to take the positions' path).
     */
    record SetContractLeverage(long uid, AccountEnums.Category category, String symbol,
                               java.util.function.Function<java.util.Optional<SymbolConfig>, SymbolConfig> resolve,
                               boolean positionsMoved) implements SettingsChange {
        @Override
        public AccountSettings apply(AccountSettings now, Exposure exposure) {
            if (!positionsMoved && exposure.holds(category, symbol)) throw new ContractHasPositions();
            // Resolved against the configuration current under the lock: a side the request leaves out keeps its value.
            return now.with(resolve.apply(now.symbolConfig(category, symbol)));
        }

        @Override
        public boolean needsExposure() { return !positionsMoved; }
    }

    /** Thrown by SetContractLeverage: the change needs the positions' path (it is not a client error). */
    final class ContractHasPositions extends RuntimeException {
        ContractHasPositions() { super("the contract has open positions", null, false, false); }
    }

    /** §4.1.2 category MARGIN: a coin's margin leverage. */
    record SetCoinLeverage(long uid, CoinConfig config) implements SettingsChange {
        @Override
        public AccountSettings apply(AccountSettings now, Exposure exposure) { return now.with(config); }
    }

    /** §4.1 set-hold-mode: refused while any contract is open or any order pending (decisions.md D44: 25010). */
    record SetHoldMode(long uid, HoldMode mode) implements SettingsChange {
        @Override
        public AccountSettings apply(AccountSettings now, Exposure exposure) {
            if (now.holdMode() == mode) return now;
            if (!exposure.openContracts().isEmpty() || exposure.pendingOrders() > 0) throw new ApiException(ErrorCode.POSITION_MODE_SWITCH_UNSUPPORTED);
            return now.withHoldMode(mode);
        }

        @Override
        public boolean needsExposure() { return true; }
    }

    /** §4.1 switch-deduct. */
    record SetDeduct(long uid, Deduct deduct) implements SettingsChange {
        @Override
        public AccountSettings apply(AccountSettings now, Exposure exposure) { return now.withDeduct(deduct); }
    }

    /** §3.2 / §4.1.4 the account level, and with advanced the delta-neutral switch (null: the account keeps its own). */
    record SetAccountLevel(long uid, AccountLevel level, DeltaSwitch deltaSwitch) implements SettingsChange {
        @Override
        public AccountSettings apply(AccountSettings now, Exposure exposure) {
            return now.withLevel(level, deltaSwitch != null ? deltaSwitch : now.deltaSwitch());
        }
    }
}
