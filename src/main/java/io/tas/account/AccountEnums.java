package io.tas.account;

/**
 * Value sets of §2.3 and §2.13. Constants are spelled exactly as on the wire, so name() is the wire
 * value and valueOf() is the parser (a bad value is a 40020 at the edge).
 */
public final class AccountEnums {
    private AccountEnums() {}

    /** §2.13 accountMode of a sub-account, and which API family (v3 / v2) the account uses. */
    public enum AccountKind { UNIFIED, CLASSIC }
    /** §2.13 status. DESIGN: emit normal/frozen, never the example's "freeze". */
    public enum AccountStatus { normal, frozen }
    /** §2.13 type. */
    public enum AccountType { normal, virtual, custodian, fund_management, agent, other }
    /** §2.3 accountMode. */
    public enum AccountMode { unified, hybrid, upgrading, switching }
    /** §2.3 accountLevel. */
    public enum AccountLevel { basic, advanced, isolated, delta }
    /** §2.3 assetMode. */
    public enum AssetMode { multi_assets }
    /** §2.3 holdMode. */
    public enum HoldMode { one_way_mode, hedge_mode }
    /** §2.3 stpMode. */
    public enum StpMode { none, cancel_taker, cancel_maker, cancel_both }
    /** §2.3 deltaSwitch. */
    public enum DeltaSwitch { no, yes }
    /** §2.3 repayMode. */
    public enum RepayMode { auto, manual }
    /** §2.5 deduct. */
    public enum Deduct { on, off }
    /** §2.3 symbolConfigList marginMode. */
    public enum MarginMode { crossed, isolated }
    /** §4.8 / §2.20 categories of contracts and pairs. */
    public enum Category {
        SPOT, MARGIN, USDT_FUTURES, COIN_FUTURES, USDC_FUTURES;

        @com.fasterxml.jackson.annotation.JsonValue
        public String wire() { return name().replace('_', '-'); }

        public boolean isFutures() { return name().endsWith("FUTURES"); }

        public static Category fromWire(String s) { return valueOf(s.replace('-', '_')); }
    }
}
