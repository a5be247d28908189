package io.tas.spot;

import io.tas.spot.RecordInputs.DepositInput;
import io.tas.spot.RecordInputs.FeeInput;
import io.tas.spot.RecordInputs.FillInput;
import io.tas.spot.RecordInputs.WithdrawalInput;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;

/**
 * A unified account's `generate:` block (beyond-spec shapes §9-11): deterministic fills (SPOT BTCUSDT and ETHUSDT,
 * COIN-FUTURES BTCUSD: no symbol id shared between categories, since ccxt matches fills on the id alone), withdrawals
 * and deposits. Fills are 4 hours apart, withdrawals and deposits 20 hours apart (deposits 10 hours after them), the
 * newest one step before seed time: 150 fills, 30 withdrawals and 30 deposits span 25 days, inside the 30-day window
 * the v3 rows (and ccxt's defaults) use. Records are history: they do not replay the seeded balances.
 */
public final class UnifiedDemoData {
    private UnifiedDemoData() {}

    private static final BigDecimal SPOT_FEE = new BigDecimal("0.001");
    private static final BigDecimal FUTURES_FEE = new BigDecimal("0.0006");

    /**
     * Fill i (oldest first): i % 3 = 0 SPOT BTCUSDT at 97000 + i % 10, size 0.001 x (1 + i % 5); 1 SPOT ETHUSDT at
     * 3420 + i % 7, size 0.01 x (1 + i % 3); 2 COIN-FUTURES BTCUSD at 97000 + i % 10, size 0.01. Even i buy, odd sell;
     * i % 4 = 0 market/taker, else limit/maker. Fees (v2 sign: negative = paid): spot 0.1 % of what is received (base
     * coin on a buy, USDT on a sell), paid in BGB at 0.08 % / 6.4321 when i % 5 = 0; futures 0.06 % of the size in BTC.
     * A futures sell realises execPnl 0.00002 BTC.
     */
    public static List<FillInput> fills(int count) {
        List<FillInput> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int kind = i % 3;
            boolean buy = i % 2 == 0;
            String category = kind == 2 ? "COIN-FUTURES" : "SPOT";
            String symbol = kind == 0 ? "BTCUSDT" : kind == 1 ? "ETHUSDT" : "BTCUSD";
            BigDecimal price = kind == 1 ? BigDecimal.valueOf(3420 + i % 7) : BigDecimal.valueOf(97000 + i % 10);
            BigDecimal size = kind == 0 ? new BigDecimal("0.001").multiply(BigDecimal.valueOf(1 + i % 5))
                    : kind == 1 ? new BigDecimal("0.01").multiply(BigDecimal.valueOf(1 + i % 3)) : new BigDecimal("0.01");
            BigDecimal amount = price.multiply(size);
            boolean deduct = kind != 2 && i % 5 == 0;
            String feeCoin;
            BigDecimal fee;
            if (kind == 2) {
                feeCoin = "BTC";
                fee = size.multiply(FUTURES_FEE);
            } else if (deduct) {
                feeCoin = "BGB";
                fee = amount.multiply(new BigDecimal("0.0008")).divide(new BigDecimal("6.4321"), 12, RoundingMode.DOWN);
            } else {
                feeCoin = buy ? (kind == 0 ? "BTC" : "ETH") : "USDT";
                fee = (buy ? size : amount).multiply(SPOT_FEE);
            }
            fee = fee.negate();
            boolean market = i % 4 == 0;
            BigDecimal pnl = kind == 2 && !buy ? new BigDecimal("0.00002") : null;
            out.add(new FillInput(null, null, symbol, market ? "market" : "limit", buy ? "buy" : "sell", price, size, amount,
                    market ? "taker" : "maker", new FeeInput(deduct ? "yes" : "no", feeCoin, deduct ? fee : BigDecimal.ZERO, fee),
                    null, null, "PT" + (4 * (count - i)) + "H", category, pnl));
        }
        return out;
    }

    /**
     * Withdrawal i (oldest first): even i USDT 50 + i (fee 1, TRC20), odd i BTC 0.002 + 0.0001 i (fee 0.0002, BTC);
     * i % 5 = 4 an internal transfer to the sub-account 1000000002 (no fee, no chain); the newest pending, i % 7 = 3
     * failed, the others successful.
     */
    public static List<WithdrawalInput> withdrawals(int count) {
        List<WithdrawalInput> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            boolean usdt = i % 2 == 0;
            boolean onChain = i % 5 != 4;
            String status = i == count - 1 ? "pending" : i % 7 == 3 ? "fail" : "success";
            BigDecimal size = usdt ? BigDecimal.valueOf(50 + i) : new BigDecimal("0.002").add(new BigDecimal("0.0001").multiply(BigDecimal.valueOf(i)));
            BigDecimal fee = !onChain ? BigDecimal.ZERO : usdt ? BigDecimal.ONE : new BigDecimal("0.0002");
            out.add(new WithdrawalInput(null, onChain ? String.format("0x%064x", 0xa11ce000L + i) : "", usdt ? "USDT" : "BTC", "uta-w-" + i,
                    "withdraw", onChain ? "on_chain" : "internal_transfer", size, fee, status,
                    onChain ? (usdt ? "TDemoMainFromAddr" : "bc1qdemomainfrom") : "1000000001",
                    onChain ? (usdt ? "TDemoToAddr" + i : "bc1qdemoto" + i) : "1000000002",
                    onChain ? (usdt ? "TRC20" : "BTC") : "", onChain && !"pending".equals(status) ? "12" : "0", "",
                    null, null, "PT" + (20 * (count - i)) + "H"));
        }
        return out;
    }

    /**
     * Deposit i (oldest first): i % 3 = 0 BTC 0.01 x (1 + i % 4) on BTC, else USDT 100 + 10 i on TRC20; i % 6 = 5 an
     * internal transfer from the sub-account 1000000002; the newest pending, i % 8 = 6 failed, the others successful.
     */
    public static List<DepositInput> deposits(int count) {
        List<DepositInput> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            boolean btc = i % 3 == 0;
            boolean onChain = i % 6 != 5;
            String status = i == count - 1 ? "pending" : i % 8 == 6 ? "fail" : "success";
            BigDecimal size = btc ? new BigDecimal("0.01").multiply(BigDecimal.valueOf(1 + i % 4)) : BigDecimal.valueOf(100 + 10L * i);
            out.add(new DepositInput(null, onChain ? String.format("0x%064x", 0xdeb0000L + i) : "", btc ? "BTC" : "USDT", "deposit",
                    onChain ? "on_chain" : "internal_transfer", size, status,
                    onChain ? (btc ? "bc1qdemodepositfrom" + i : "TDemoDepositFrom" + i) : "1000000002",
                    onChain ? (btc ? "bc1qdemomaindeposit" : "TDemoMainDepositAddr") : "1000000001",
                    onChain ? (btc ? "BTC" : "TRC20") : "", null, null, "PT" + (20 * (count - i) - 10) + "H"));
        }
        return out;
    }
}
