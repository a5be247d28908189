package io.tas.spot;

import io.tas.spot.RecordInputs.FeeInput;
import io.tas.spot.RecordInputs.FillInput;
import io.tas.spot.RecordInputs.WithdrawalInput;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * A seed's `generate:` block: deterministic fills and withdrawals, newest one hour (fills) / twelve hours
 * (withdrawals) apart, the newest `ago` one step before seed time. Times are "ago" durations, so demo data is inside
 * the 90-day window of §4.5.1 whenever the seed is applied (250 fills span ~10 days, 45 withdrawals ~23 days).
 */
public final class SpotDemoData {
    private SpotDemoData() {}

    public static List<FillInput> fills(int count) {
        List<FillInput> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) { // oldest first: IDs are minted in cTime order
            boolean btc = i % 2 == 0;
            boolean buy = i % 3 != 0;
            BigDecimal price = btc ? new BigDecimal("97000.5").add(BigDecimal.valueOf(i % 10)) : new BigDecimal("3420.25").add(BigDecimal.valueOf(i % 7));
            BigDecimal size = btc ? new BigDecimal("0.001").multiply(BigDecimal.valueOf(1 + i % 5)) : new BigDecimal("0.01").multiply(BigDecimal.valueOf(1 + i % 3));
            BigDecimal amount = price.multiply(size);
            boolean deduct = i % 5 == 0; // paid in BGB at a discount
            String feeCoin = deduct ? "BGB" : (buy ? (btc ? "BTC" : "ETH") : "USDT");
            BigDecimal fee = (deduct ? amount.multiply(new BigDecimal("0.0008")).divide(new BigDecimal("6.4321"), 12, java.math.RoundingMode.DOWN)
                    : (buy ? size : amount).multiply(new BigDecimal("0.001"))).negate(); // fees as the platform shows them: negative
            out.add(new FillInput(null, null, btc ? "BTCUSDT" : "ETHUSDT", i % 4 == 0 ? "market" : "limit", buy ? "buy" : "sell",
                    price, size, amount, i % 4 == 0 ? "taker" : "maker",
                    new FeeInput(deduct ? "yes" : "no", feeCoin, deduct ? fee : BigDecimal.ZERO, fee), null, null,
                    "PT" + (count - i) + "H"));
        }
        return out;
    }

    public static List<WithdrawalInput> withdrawals(int count) {
        List<WithdrawalInput> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            boolean onChain = i % 3 != 0;
            boolean usdt = i % 2 == 0;
            String status = i % 11 == 5 ? "fail" : (i == count - 1 ? "pending" : "success");
            String tradeId = onChain ? String.format("0x%064x", 0x5eed000L + i) : Long.toString(1_300_000_000_000_000_000L + i);
            out.add(new WithdrawalInput(null, tradeId, usdt ? "USDT" : "BTC", "demo-w-" + i, "withdraw",
                    onChain ? "on_chain" : "internal_transfer",
                    usdt ? new BigDecimal(10 + i) : new BigDecimal("0.0015").add(new BigDecimal("0.0001").multiply(BigDecimal.valueOf(i))),
                    onChain ? (usdt ? new BigDecimal("1") : new BigDecimal("0.0002")) : BigDecimal.ZERO, status,
                    onChain ? (usdt ? "TDemoFromAddr1000000005" : "bc1qdemofrom1000000005") : "1000000005",
                    onChain ? (usdt ? "TDemoToAddr" + i : "bc1qdemoto" + i) : "demo-friend@example.com",
                    onChain ? (usdt ? "TRC20" : "BTC") : "", onChain && !"pending".equals(status) ? "12" : "0", "",
                    null, null, "PT" + (12 * (count - i)) + "H"));
        }
        return out;
    }
}
